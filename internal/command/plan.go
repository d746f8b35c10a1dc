package command

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/depsfile"
	"github.com/plankit/plankit/internal/backend"
	"github.com/plankit/plankit/internal/command/views"
	"github.com/plankit/plankit/internal/encryption"
	"github.com/plankit/plankit/internal/operation"
	"github.com/plankit/plankit/internal/terraform"
	"github.com/plankit/plankit/internal/terraform/variables"
	"github.com/plankit/plankit/jsonplan"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/states/statefile"
	"github.com/plankit/plankit/tfdiags"
)

// planFlags are plan's options.
type planFlags struct {
	commonFlags
	out              string
	vars             []operation.VarArg
	targets, replace multiFlag
	destroy          bool
	refreshOnly      bool
	refresh          bool
	detailedExitcode bool
	signKey          string
	pluginDirs       multiFlag
	backendConfig    multiFlag // -backend-config KEY=VALUE or FILE
	inline           bool      // apply without a plan file
	install          bool      // -install: plan init's provider installation first
	// generateConfigOut is -generate-config-out: write resource blocks
	// for import targets without one to this new file (genconfig.go).
	generateConfigOut string
	policy            policyFlags // -policy, -data, -namespace, -all-namespaces (check.go)
}

// register declares plan's options: the common ones, what to plan
// (registerInputs) and what to do with the plan. chdir is the -chdir
// given before the options (splitChdir), the default of -chdir.
func (f *planFlags) register(fs *flagSet, chdir string) {
	f.registerInputs(fs, chdir)
	fs.StringVar(&f.out, "out", "", "write the plan to this file")
	fs.BoolVar(&f.detailedExitcode, "detailed-exitcode", false, "exit 0 when no changes, 1 on error, 2 when there are changes")
	fs.StringVar(&f.signKey, "sign-key", "", "sign the plan archive with this ed25519 private key file")
	fs.StringVar(&f.generateConfigOut, "generate-config-out", "", "write resource blocks for import targets that have none to this new file")
}

// registerInputs declares the common options and those saying what to
// plan, which apply without a plan file takes too.
func (f *planFlags) registerInputs(fs *flagSet, chdir string) {
	f.commonFlags.register(fs.FlagSet, chdir)
	fs.Var(varFlags{args: &f.vars}, "var", "set a root input variable, 'name=value'")
	fs.Var(varFlags{args: &f.vars, file: true}, "var-file", "load variable values from a .tfvars or .tfvars.json file")
	fs.Var(&f.targets, "target", "limit planning to this resource or module (repeatable)")
	fs.Var(&f.replace, "replace", "force replacement of this resource instance (repeatable)")
	fs.BoolVar(&f.destroy, "destroy", false, "plan to destroy every object the state tracks")
	fs.BoolVar(&f.refreshOnly, "refresh-only", false, "plan only to update the state to match remote objects")
	fs.BoolVar(&f.refresh, "refresh", true, "refresh remote objects before planning")
	fs.Var(&f.pluginDirs, "plugin-dir", "look for provider plugins in this filesystem mirror directory first (repeatable)")
	fs.BoolVar(&f.install, "install", false, "install the providers first, as plan init does")
	fs.Var(&f.backendConfig, "backend-config", "backend setting KEY=VALUE, or a file of them (repeatable)")
	f.policy.register(fs.FlagSet)
}

// planCommand is `plan [options]`: it plans the configuration in the
// working directory and returns the exit code.
func planCommand(m *Meta, chdir string, rest []string) int {
	var f planFlags
	fs := newFlagSetT("plan", m.Stderr, planUsage)
	f.register(fs, chdir)
	if code, ok := fs.parse(m, rest); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return usageError(m, fmt.Sprintf("plan takes no positional arguments (got %q); the configuration directory is the working directory, or -chdir=DIR", fs.Arg(0)))
	}
	if msg := f.check(); msg != "" {
		return usageError(m, msg)
	}
	if f.destroy && f.refreshOnly {
		return usageError(m, "-destroy and -refresh-only are mutually exclusive")
	}
	if msg := checkPlanOptions(&f); msg != "" {
		return usageError(m, msg)
	}
	ui := newUI(m.Streams, f.json, f.noColor)
	wd := m.workDir(f.chdir)
	if st, err := os.Stat(wd); err != nil || !st.IsDir() {
		ui.diags(hcl.Diagnostics{tfdiags.Errorf("Invalid -chdir directory", "The directory %q does not exist or is not a directory.", wd)}, views.Sources{})
		return ExitError
	}
	if ds := checkSignKey(wd, &f); ds.HasErrors() {
		ui.diags(ds, views.Sources{})
		return ExitError
	}
	res := runPlan(m, ui, wd, &f)
	if res.code != ExitOK {
		return res.code
	}
	if f.detailedExitcode && res.changes {
		return ExitChanges
	}
	return ExitOK
}

