package configs

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/safeio"
)

// moduleSource is where a tree's module files come from: the disk, or a
// plan's snapshot.
type moduleSource interface {
	// module returns the files of the module at dir (relative to the root,
	// slash-separated) reached through path, and an identity that is equal
	// for two paths naming the same directory (for cycle detection). call
	// is nil for the root; errors point at its source argument.
	module(dir string, p addrs.Module, call *ModuleCall) (files map[string][]byte, identity string, diags hcl.Diagnostics)
	// remoteDir returns the directory of a module called with a
	// non-local source: where init installed it (modules.json), or where
	// the snapshot recorded it.
	remoteDir(p addrs.Module, call *ModuleCall) (string, hcl.Diagnostics)
}

// chainLink is one module on the way from the root to the module being
// loaded.
type chainLink struct {
	identity, dir string
	path          addrs.Module
}

func (l *Loader) loadTree(src moduleSource) (*Config, hcl.Diagnostics) {
	files, id, diags := src.module(".", nil, nil)
	if diags.HasErrors() {
		return nil, diags
	}
	mod, ds := l.LoadModuleFromFiles(".", files)
	diags = append(diags, ds...)
	root := &Config{Module: mod, Children: map[string]*Config{}}
	root.Root = root
	diags = append(diags, l.loadChildren(root, src, []chainLink{{identity: id, dir: "."}})...)
	diags = append(diags, deprecationWarnings(root)...)
	diags = append(diags, rootEphemeralOutputs(mod)...)
	return root, diags
}

// rootEphemeralOutputs refuses ephemeral outputs in the root module, as
// Terraform and OpenTofu do: a root output is stored in the state, which an
// ephemeral value never reaches.
func rootEphemeralOutputs(mod *Module) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, name := range slices.Sorted(maps.Keys(mod.Outputs)) {
		if o := mod.Outputs[name]; o.Ephemeral {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Ephemeral output in the root module",
				Detail:   fmt.Sprintf("Output %q is declared ephemeral, but only outputs of child modules may be: a root module's outputs are saved in the state. Remove ephemeral = true, and wrap the value in ephemeralasnull() if it may carry ephemeral parts.", name),
				Subject:  o.DeclRange.Ptr(),
			})
		}
	}
	return diags
}

// loadChildren loads the modules cfg calls, depth first in call-name order.
// chain is the path from the root to cfg, to report a module that calls
// itself instead of recursing forever.
func (l *Loader) loadChildren(cfg *Config, src moduleSource, chain []chainLink) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, name := range slices.Sorted(maps.Keys(cfg.Module.ModuleCalls)) {
		call := cfg.Module.ModuleCalls[name]
		if call.SourceAddr == "" {
			continue // already reported while decoding the block
		}
		p := cfg.Path.Child(name)
		var dir string
		if isLocalSource(call.SourceAddr) {
			dir = childDir(cfg.Module.SourceDir, call.SourceAddr)
		} else {
			d, ds := src.remoteDir(p, call)
			diags = append(diags, ds...)
			if ds.HasErrors() {
				continue
			}
			dir = d
		}
		files, id, ds := src.module(dir, p, call)
		diags = append(diags, ds...)
		if ds.HasErrors() {
			continue
		}
		if cyc := findCycle(chain, id, dir, p, call); cyc != nil {
			diags = append(diags, cyc)
			continue
		}
		mod, ds := l.LoadModuleFromFiles(dir, files)
		diags = append(diags, ds...)
		if mod.Backend != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  "Backend configuration ignored",
				Detail:   "Only the root module's backend is used; this child module's backend block has no effect and can be removed.",
				Subject:  mod.Backend.DeclRange.Ptr(),
			})
		}
		diags = append(diags, checkRepeatedProviderModule(call, mod)...)
		child := &Config{
			Root: cfg.Root, Parent: cfg, Path: p, Children: map[string]*Config{},
			Module: mod, CallRange: call.DeclRange, SourceAddr: call.SourceAddr,
		}
		cfg.Children[name] = child
		next := append(append([]chainLink(nil), chain...), chainLink{identity: id, dir: dir, path: p})
		diags = append(diags, l.loadChildren(child, src, next)...)
	}
	return diags
}

