package command

import (
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/depsfile"
	"github.com/plankit/plankit/internal/command/views"
	"github.com/plankit/plankit/internal/operation"
	"github.com/plankit/plankit/states"
)

const providersUsage = `Usage: plan providers [-plugin-dir=DIR] [-state=PATH] [-no-color]

  Prints the providers the configuration and the state need, as
  "terraform providers" does, and where each comes from: the plugin
  package discovery selects (and the directory it was found in), or
  "built in". It starts no provider and writes nothing.

Options:
  -plugin-dir=DIR  Look for plugins in this filesystem mirror first
                   (repeatable), as plan and apply do.
  -state=PATH      State file (default terraform.tfstate, or the local
                   backend's path).
`

// Providers runs `plan providers`. Exit 0 when every provider can be
// served, 1 otherwise (the ones that cannot are listed as "not found"
// and explained below).
func Providers(m *Meta, chdir string, args []string) int {
	fs := newFlagSetT("plan providers", m.Stderr, providersUsage)
	fs.StringVar(&chdir, "chdir", chdir, "switch to this working directory before anything else")
	var pluginDirs multiFlag
	fs.Var(&pluginDirs, "plugin-dir", "look for provider plugins in this directory first (repeatable)")
	statePathFlag := fs.String("state", "", "state file")
	noColor := fs.Bool("no-color", false, "no colour")
	if code, ok := fs.parse(m, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return usageError(m, "plan providers takes no positional arguments")
	}
	wd := m.workDir(chdir)
	u := newUI(m.Streams, false, *noColor)
	in, diags := graphFromWorkingDir(m, wd, *statePathFlag)
	src := views.Sources{Dir: wd}
	if in.config != nil {
		src.Files = in.config.SourceFiles()
	}
	if diags.HasErrors() {
		u.diags(diags, src)
		return ExitError
	}
	w := m.Stdout
	fmt.Fprint(w, "\nProviders required by configuration:\n")
	writeProviderTree(w, in.config)
	if ps := operation.StateProviders(in.state); len(ps) > 0 {
		fmt.Fprint(w, "\nProviders required by state:\n\n")
		for _, p := range ps {
			fmt.Fprintf(w, "    provider[%s]\n", p)
		}
	}
	rows, ds := providerSources(m, wd, pluginDirs, in.config, in.state)
	diags = append(diags, ds...)
	fmt.Fprint(w, "\nWhere each provider comes from:\n\n")
	for _, r := range rows {
		fmt.Fprintf(w, "    %s\n", r)
	}
	fmt.Fprintln(w)
	u.diags(diags, src)
	if diags.HasErrors() {
		return ExitError
	}
	return ExitOK
}

// providerSources says, for every provider the configuration and state
// need, how it would be served, checked against the working directory's
// lock file as plan checks it (but recording nothing).
func providerSources(m *Meta, wd string, pluginDirs []string, config *configs.Config, state *states.State) ([]string, hcl.Diagnostics) {
	if !m.discovers() {
		needed := operation.NeededProviders(config, state)
		var rows []string
		for _, p := range needed {
			if _, ok := m.Providers[p]; ok {
				rows = append(rows, fmt.Sprintf("%s: provided in-process", p))
			} else {
				rows = append(rows, fmt.Sprintf("%s: not found", p))
			}
		}
		return rows, nil
	}
	locks, diags := depsfile.LoadLocksFromFile(filepath.Join(wd, depsfile.LockFilePath))
	if diags.HasErrors() {
		return nil, diags
	}
	src := m.ProviderSource()
	finder, ds := src.NewFinder(wd, pluginDirs)
	diags = append(diags, ds...)
	if ds.HasErrors() {
		return nil, diags
	}
	needs := src.NeedsFor(wd, config, state, locks)
	needed := needs.Providers
	sels, ds := operation.SelectProviders(finder, needs, locks, depsfile.LockFilePath, operation.InitFix)
	diags = append(diags, ds...)
	var rows []string
	for _, p := range needed {
		sel, ok := sels[p]
		if !ok {
			rows = append(rows, fmt.Sprintf("%s: not found", p))
			continue
		}
		v := sel.Version
		if v == "" {
			v = "(no version)"
		}
		where := sel.Where()
		if !sel.BuiltIn {
			where = sel.Package.Source.String() + ": " + sel.Executable
			if locks.Provider(p) == nil {
				where += " (not yet in " + depsfile.LockFilePath + ")"
			}
		}
		rows = append(rows, fmt.Sprintf("%s %s: %s", p, v, where))
	}
	return rows, diags
}

// writeProviderTree prints the module tree with each module's providers
// and their version constraints, in Terraform's "providers" layout.
func writeProviderTree(w io.Writer, c *configs.Config) {
	fmt.Fprintln(w, ".")
	writeProviderChildren(w, c, "")
}

func writeProviderChildren(w io.Writer, c *configs.Config, indent string) {
	type item struct {
		line  string
		child *configs.Config
	}
	var items []item
	for _, p := range moduleProviders(c.Module) {
		line := "provider[" + p.String() + "]"
		if cs := moduleConstraint(c.Module, p); cs != "" {
			line += " " + cs
		}
		items = append(items, item{line: line})
	}
	names := make([]string, 0, len(c.Children))
	for n := range c.Children {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		items = append(items, item{line: "module." + n, child: c.Children[n]})
	}
	for i, it := range items {
		branch, next := "├── ", "│   "
		if i == len(items)-1 {
			branch, next = "└── ", "    "
		}
		fmt.Fprintf(w, "%s%s%s\n", indent, branch, it.line)
		if it.child != nil {
			writeProviderChildren(w, it.child, indent+next)
		}
	}
}

// moduleProviders lists the providers one module needs, sorted.
func moduleProviders(m *configs.Module) []addrs.Provider {
	seen := map[addrs.Provider]bool{}
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
	delete(seen, addrs.Provider{})
	out := make([]addrs.Provider, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

func moduleConstraint(m *configs.Module, p addrs.Provider) string {
	var parts []string
	for _, rp := range m.ProviderRequirements {
		if rp.Type == p && len(rp.Requirement.Required) > 0 {
			parts = append(parts, rp.Requirement.Required.String())
		}
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}