type planResult struct {
	code    int
	changes bool
	plan    *plans.Plan
	config  *configs.Config
	// sf is the state file the plan was made from (lineage, serial).
	sf *statefile.File
	// inline is set by apply without a plan file: no "-out" advice.
	inline bool
	// factories serve the providers the plan used (apply without a plan
	// file applies with the same ones).
	factories map[addrs.Provider]providers.Factory
	// enc is the encryption in effect, for apply to write the state with.
	enc *encryption.Encryption
	// rewrite: the state was read with a fallback method (see
	// statemgr.Codec); apply writes it again even with no changes.
	rewrite bool
	// vals are the root variables' values, for apply to give the
	// ephemeral ones (the plan does not hold them) again.
	vals terraform.InputValues
}

// runPlan loads everything, plans, renders and writes the archive. The
// steps, in order: refuseEmptyConfig and loadPlanInputs (nothing is
// locked or started yet), the state is opened and locked (released on
// every return), runCorePlan, showPlan (while operation.WritePlanArchiveAsync writes
// the archive), then savePlanOutput.
func runPlan(m *Meta, ui *ui, wd string, f *planFlags) (res planResult) {
	src := views.Sources{Dir: wd}
	if ds := checkPlanDir(m, ui, wd, f); ds.HasErrors() {
		ui.diags(ds, src)
		return planResult{code: ExitError}
	}
	if ds := f.policy.preload(wd); ds.HasErrors() { // a bad policy is reported before planning
		ui.diags(ds, src)
		return planResult{code: ExitError}
	}
	if !f.install { // installing may change the packages
		defer m.ProviderSource().PrestartLocked(wd, f.pluginDirs, nil, nil)()
	}
	req := f.planRequest(m, wd)
	in, warnings := loadPlanInputs(req)
	if in.config != nil {
		src.Files = in.config.SourceFiles()
	}
	if warnings.HasErrors() {
		ui.diags(warnings, src)
		return planResult{code: ExitError}
	}

	ctx, cancel := context.WithCancel(m.ctx())
	defer cancel()
	stopInterrupts := watchInterrupts(m, ui, cancel, nil)
	defer stopInterrupts()

	mgr, release, sf, ds := openPlanState(ctx, req, &in)
	if ds.HasErrors() {
		ui.diags(append(warnings, ds...), src)
		return planResult{code: ExitError}
	}
	warnings = append(warnings, ds...) // a recovered journal
	defer func() {
		// A lock left behind blocks the next run: that is an error too.
		if ds := release(); ds.HasErrors() {
			ui.diags(ds, src)
			res.code = ExitError
		}
	}()
	prior := priorState(sf)
	resolved, ds := planProviders(ctx, m, ui, wd, f, in.config, prior)
	warnings = append(warnings, ds...)
	if ds.HasErrors() {
		ui.diags(warnings, src)
		return planResult{code: ExitError}
	}
	in.factories = resolved.Factories
	// -generate-config-out adds the generated file to the snapshot after
	// the walk, so the members made beside it would lack its blocks: such
	// an archive is shown from its snapshot.
	if f.out != "" && f.generateConfigOut == "" {
		in.sections = operation.NewShowSections(resolved.Locks)
	}
	m.phases().done("load")
	plan, ds := runCorePlan(ctx, m, req, f.json, in, prior)
	ds = append(ds, afterWalk(ui, wd, f, &in, plan)...)
	pol, pds := checkPlanPolicy(ctx, wd, f, operation.WithoutEncryptionVars(plan, in.enc), in.config, resolved.Locks, ds)
	ds = append(ds, pds...)
	// After the walk the plan command needs only the configuration's
	// source files (for diagnostics' snippets, in src, and for the
	// archive's snapshot), not its decoded tree: drop the tree before
	// rendering and archiving, so that it is not kept alive by this frame
	// (on a large configuration it is a large part of the live heap).
	// Apply without a plan file applies with it.
	snap, config := configSnapshotFor(f, in.config), in.config
	if !f.inline {
		in.config, config = nil, nil
		collectWalkGarbage()
	}
	ds = append(warnings, ds...)
	var archive *operation.PlanArchive
	if f.out != "" {
		archive = &operation.PlanArchive{Out: operation.Resolve(wd, f.out), SignKey: f.signKey, Dir: wd, Plan: plan, Sections: in.sections,
			Snapshot: snap, StateFile: sf, Locks: resolved.Locks, Backend: in.backend.Record(), Encryption: in.enc, PolicyResult: pol.encodedResult()}
	}
	if code := showAndSave(m, ui, f, plan, ds, archive, len(in.targets) > 0, src); code != ExitOK {
		return planResult{code: code}
	}
	if code := pol.report(ui, f); code != ExitOK {
		return planResult{code: code}
	}
	return planResult{code: ExitOK, changes: planHasChanges(plan), plan: plan, config: config, sf: sf, factories: resolved.Factories, enc: in.enc, rewrite: operation.NeedsRewrite(mgr), vals: in.vals}
}

