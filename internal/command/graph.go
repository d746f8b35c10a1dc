package command

import (
	"fmt"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/depsfile"
	"github.com/plankit/plankit/internal/command/views"
	"github.com/plankit/plankit/internal/operation"
	"github.com/plankit/plankit/internal/terraform"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/states"
)

// Graph is `plan graph [-type=plan|apply|plan-destroy] [-plan=FILE]`: the
// core's graph in DOT. With -plan the archive alone is used (default type
// apply); without, the working directory's configuration and state
// (default type plan). The steps: graphKind checks -type, then
// graphFromArchive or graphFromWorkingDir loads the inputs, and the core
// draws the graph.
func Graph(m *Meta, chdir string, args []string) int {
	fs := newSubFlagSet("plan graph", graphUsage, chdir)
	typ := fs.String("type", "", "plan, plan-destroy or apply")
	planPath := fs.String("plan", "", "render the graph of this plan archive")
	statePathFlag := fs.String("state", "", "state file (without -plan)")
	var pluginDirs multiFlag
	fs.Var(&pluginDirs, "plugin-dir", "look for provider plugins in this directory first (repeatable)")
	if code, ok := fs.parse(m, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return usageError(m, "plan graph takes no positional arguments")
	}
	wd := m.workDir(fs.chdir)
	u := &ui{out: m.Stdout, errw: m.Stderr}
	kind, msg := graphKind(*typ, *planPath != "")
	if msg != "" {
		return usageError(m, msg)
	}
	src := views.Sources{Dir: wd}
	var in graphInputs
	var diags hcl.Diagnostics
	if *planPath != "" {
		var done func()
		in, done, diags = graphFromArchive(m, wd, operation.Resolve(wd, *planPath))
		defer done()
	} else {
		in, diags = graphFromWorkingDir(m, wd, *statePathFlag)
	}
	if diags.HasErrors() {
		u.diags(diags, src)
		return ExitError
	}
	if in.config != nil {
		src.Files = in.config.SourceFiles()
	}
	// The graph needs provider schemas: the providers are found as plan
	// and apply find them, checked against the archive's lock file (or
	// the working directory's), but nothing is recorded.
	lockFile, fix := depsfile.LockFilePath, operation.ProviderFix(operation.InitFix)
	if in.locks == nil {
		var ds hcl.Diagnostics
		if in.locks, ds = depsfile.LoadLocksFromFile(filepath.Join(wd, depsfile.LockFilePath)); ds.HasErrors() {
			u.diags(ds, src)
			return ExitError
		}
	} else {
		lockFile, fix = "the plan's lock file", operation.GraphFix
	}
	factories, diags := m.ProviderSource().DiscoveredFactories(wd, pluginDirs, in.config, in.state, in.locks, lockFile, fix)
	if diags.HasErrors() {
		u.diags(diags, src)
		return ExitError
	}
	core, diags := terraform.NewContext(&terraform.ContextOpts{ProviderSource: terraform.ProviderFactories(factories), WorkingDir: wd})
	if diags.HasErrors() {
		u.diags(diags, src)
		return ExitError
	}
	dot, diags := core.GraphDOT(in.config, in.state, in.plan, kind)
	if diags.HasErrors() {
		u.diags(diags, src)
		return ExitError
	}
	fmt.Fprint(m.Stdout, dot)
	return ExitOK
}

// graphKind maps -type to the graph to draw; an empty -type means apply
// for an archive and plan otherwise. msg is the usage error for any other
// value.
func graphKind(typ string, fromArchive bool) (kind terraform.GraphKind, msg string) {
	kinds := map[string]terraform.GraphKind{"plan": terraform.GraphKindPlan, "plan-destroy": terraform.GraphKindPlanDestroy, "apply": terraform.GraphKindApply}
	if typ == "" {
		typ = "plan"
		if fromArchive {
			typ = "apply"
		}
	}
	kind, ok := kinds[typ]
	if !ok {
		return kind, fmt.Sprintf("-type must be plan, plan-destroy or apply, not %q", typ)
	}
	if kind == terraform.GraphKindApply && !fromArchive {
		return kind, "-type=apply draws the graph of a saved plan: pass -plan=FILE (a plan archive made by plan -out=FILE)"
	}
	return kind, ""
}

// graphInputs is what the core draws a graph from; plan is nil unless the
// graph comes from an archive.
type graphInputs struct {
	config *configs.Config
	state  *states.State
	plan   *plans.Plan
	// locks are the archive's lock file (nil without -plan).
	locks *depsfile.Locks
}

// graphFromArchive reads the plan, its prior state and its configuration
// from the archive at path. done releases the archive; it is never nil,
// and is to be called once the graph is drawn.
func graphFromArchive(m *Meta, wd, path string) (in graphInputs, done func(), diags hcl.Diagnostics) {
	enc, diags := operation.LoadEncryptionIn(m.Env, wd)
	if diags.HasErrors() {
		return in, func() {}, diags
	}
	r, diags := operation.OpenArchive(path, enc)
	if diags.HasErrors() {
		return in, func() {}, diags
	}
	p, diags := operation.ReadArchivePlan(r)
	if diags.HasErrors() {
		return in, func() {}, diags
	}
	in.plan, in.state = p, p.PriorState
	if in.config, diags = r.ReadConfig(); diags.HasErrors() {
		return in, func() { r.Close() }, diags
	}
	locks, err := r.ReadDependencyLocks()
	if err != nil {
		return in, func() { r.Close() }, operation.ArchiveDiags(err)
	}
	in.locks = locks
	return in, func() { r.Close() }, nil
}

// graphFromWorkingDir loads the configuration in wd and reads its state
// (-state, or where the configuration says) without locking it: graph
// only reads. No state means an empty one.
func graphFromWorkingDir(m *Meta, wd, stateFlag string) (in graphInputs, diags hcl.Diagnostics) {
	if in.config, diags = configs.LoadConfigDir(wd); diags.HasErrors() {
		return in, diags
	}
	settings, ds := operation.ResolveBackend(m.Env, wd, in.config, stateFlag, nil, nil)
	if ds.HasErrors() {
		return in, ds
	}
	vals, ds := operation.CollectVariables(in.config, wd, nil, m.Env)
	if ds.HasErrors() {
		return in, ds
	}
	enc, ds := operation.LoadEncryption(m.Env, in.config, vals)
	if ds.HasErrors() {
		return in, ds
	}
	mgr, release, ds := operation.OpenBackendStateWith(m.ctx(), settings, false, 0, "graph", operation.CodecFor(enc))
	if ds.HasErrors() {
		return in, ds
	}
	release()
	in.state = mgr.State()
	if in.state == nil {
		in.state = states.NewState()
	}
	return in, nil
}