// checkRepeatedProviderModule reports a module that configures providers
// itself yet is called with count, for_each or depends_on: Terraform forbids
// it because the provider configurations would be duplicated or ordered
// behind other objects.
func checkRepeatedProviderModule(call *ModuleCall, mod *Module) hcl.Diagnostics {
	if len(mod.ProviderConfigs) == 0 {
		return nil
	}
	var subject hcl.Range
	var arg string
	switch {
	case call.Count != nil:
		subject, arg = call.Count.Range(), "count"
	case call.ForEach != nil:
		subject, arg = call.ForEach.Range(), "for_each"
	case len(call.DependsOn) > 0:
		subject, arg = call.DependsOn[0].SourceRange(), "depends_on"
	default:
		return nil
	}
	first := mod.ProviderConfigs[slices.Sorted(maps.Keys(mod.ProviderConfigs))[0]]
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Module is incompatible with count, for_each, and depends_on",
		Detail: fmt.Sprintf("The module %q uses %s, but its source contains a provider configuration (at %s). "+
			"Move provider blocks to the root module and pass them in with the providers argument.", call.Name, arg, first.DeclRange),
		Subject: subject.Ptr(),
	}}
}

// findCycle returns an error if the module at id is already on the chain.
func findCycle(chain []chainLink, id, dir string, p addrs.Module, call *ModuleCall) *hcl.Diagnostic {
	for i, link := range chain {
		if link.identity != id {
			continue
		}
		var steps []string
		for _, l := range chain[i:] {
			steps = append(steps, describeModule(l.path, l.dir))
		}
		steps = append(steps, describeModule(p, dir))
		return &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Module cycle",
			Detail: fmt.Sprintf("Module %q calls a module that is already being loaded, so the configuration would be infinite: %s. "+
				"Change the source so no module calls itself, directly or through others.", call.Name, strings.Join(steps, " -> ")),
			Subject: call.SourceAddrRange.Ptr(),
		}
	}
	return nil
}

func describeModule(p addrs.Module, dir string) string {
	if p.IsRoot() {
		return "root module (" + dir + ")"
	}
	return p.String() + " (" + dir + ")"
}

// diskSource reads modules from a directory tree.
type diskSource struct{ root string }

var _ moduleSource = diskSource{}

func (d diskSource) module(dir string, p addrs.Module, call *ModuleCall) (map[string][]byte, string, hcl.Diagnostics) {
	osDir := filepath.Join(d.root, filepath.FromSlash(dir))
	id, err := filepath.EvalSymlinks(osDir)
	if err == nil {
		id, err = filepath.Abs(id)
	}
	if err == nil {
		var st os.FileInfo
		if st, err = os.Stat(id); err == nil && !st.IsDir() {
			err = fmt.Errorf("it is not a directory")
		}
	}
	if err != nil {
		if call == nil {
			return nil, "", hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Failed to read module directory",
				Detail: fmt.Sprintf("The configuration directory %s cannot be read: %s.", d.root, err)}}
		}
		return nil, "", hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Module source not found",
			Detail: fmt.Sprintf("The module %q has source %q, which is the directory %s relative to the root module, but that directory cannot be read (%s). "+
				"Check the path: local module sources are relative to the calling module's directory.", call.Name, call.SourceAddr, dir, unwrapPathErr(err)),
			Subject: call.SourceAddrRange.Ptr(),
		}}
	}
	files, diags := d.readDir(dir)
	return files, id, diags
}

// readDir reads every configuration file (by name; see classifyFile) of the
// module at dir. Subdirectories are not entered.
func (d diskSource) readDir(dir string) (map[string][]byte, hcl.Diagnostics) {
	osDir := filepath.Join(d.root, filepath.FromSlash(dir))
	entries, err := os.ReadDir(osDir)
	if err != nil {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Failed to read module directory",
			Detail: fmt.Sprintf("The module directory %s cannot be read: %s.", osDir, err)}}
	}
	files := map[string][]byte{}
	var diags hcl.Diagnostics
	for _, e := range entries {
		if classifyFile(e.Name()) == fileIgnored {
			continue
		}
		full := filepath.Join(osDir, e.Name())
		// A directory named like a configuration file is skipped, as
		// Terraform does; anything else that cannot be read (a dangling
		// or looping symlink, a FIFO, a device, a file over the size
		// limit) is an error naming it, never silently left out.
		if e.IsDir() {
			continue
		}
		if st, err := os.Stat(full); err == nil && st.IsDir() {
			continue
		}
		src, err := safeio.ReadFile(full, safeio.ConfigFileLimit)
		if err != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Failed to read file",
				Detail: fmt.Sprintf("The configuration file %s cannot be read: %s.", full, err)})
			continue
		}
		files[e.Name()] = src
	}
	return files, diags
}

func unwrapPathErr(err error) string {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err.Error()
	}
	return err.Error()
}