// planRequest is the request of a plan in wd with these options.
func (f *planFlags) planRequest(m *Meta, wd string) *operation.PlanRequest {
	mode := plans.NormalMode
	switch {
	case f.destroy:
		mode = plans.DestroyMode
	case f.refreshOnly:
		mode = plans.RefreshOnlyMode
	}
	return &operation.PlanRequest{Dir: wd, Env: m.Env, Vars: f.vars, Targets: f.targets, Replace: f.replace,
		Mode: mode, Refresh: f.refresh, GenerateConfig: f.generateConfigOut != "",
		StatePath: f.state, BackendConfig: f.backendConfig, Lock: f.lock, LockTimeout: f.lockTimeout, Parallelism: f.parallelism,
		Out: f.out, Inline: f.inline}
}

// checkPlanDir checks the directory and the options that name files in
// it before anything is loaded, and installs the modules first for
// -install.
func checkPlanDir(m *Meta, ui *ui, wd string, f *planFlags) hcl.Diagnostics {
	if ds := refuseEmptyConfig(wd, f); ds.HasErrors() {
		return ds
	}
	if ds := checkGenerateConfigOut(wd, f); ds.HasErrors() {
		return ds
	}
	if f.install {
		if ds := installModules(m.ctx(), m, ui, wd, false); ds.HasErrors() {
			return ds
		}
	}
	return nil
}

// openPlanState opens the state the plan starts from and takes its lock
// (unless -lock=false); the caller releases it. sf is the stored state:
// one copy of it serves as the plan's prior state and as the record of
// its lineage and serial (mgr.State() would be a second copy of every
// object); the core does not modify it.
func openPlanState(ctx context.Context, req *operation.PlanRequest, in *planInputs) (backend.StateMgr, func() hcl.Diagnostics, *statefile.File, hcl.Diagnostics) {
	opType := "OperationTypePlan"
	if req.Inline {
		// Apply without a plan file: it writes the state, and folds an
		// interrupted apply's journal in first (FoldsJournal).
		opType = "OperationTypeApply"
	}
	mgr, release, ds := operation.OpenBackendStateWith(ctx, in.backend, req.Lock, req.LockTimeout, opType, operation.CodecFor(in.enc))
	if ds.HasErrors() {
		return nil, nil, nil, ds
	}
	return mgr, release, operation.AsFolded(mgr, mgr.StateFile(), req.Lock && operation.FoldsJournal(opType)), ds
}

// collectWalkGarbage starts a collection once the configuration tree and
// the core's graph, most of the heap, are garbage: before the next
// collection's goal (set from the heap still holding them) lets rendering
// and encoding grow the heap past its peak so far. On a goroutine of its
// own, so the first changes print while it marks (waiting for it delays
// them; not collecting raises the peak). A heap smaller than
// walkGarbageMin is left to the pacing (cli's tuneGC lets it grow well
// past that): there the collection's marking, on the cores the rendering
// and the archive need, costs more time than the memory it frees is worth.
func collectWalkGarbage() {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() == metrics.KindUint64 && s[0].Value.Uint64() < walkGarbageMin {
		return
	}
	go runtime.GC()
}

// walkGarbageMin is the heap (live and garbage) from which
// collectWalkGarbage collects.
const walkGarbageMin = 64 << 20

