package command

import (
	"fmt"
	"os"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/backend/local"
	"github.com/plankit/plankit/internal/command/views"
	"github.com/plankit/plankit/internal/operation"
	"github.com/plankit/plankit/internal/safeio"
	"github.com/plankit/plankit/tfdiags"
)

const statePullUsage = `Usage: plan state pull [options]

  Prints the selected workspace's state, as stored in the backend, to
  standard output (v4 JSON), for example to keep a copy or move it.

Options:
  -backend-config=KEY=VALUE|FILE  Backend setting (repeatable).
`

// stateBackendFor resolves the backend of the configuration in wd (none
// is the local backend).
func stateBackendFor(m *Meta, wd string, bcfg []string) (*operation.Backend, hcl.Diagnostics) {
	var config *configs.Config
	if operation.HasConfigFiles(wd) {
		var diags hcl.Diagnostics
		config, diags = configs.LoadConfigDir(wd)
		if diags.HasErrors() {
			return nil, diags
		}
	}
	return operation.ResolveBackend(m.Env, wd, config, "", bcfg, nil)
}

// rawStater returns the stored bytes of a state, as a remote backend
// keeps them.
type rawStater interface {
	RawState() ([]byte, error)
}

// StatePull is `plan state pull`.
func StatePull(m *Meta, chdir string, args []string) int {
	fs := newFlagSetT("plan state pull", m.Stderr, statePullUsage)
	fs.StringVar(&chdir, "chdir", chdir, "switch to this working directory before anything else")
	var bcfg multiFlag
	fs.Var(&bcfg, "backend-config", "backend setting KEY=VALUE, or a file of them")
	if code, ok := fs.parse(m, args); !ok {
		return code
	}
	if fs.NArg() != 0 {
		return usageError(m, "plan state pull takes no arguments")
	}
	wd := m.workDir(chdir)
	u := &ui{out: m.Stdout, errw: m.Stderr}
	src := views.Sources{Dir: wd}
	s, diags := stateBackendFor(m, wd, bcfg)
	if diags.HasErrors() {
		u.diags(diags, src)
		return ExitError
	}
	codec, ds := operation.StateCodecIn(m.Env, wd)
	if ds.HasErrors() {
		u.diags(ds, src)
		return ExitError
	}
	o, ds := operation.OpenWorkspaceWith(m.ctx(), s, codec)
	if ds.HasErrors() {
		u.diags(ds, src)
		return ExitError
	}
	defer o.Close()
	var data []byte
	var err error
	switch mgr := o.Mgr.(type) {
	case rawStater:
		data, err = mgr.RawState()
	case *local.Mgr:
		data, err = safeio.ReadFile(mgr.Path(), safeio.StateFileLimit)
		if os.IsNotExist(err) {
			data, err = nil, nil
		}
	default:
		err = fmt.Errorf("this backend cannot return its stored state")
	}
	if err != nil {
		u.diags(hcl.Diagnostics{tfdiags.Errorf("Failed to read state", "Reading the state of %s failed: %s", o.Mgr.Describe(), err)}, src)
		return ExitError
	}
	if data, ds = operation.DecryptPulled(codec, data, o.Mgr.Describe()); ds.HasErrors() {
		u.diags(ds, src)
		return ExitError
	}
	m.Stdout.Write(data)
	return ExitOK
}
