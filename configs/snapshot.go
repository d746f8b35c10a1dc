package configs

import (
	"bytes"
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/addrs"
)

// Snapshot is what the plan archive stores of the configuration: every
// module's source files. Apply loads the configuration from it, never from
// disk.
type Snapshot struct {
	Modules map[string]*SnapshotModule // key: module path joined by "." ("" root, "net", "net.sub")
}

// SnapshotModule is one module of a Snapshot.
type SnapshotModule struct {
	Dir        string            // as loaded, relative to the root dir ("." for root), slash-separated
	SourceAddr string            // the calling module block's source ("" for root)
	Files      map[string][]byte // configuration files by base name
}

// Snapshot records the tree's source files. The bytes are copied, so the
// snapshot stays valid whatever happens to c. O(total source size).
func (c *Config) Snapshot() *Snapshot {
	s := &Snapshot{Modules: map[string]*SnapshotModule{}}
	c.DeepEach(func(n *Config) {
		files := make(map[string][]byte, len(n.Module.Files))
		for name, src := range n.Module.Files {
			files[name] = bytes.Clone(src)
		}
		s.Modules[n.ModuleKey()] = &SnapshotModule{Dir: n.Module.SourceDir, SourceAddr: n.SourceAddr, Files: files}
	})
	return s
}

// snapshotSource serves modules from a Snapshot, checking that each module
// call leads where it did when the snapshot was taken.
type snapshotSource struct{ s *Snapshot }

var _ moduleSource = snapshotSource{}

func (ss snapshotSource) module(dir string, p addrs.Module, call *ModuleCall) (map[string][]byte, string, hcl.Diagnostics) {
	key := moduleKey(p)
	sm := ss.s.Modules[key]
	if sm == nil {
		if call == nil {
			return nil, "", snapshotErr("it has no root module")
		}
		return nil, "", snapshotErr(fmt.Sprintf("it has no module %s", p))
	}
	if sm.Dir != dir {
		return nil, "", snapshotErr(fmt.Sprintf("module %q was recorded at directory %q, but its source leads to %q", key, sm.Dir, dir))
	}
	if call != nil && sm.SourceAddr != call.SourceAddr {
		return nil, "", snapshotErr(fmt.Sprintf("module %s was recorded with source %q, but the configuration says %q", p, sm.SourceAddr, call.SourceAddr))
	}
	return sm.Files, dir, nil
}

func snapshotErr(why string) hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Inconsistent configuration snapshot",
		Detail:   fmt.Sprintf("The configuration snapshot cannot be loaded: %s. The plan file may be damaged; create a new plan.", why),
	}}
}