// priorState is the state a plan starts from: the stored one, or an
// empty state when there is none.
func priorState(sf *statefile.File) *states.State {
	var prior *states.State
	if sf != nil {
		prior = sf.State
	}
	if prior == nil {
		prior = states.NewState()
	}
	return prior
}

// planProviders installs the providers first for -install (its warnings
// are not repeated), then resolves the factories the plan uses.
func planProviders(ctx context.Context, m *Meta, ui *ui, wd string, f *planFlags, config *configs.Config, prior *states.State) (*operation.ResolvedProviders, hcl.Diagnostics) {
	if f.install && m.discovers() {
		if _, ds := installProviders(ctx, m, ui, providerInstallRequest{wd: wd, pluginDirs: f.pluginDirs, config: config, state: prior}); ds.HasErrors() {
			return nil, ds
		}
	}
	res, diags := m.ProviderSource().ResolvePlanProviders(wd, f.pluginDirs, config, prior)
	if res != nil && len(res.Recorded) > 0 {
		planView(ui).LocksRecorded(depsfile.LockFilePath, res.Recorded)
	}
	return res, diags
}

// afterWalk completes a plan the core returned: the archive's show -json
// members and the relevant attributes, the plan's context (state path,
// clock), and the warnings about -replace and -generate-config-out. It
// returns their diagnostics.
//
// The relevant attributes serve the archive's show -json members and the
// rendering's drift: made once, while the configuration is still at hand.
// The members' index, built beside the walk, makes them (finish records
// them in the plan); a plan without an archive makes them only when it
// has drift to filter (a refresh-only plan shows all of it).
func afterWalk(ui *ui, wd string, f *planFlags, in *planInputs, plan *plans.Plan) hcl.Diagnostics {
	in.sections.Finish(plan)
	if plan != nil && in.config != nil && !plan.RelevantKnown && len(plan.DriftedResources) > 0 && plan.UIMode != plans.RefreshOnlyMode {
		plan.RelevantAttributes, plan.RelevantKnown = jsonplan.RelevantAttributes(in.config, plan), true
	}
	recordPlanContext(plan, in.backend.LocalPath(), in.clock)
	ds := replaceWarnings(plan, in.replace)
	return append(ds, writeGeneratedConfig(ui, wd, f, plan, in.config)...)
}

// showAndSave renders the plan with its diagnostics ds and, for -out,
// writes the archive (nil without -out). A complete plan's archive is
// written while the plan is rendered (both only read it); its errors are
// reported after the rendering, as when it was written after. An
// incomplete plan is not saved.
func showAndSave(m *Meta, ui *ui, f *planFlags, plan *plans.Plan, ds hcl.Diagnostics, archive *operation.PlanArchive, targeted bool, src views.Sources) int {
	var archived func() hcl.Diagnostics
	if archive != nil && planShowable(plan, ds) {
		archived = operation.WritePlanArchiveAsync(archive)
		// The writer never outlives the command: after a panic while
		// rendering too, it is waited for before the crash is reported
		// (not left to rename the archive, or to leave its temporary
		// file, as the process exits). savePlanOutput waits on the way
		// out of every other path; waiting again is free.
		defer archived()
	}
	if !showPlan(ui, plan, ds, targeted, src) {
		return ExitError
	}
	m.phases().done("render")
	if ds := savePlanOutput(ui, f, plan, archived); ds.HasErrors() {
		ui.diags(ds, src)
		return ExitError
	}
	if f.out != "" {
		m.phases().done("archive")
	}
	return ExitOK
}

// configSnapshotFor is the snapshot of config that -out writes into the
// archive (nil without -out: nothing needs it).
func configSnapshotFor(f *planFlags, config *configs.Config) *configs.Snapshot {
	if f.out == "" || config == nil {
		return nil
	}
	return config.Snapshot()
}

// refuseEmptyConfig refuses to plan a directory without configuration
// files, unless -destroy: planning it would destroy everything the state
// tracks, almost always because it is the wrong directory. Terraform
// refuses too.
func refuseEmptyConfig(wd string, f *planFlags) hcl.Diagnostics {
	if _, err := os.ReadDir(wd); err != nil {
		// An unlistable directory has no visible files, but "no
		// configuration files" would send the user the wrong way.
		abs, _ := filepath.Abs(wd)
		return hcl.Diagnostics{tfdiags.Errorf("Failed to read the configuration directory",
			"The directory %s cannot be listed: %s. Check its permissions.", abs, views.PathErrCause(err))}
	}
	if operation.HasConfigFiles(wd) || f.destroy {
		return nil
	}
	abs, _ := filepath.Abs(wd)
	return hcl.Diagnostics{tfdiags.Errorf("No configuration files",
		"There are no .tf, .tf.json, .tofu or .tofu.json files in %s\n\nPlanning without a configuration would mark everything in the state for destruction, which is rarely what is wanted. To destroy everything, plan with -destroy; otherwise run in the directory of the configuration, or pass -chdir=DIR.", abs)}
}

