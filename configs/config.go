package configs

import (
	"maps"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/addrs"
)

// Config is a node of the module tree: one module and the modules it calls.
type Config struct {
	Root       *Config
	Parent     *Config
	Path       addrs.Module       // nil for root
	Children   map[string]*Config // by module call name
	Module     *Module
	CallRange  hcl.Range // the calling module block's range (zero for root)
	SourceAddr string    // the module block's source as written ("./modules/net"); "" for root
}

// Descendant returns the module at path below c, or nil if there is none.
// O(len(path)).
func (c *Config) Descendant(p addrs.Module) *Config {
	cur := c
	for _, name := range p {
		if cur == nil {
			return nil
		}
		cur = cur.Children[name]
	}
	return cur
}

// DeepEach calls cb for c and every descendant, root first, then children
// in order of their call names (depth first), so output built from it is
// deterministic.
func (c *Config) DeepEach(cb func(*Config)) {
	cb(c)
	for _, name := range slices.Sorted(maps.Keys(c.Children)) {
		c.Children[name].DeepEach(cb)
	}
}

// ProviderTypes returns every provider the tree needs (declared in
// required_providers, configured by a provider block, or used by a
// resource), sorted by String(). Built-in providers are included.
func (c *Config) ProviderTypes() []addrs.Provider {
	seen := map[addrs.Provider]bool{}
	c.DeepEach(func(n *Config) {
		m := n.Module
		for _, rp := range m.ProviderRequirements {
			seen[rp.Type] = true
		}
		for _, pc := range m.ProviderConfigs {
			seen[m.ProviderForLocalConfig(pc.Addr())] = true
		}
		for _, r := range m.ManagedResources {
			seen[r.Provider] = true
		}
		for _, r := range m.DataResources {
			seen[r.Provider] = true
		}
		for _, r := range m.EphemeralResources {
			seen[r.Provider] = true
		}
		for _, imp := range m.Import {
			if imp.ToResource.Module.IsRoot() && m.ResourceByAddr(imp.ToResource.Resource) == nil {
				seen[m.importProvider(imp)] = true // a target whose block plan may generate
			}
		}
	})
	delete(seen, addrs.Provider{})
	out := make([]addrs.Provider, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// SourceFiles returns every source file of the tree keyed by the filename
// its diagnostics' ranges use (relative to the root directory, e.g.
// "main.tf", "modules/net/main.tf"), for rendering source snippets without
// reading the disk (hcl.NewDiagnosticTextWriter wants *hcl.File values; see
// SourceHCLFiles).
func (c *Config) SourceFiles() map[string][]byte {
	out := map[string][]byte{}
	c.DeepEach(func(n *Config) {
		for name, src := range n.Module.Files {
			out[path.Join(n.Module.SourceDir, name)] = src
		}
	})
	return out
}

// SourceHCLFiles returns SourceFiles parsed again as *hcl.File values, the
// map hcl.NewDiagnosticTextWriter takes to print source snippets and the
// enclosing block ("in resource ..."). It costs a parse of every file, so
// call it only when there are diagnostics to print.
func (c *Config) SourceHCLFiles() map[string]*hcl.File {
	out := map[string]*hcl.File{}
	for name, src := range c.SourceFiles() {
		f, _ := parseSource(name, src)
		if f == nil {
			f = &hcl.File{Bytes: src}
		}
		out[name] = f
	}
	return out
}

// ModuleKey returns the key of c in a Snapshot: the module path's call
// names joined by "." ("" for the root).
func (c *Config) ModuleKey() string { return moduleKey(c.Path) }

func moduleKey(p addrs.Module) string { return strings.Join(p, ".") }

// ExplicitHostProviders returns the providers some module's
// required_providers names with a hostname (source =
// "registry.terraform.io/hashicorp/null"). Every other registry address
// of the tree was implied (source "hashicorp/null", or no entry at all),
// and Terraform and OpenTofu imply different hosts for it.
func (c *Config) ExplicitHostProviders() map[addrs.Provider]bool {
	out := map[addrs.Provider]bool{}
	c.DeepEach(func(n *Config) {
		for _, rp := range n.Module.ProviderRequirements {
			if strings.Count(rp.Source, "/") == 2 {
				out[rp.Type] = true
			}
		}
	})
	return out
}