// planInputs is everything a plan needs from the configuration directory,
// the flags and the environment, read before the state is locked.
type planInputs struct {
	config  *configs.Config
	vals    terraform.InputValues
	targets []addrs.Targetable
	replace []addrs.AbsResourceInstance
	clock   func() time.Time
	// factories serve the providers, once resolved.
	factories map[addrs.Provider]providers.Factory
	backend   *operation.Backend
	enc       *encryption.Encryption
	// sections, for -out, makes the archive's show -json members while
	// the plan is made.
	sections *operation.ShowSections
}

// configLoadedHook, when set (by tests), sees the configuration each
// plan loads.
var configLoadedHook func(*configs.Config)

// loadPlanInputs loads the configuration and then every input the flags
// and environment give. It returns all their diagnostics together, so one
// run reports every bad input; config is nil only when loading it failed.
func loadPlanInputs(req *operation.PlanRequest) (planInputs, hcl.Diagnostics) {
	var in planInputs
	wd := req.Dir
	config, diags := configs.LoadConfigDir(wd)
	if diags.HasErrors() {
		return in, diags
	}
	if configLoadedHook != nil {
		configLoadedHook(config)
	}
	in.config = config
	var ds hcl.Diagnostics
	in.vals, ds = operation.CollectVariables(config, wd, req.Vars, req.Env)
	diags = append(diags, ds...)
	if !ds.HasErrors() { // a value given wrongly is not also reported missing
		diags = append(diags, missingRequiredVariables(config, in.vals)...)
	}
	in.targets, ds = parseTargets(req.Targets, "-target")
	diags = append(diags, ds...)
	in.replace, ds = parseReplace(req.Replace)
	diags = append(diags, ds...)
	in.clock, ds = operation.PlanClock(req.Env)
	diags = append(diags, ds...)
	in.backend, ds = operation.ResolveBackend(req.Env, wd, config, req.StatePath, req.BackendConfig, nil)
	diags = append(diags, ds...)
	if !diags.HasErrors() {
		in.enc, ds = operation.LoadEncryption(req.Env, config, in.vals)
		diags = append(diags, ds...)
		diags = append(diags, operation.ClearPlanOfEncryptedState(in.enc, req.Out)...)
		diags = append(diags, operation.EncryptionVarsOnly(config, in.enc)...)
	}
	_, ds = operation.EnvMaxInstances(req.Env)
	diags = append(diags, ds...)
	// A corrupt lock file is refused by every plan, saved or not (and by
	// apply without a plan file), not only when an archive records it.
	if _, ds = depsfile.LoadLocksFromFile(filepath.Join(wd, depsfile.LockFilePath)); ds.HasErrors() {
		diags = append(diags, ds...)
	}
	return in, diags
}

// missingRequiredVariables reports each root variable that has no default
// and was given no value, in declaration order. They are found here, before
// any provider starts or any object is refreshed, as OpenTofu does: the
// core would only find them after refreshing every object.
func missingRequiredVariables(config *configs.Config, vals terraform.InputValues) hcl.Diagnostics {
	var missing []*configs.Variable
	for name, v := range config.Module.Variables {
		if _, ok := vals[name]; !ok && v.Default == cty.NilVal {
			missing = append(missing, v)
		}
	}
	slices.SortFunc(missing, func(a, b *configs.Variable) int {
		return cmp.Or(strings.Compare(a.DeclRange.Filename, b.DeclRange.Filename), a.DeclRange.Start.Byte-b.DeclRange.Start.Byte)
	})
	var diags hcl.Diagnostics
	for _, v := range missing {
		_, ds := variables.Prepare(v, cty.NilVal, hcl.Range{}, "root module input variable")
		diags = append(diags, ds...)
	}
	return diags
}

// runCorePlan starts the core and plans against prior in the mode the
// flags ask for, showing progress on a terminal. The plan is nil when the
// core could not be started.
func runCorePlan(ctx context.Context, m *Meta, req *operation.PlanRequest, json bool, in planInputs, prior *states.State) (*plans.Plan, hcl.Diagnostics) {
	hooks := []terraform.Hook{}
	var progress *views.ProgressHook
	if m.StderrTTY && !json {
		progress = views.NewProgressHook(m.Stderr)
		hooks = append(hooks, progress)
	} else if !json {
		hooks = append(hooks, views.NewRefreshLog(m.Stdout, nil))
	}
	if json {
		hooks = append(hooks, views.NewRefreshLog(nil, &views.JSONView{W: m.Stdout}))
	}
	if in.sections != nil {
		hooks = append(hooks, in.sections.Hook())
	}
	// The working directory is the -chdir directory, as if the process
	// had changed into it (Terraform does): path.cwd, abspath and the
	// file functions resolve against it.
	maxInst, _ := operation.EnvMaxInstances(req.Env) // checked with the other inputs (loadPlanInputs)
	core, ds := terraform.NewContext(&terraform.ContextOpts{ProviderSource: terraform.ProviderFactories(in.factories), Parallelism: req.Parallelism, Hooks: hooks, WorkingDir: req.Dir, MaxInstances: maxInst, Workspace: in.backend.Workspace(), Phase: m.phases().coreHook()})
	if ds.HasErrors() {
		return nil, ds
	}
	opts := &terraform.PlanOpts{
		Mode: req.Mode, SkipRefresh: !req.Refresh, SetVariables: in.vals, Targets: in.targets, ForceReplace: in.replace, Timestamp: in.clock,
		GenerateConfig: req.GenerateConfig,
	}
	if in.sections != nil {
		opts.SchemasLoaded = in.sections.Start(in.config)
	}
	plan, ds := core.Plan(ctx, in.config, prior, opts)
	if progress != nil {
		progress.Done()
	}
	return plan, ds
}

// showPlan renders a complete plan followed by its warnings, as Terraform
// shows them, and reports true. A failed or incomplete plan is not
// rendered: its errors are shown (or a generic one when the core recorded
// none) and showPlan reports false.
func showPlan(ui *ui, plan *plans.Plan, diags hcl.Diagnostics, targeted bool, src views.Sources) bool {
	if !planShowable(plan, diags) {
		ui.diags(diags, src)
		if !diags.HasErrors() {
			ui.diags(hcl.Diagnostics{tfdiags.Error("Planning failed", "The plan did not complete; see the messages above.")}, src)
		}
		return false
	}
	if targeted {
		diags = append(diags, tfdiags.Warning("Resource targeting is in effect",
			"This plan was made with -target, so it may not include every change the configuration asks for.\n\n-target is meant for exceptional situations, such as recovering from mistakes; plan without it as soon as possible."))
	}
	planView(ui).Plan(plan)
	ui.diags(diags, src)
	return true
}

// planShowable reports whether showPlan renders plan (and -out saves
// it): it is complete and diags have no error.
func planShowable(plan *plans.Plan, diags hcl.Diagnostics) bool {
	return !diags.HasErrors() && plan != nil && !plan.Errored
}

// savePlanOutput waits for the archive for -out (archived, started by
// operation.WritePlanArchiveAsync) and says how to apply it, or notes that an unsaved
// plan may not be what apply does (not for -json, nor for apply without
// a plan file).
func savePlanOutput(ui *ui, f *planFlags, plan *plans.Plan, archived func() hcl.Diagnostics) hcl.Diagnostics {
	if f.out != "" {
		if ds := archived(); ds.HasErrors() {
			return ds
		}
		if !f.json {
			planView(ui).Saved(f.out, applyHint(f))
		}
	} else if !f.json && !f.inline && planHasChanges(plan) {
		planView(ui).Unsaved()
	}
	return nil
}

// planView is where plan's results go: the command's output streams.
func planView(ui *ui) views.PlanView {
	return views.PlanView{Out: ui.out, Color: ui.col, JSON: ui.json}
}

// planHasChanges is what -detailed-exitcode reports: resource or output
// changes, or drift to record in a refresh-only plan.
func planHasChanges(p *plans.Plan) bool {
	if p.Changes != nil && !p.Changes.Empty() {
		return true
	}
	if p.UIMode == plans.RefreshOnlyMode {
		for _, d := range p.DriftedResources {
			if d.Action != plans.NoOp || d.Moved() { // a move changes the state too
				return true
			}
		}
	}
	return false
}
