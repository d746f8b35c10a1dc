package command

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/depsfile"
	"github.com/plankit/plankit/internal/command/render"
	"github.com/plankit/plankit/internal/command/views"
	"github.com/plankit/plankit/internal/encryption"
	"github.com/plankit/plankit/internal/operation"
	"github.com/plankit/plankit/internal/procgroup"
	"github.com/plankit/plankit/internal/terraform"
	"github.com/plankit/plankit/planfile"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/states/statefile"
	"github.com/plankit/plankit/tfdiags"
)

type applyFlags struct {
	planFlags
	autoApprove bool
	verifyKey   string
}

// applyCommand is `apply [options] [FILE]`: it applies a saved plan, or
// plans and applies in one step, and returns the exit code.
func applyCommand(m *Meta, chdir string, rest []string) int {
	var f applyFlags
	fs := f.flagSet(chdir)
	if code, ok := fs.parse(m, rest); !ok {
		return code
	}
	if msg := f.check(); msg != "" {
		return usageError(m, msg)
	}
	if msg := checkApplyOptions(fs, &f); msg != "" {
		return usageError(m, msg)
	}
	if msg := checkPlanOptions(&f.planFlags); msg != "" {
		return usageError(m, msg)
	}
	if fs.NArg() > 1 {
		// Go's flag parsing stops at the first positional argument, so an
		// option after the plan file arrives here as a second file.
		for _, a := range fs.Args()[1:] {
			if strings.HasPrefix(a, "-") {
				return usageError(m, fmt.Sprintf("option %q comes after the plan file %q: options must come first, as in apply [options] FILE", a, fs.Arg(0)))
			}
		}
		return usageError(m, fmt.Sprintf("apply takes at most one plan file (got %d: %s)", fs.NArg(), strings.Join(fs.Args(), " ")))
	}
	wd := m.workDir(f.chdir)
	if fs.NArg() == 1 {
		// A saved plan already fixed these; Terraform refuses them too.
		// (-var and -var-file give ephemeral variables their values
		// again: see operation.SavedPlanVariables.)
		var planOnly []string
		fs.Visit(func(fl *flag.Flag) {
			switch fl.Name {
			case "target", "replace", "destroy", "refresh-only", "refresh":
				planOnly = append(planOnly, "-"+fl.Name)
			}
		})
		if len(planOnly) > 0 {
			return usageError(m, fmt.Sprintf("%s cannot be used when applying a saved plan file: the plan already records its targets and mode. Pass them to plan instead.", strings.Join(planOnly, ", ")))
		}
	}
	ui := newUI(m.Streams, f.json, f.noColor)
	if fs.NArg() == 1 {
		return applyPlanFile(m, ui, wd, fs.Arg(0), &f)
	}
	return planAndApply(m, ui, wd, &f)
}

// flagSet declares apply's options: the common ones and those saying what
// to plan (for an apply without a plan file), -auto-approve and
// -verify-key. Plan's options about the plan it writes are not apply's:
// given one, apply says so. chdir is the -chdir given before the options.
func (f *applyFlags) flagSet(chdir string) *flagSet {
	fs := newFlagSetT("apply", nil, applyUsage)
	f.planFlags.registerInputs(fs, chdir)
	fs.BoolVar(&f.autoApprove, "auto-approve", false, "apply without asking for confirmation")
	fs.StringVar(&f.verifyKey, "verify-key", "", "refuse a plan archive not signed by this ed25519 public key")
	fs.refused = planOutputOptions
	return fs
}

// applyRequest is the request of an apply in wd with these options; the
// caller adds the plan and what it was made with.
func (f *applyFlags) applyRequest(m *Meta, wd string) *operation.ApplyRequest {
	return &operation.ApplyRequest{Dir: wd, Env: m.Env, StatePath: f.state, BackendConfig: f.backendConfig,
		Lock: f.lock, LockTimeout: f.lockTimeout, Parallelism: f.parallelism, Inline: f.inline}
}

// applyPlanFile applies a saved archive, after refusing it if it was made
// for another state, is stale, or needs providers this binary lacks.
func applyPlanFile(m *Meta, ui *ui, wd, file string, f *applyFlags) int {
	r, enc, ds := openApplyArchive(m, wd, file, f)
	if ds.HasErrors() {
		ui.diags(ds, views.Sources{})
		return ExitError
	}
	defer r.Close()
	if ds := checkArchivePolicy(wd, &f.policy, r); ds.HasErrors() { // before any provider starts
		ui.diags(ds, views.Sources{})
		return ExitError
	}
	// The configuration snapshot is parsed while the plan and its state
	// are decoded: on a large plan each takes a good part of a second.
	// The reader is safe for that; it is closed only after both.
	var config *configs.Config
	var diags hcl.Diagnostics
	configRead := make(chan struct{})
	prestarted := func() {}
	go func() {
		defer close(configRead)
		config, diags = r.ReadConfig()
		// Start the providers while the plan decodes (every package
		// checked against the archive's lock first: ProviderSource.PrestartLocked).
		if locks, err := r.ReadDependencyLocks(); err == nil && !diags.HasErrors() && !f.install {
			prestarted = m.ProviderSource().PrestartLocked(wd, f.pluginDirs, locks, m.ProviderSource().NeedsFor(wd, config, nil, locks).Providers)
		}
	}()
	defer func() { <-configRead; prestarted() }()
	plan, err := r.ReadPlan()
	if err != nil {
		ui.diags(operation.ArchiveDiags(err), views.Sources{})
		return ExitError
	}
	sf, err := r.ReadStateFile()
	if err != nil {
		ui.diags(operation.ArchiveDiags(err), views.Sources{})
		return ExitError
	}
	<-configRead
	src := views.Sources{}
	if config != nil {
		src.Files = config.SourceFiles()
	}
	if diags.HasErrors() {
		ui.diags(diags, src)
		return ExitError
	}
	applyTimeVars, ds := operation.SavedPlanVariables(config, plan, wd, f.vars, m.Env)
	if ds.HasErrors() {
		ui.diags(ds, src)
		return ExitError
	}
	enc, ds = operation.EncryptionForApply(m.Env, wd, config, enc)
	if ds.HasErrors() {
		ui.diags(ds, src)
		return ExitError
	}
	operation.RestoreEncryptionVars(plan, config, enc)
	locks, err := r.ReadDependencyLocks()
	if err != nil {
		ui.diags(operation.ArchiveDiags(err), src)
		return ExitError
	}
	factories, ds := archiveProviders(m, ui, wd, file, f, config, sf, locks)
	ui.diags(ds, src) // warnings too (development overrides)
	if ds.HasErrors() {
		return ExitError
	}
	be, err := r.ReadBackend()
	if err != nil {
		ui.diags(operation.ArchiveDiags(err), src)
		return ExitError
	}
	// Everything is read: the archive's entries (the configuration's
	// files, the encoded plan and states, show -json's members: tens of
	// megabytes for a large plan) are not kept through the walk.
	r.Close()
	req := f.applyRequest(m, wd)
	req.Plan, req.Config, req.StateFile, req.FromPlan, req.Factories, req.Encryption = plan, config, sf, be, factories, enc
	req.ApplyTimeVariables = applyTimeVars
	req.ArchivePath = operation.Resolve(wd, file)
	return applyPlan(m, ui, req, src)
}

// openApplyArchive opens the plan archive file names for apply, checking
// its signature for -verify-key and decrypting it with the encryption in
// effect in wd, which it returns too.
func openApplyArchive(m *Meta, wd, file string, f *applyFlags) (*planfile.Reader, *encryption.Encryption, hcl.Diagnostics) {
	opts, ds := operation.VerifyKeyOptions(wd, f.verifyKey)
	if ds.HasErrors() {
		return nil, nil, ds
	}
	enc, ds := operation.LoadEncryptionIn(m.Env, wd)
	if ds.HasErrors() {
		return nil, nil, ds
	}
	r, ds := operation.OpenArchive(operation.Resolve(wd, file), enc, opts...)
	return r, enc, ds
}

// archiveProviders installs the providers an archive's lock file names
// for -install, then resolves the factories the apply uses. Every
// installed provider is checked against the archive's lock file here,
// before the core starts any provider process (the processes started
// early were checked first by ProviderSource.PrestartLocked).
func archiveProviders(m *Meta, ui *ui, wd, file string, f *applyFlags, config *configs.Config, sf *statefile.File, locks *depsfile.Locks) (map[addrs.Provider]providers.Factory, hcl.Diagnostics) {
	var prior *states.State
	if sf != nil {
		prior = sf.State
	}
	if f.install && m.discovers() {
		if ds := installLocked(m, ui, wd, f.pluginDirs, config, prior, locks); ds.HasErrors() {
			return nil, ds
		}
	}
	return m.ProviderSource().ResolveApplyProviders(wd, file, f.pluginDirs, config, prior, locks)
}

// planAndApply plans in-process, shows the plan, asks for approval
// unless -auto-approve, and applies it.
func planAndApply(m *Meta, ui *ui, wd string, f *applyFlags) int {
	if !f.autoApprove && !m.StdinTTY {
		ui.diags(hcl.Diagnostics{tfdiags.Error("No plan file and no -auto-approve",
			"apply without a plan file asks for confirmation, but standard input is not a terminal. Pass -auto-approve, or apply a saved plan: plan -out=FILE, then apply FILE.")}, views.Sources{})
		return ExitError
	}
	f.inline = true
	f.out = ""
	res := runPlan(m, ui, wd, &f.planFlags)
	if res.code != ExitOK {
		return res.code
	}
	if !planHasChanges(res.plan) && !res.rewrite {
		applyView(ui).Summary(render.Counts{}, false, res.plan.PriorState)
		return ExitOK
	}
	if !f.autoApprove {
		fmt.Fprint(m.Stdout, "\nDo you want to perform these actions?\n  plankit will perform the actions described above.\n  Only 'yes' will be accepted to approve.\n\n  Enter a value: ")
		line, _ := bufio.NewReader(m.Stdin).ReadString('\n')
		if strings.TrimSpace(line) != "yes" {
			fmt.Fprintln(m.Stdout, "\nApply cancelled.")
			return ExitError
		}
		fmt.Fprintln(m.Stdout)
	}
	req := f.applyRequest(m, wd)
	req.Plan, req.Config, req.StateFile, req.Factories, req.Encryption = res.plan, res.config, res.sf, res.factories, res.enc
	req.ApplyTimeVariables = res.vals // the core takes the ephemeral ones
	return applyPlan(m, ui, req, views.Sources{Dir: wd, Files: res.config.SourceFiles()})
}

// applyPlan checks the state against the plan's, then applies with state
// persisted as it goes. The steps, in order: operation.LockApplyState
// (the state is locked, and released on every return), checkStateMatches
// and the no-change shortcut (nothing has started yet), runCoreApply
// (providers run and every snapshot is persisted), StateSaver.SaveFinal
// and reportApply. src gives diagnostics their snippets.
func applyPlan(m *Meta, ui *ui, req *operation.ApplyRequest, src views.Sources) (code int) {
	ctx, cancel := context.WithCancel(m.ctx())
	defer cancel()
	view := diagView{ui: ui, src: src}
	target, mgr, lock, ds := operation.LockApplyState(ctx, req, view)
	if ds.HasErrors() {
		ui.diags(ds, src)
		return ExitError
	}
	ui.diags(ds, src) // a recovered journal
	defer func() {
		// A lock left behind blocks the next run: that is an error too.
		if failed := lock.Unlock(); failed {
			code = ExitError
		}
	}()
	if cur := operation.AsFolded(mgr, mgr.StateFile(), req.Lock); resumable(req, cur) {
		if req, ds = resumeSavedPlan(ui, req, mgr, cur); ds.HasErrors() {
			ui.diags(ds, src)
			return ExitError
		}
	} else if ds := checkStateMatches(cur, req.StateFile); ds.HasErrors() {
		ui.diags(ds, src)
		return ExitError
	}
	plan := req.Plan
	ui.diags(stateElsewhereWarning(plan, target.LocalPath(), mgr.StateFile(), req.StateFile), src)
	run := &applyRun{req: req, ui: ui, src: src, workspace: target.Workspace(), counts: render.CountChanges(plan.Changes),
		// "Destroy complete!" answers apply -destroy; a saved destroy plan
		// applied ends with the full "Apply complete!" counts, as OpenTofu
		// and Terraform report it (their apply knows only its own -destroy
		// flag).
		destroy: req.Inline && plan.UIMode == plans.DestroyMode}
	if !planHasChanges(plan) {
		// A state read with a fallback key or in clear is written again
		// with the configured method even when nothing changed, as
		// OpenTofu's migration steps expect of an apply.
		if operation.NeedsRewrite(mgr) {
			if err := mgr.PersistState(); err != nil {
				ui.diags(hcl.Diagnostics{operation.StateWriteFailed(mgr.Describe(), err)}, src)
				return ExitError
			}
		}
		applyView(ui).Summary(render.Counts{}, run.destroy, mgr.State())
		return ExitOK
	}

	run.saver = operation.NewStateSaver(mgr, mgr.Describe(), req.Dir, target.Remote(), applyDump(m, ui), operation.CodecFor(req.Encryption))
	run.procs = &procgroup.Set{}
	// The operations' lines, batched (see views.BatchWriter); everything else
	// apply prints comes after the walk, once they are flushed.
	progress := views.NewBatchWriter(ui.out, progressDelay)
	run.progress = progress
	defer progress.Flush()
	stop := watchInterrupts(m, ui, cancel, func() {
		// The second Ctrl-C exits at once: kill the provisioners still
		// running, save the last snapshot and release the lock on the way
		// out.
		progress.Flush()
		run.procs.KillAll()
		ui.diags(run.saver.FlushLast(), src)
		lock.Unlock()
	})
	defer stop()

	newState, applyDiags, ok := runCoreApply(ctx, m, run)
	progress.Flush()
	if !ok {
		return ExitError
	}
	newState, ds = run.saver.SaveFinal(newState)
	applyDiags = append(applyDiags, ds...)
	m.phases().done("state-write")
	return reportApply(ctx, run, newState, applyDiags)
}

// applyRun is one apply under way: its request, where it reports, and
// what the walk writes through.
type applyRun struct {
	req *operation.ApplyRequest
	ui  *ui
	src views.Sources
	// workspace is the workspace of the state applied to.
	workspace string
	// counts are the plan's changes, for the summary; destroy asks for
	// "Destroy complete!".
	counts  render.Counts
	destroy bool
	// progress takes the operations' lines; saver persists every
	// snapshot; procs are the provisioners' processes (killed by a second
	// Ctrl-C).
	progress io.Writer
	saver    *operation.StateSaver
	procs    *procgroup.Set
}

// diagView is the operation.View of a command: it shows diagnostics
// through the ui, with snippets from src.
type diagView struct {
	ui  *ui
	src views.Sources
}

func (v diagView) Diagnostics(ds hcl.Diagnostics) { v.ui.diags(ds, v.src) }

// applyDump is where the state itself goes when neither the state file nor
// a recovery file can be written: stdout, unless that is the -json stream.
func applyDump(m *Meta, ui *ui) io.Writer {
	if ui.json != nil {
		return m.Stderr
	}
	return m.Stdout
}

// progressDelay is the longest an operation's line waits to be printed.
const progressDelay = 50 * time.Millisecond

// runCoreApply starts the core and applies the plan, persisting through
// the run's saver; the operations' lines go to its progress writer. ok is
// false when the core could not be started (the errors are already
// shown); otherwise the diagnostics name the instances that never
// started.
func runCoreApply(ctx context.Context, m *Meta, run *applyRun) (*states.State, hcl.Diagnostics, bool) {
	req, ui, src := run.req, run.ui, run.src
	hook := views.NewApplyHook(run.progress, ui.json)
	maxInst, _ := operation.EnvMaxInstances(req.Env) // checked with the other inputs (loadPlanInputs)
	core, ds := terraform.NewContext(&terraform.ContextOpts{ProviderSource: terraform.ProviderFactories(req.Factories), Parallelism: req.Parallelism, Hooks: []terraform.Hook{hook}, WorkingDir: req.Dir, MaxInstances: maxInst, Workspace: run.workspace, Phase: m.phases().coreHook()})
	if ds.HasErrors() {
		ui.diags(ds, src)
		return nil, nil, false
	}
	// plantimestamp() returns the plan's recorded time; the clock serves
	// only a plan that recorded none.
	clock, ds := operation.PlanClock(req.Env)
	if ds.HasErrors() {
		ui.diags(ds, src)
		return nil, nil, false
	}
	m.phases().done("load")
	// The core reports the check results before it closes the saver,
	// whose last write then stores them with the state.
	var checkDiags hcl.Diagnostics
	newState, diags := core.Apply(ctx, req.Plan, req.Config, &terraform.ApplyOpts{State: run.saver, Timestamp: clock, Processes: run.procs, ApplyTimeVariables: req.ApplyTimeVariables,
		Checks: func(cs []*plans.CheckResult) { checkDiags = operation.RecordCheckResults(run.saver.Mgr(), cs) }})
	diags = append(diags, checkDiags...)
	diags = views.WithSkippedInstances(diags, req.Plan.Changes, hook.Stop())
	return newState, diags, true
}

// reportApply shows the apply's diagnostics, then either the summary
// (exit 0) or, for errors or an interruption, exit 1.
func reportApply(ctx context.Context, run *applyRun, newState *states.State, diags hcl.Diagnostics) int {
	ui, src := run.ui, run.src
	if len(run.req.Plan.TargetAddrs) > 0 {
		diags = append(diags, tfdiags.Warning("Applied changes may be incomplete",
			"The plan was made with -target, so the apply may not have made every change the configuration asks for. Run plan without -target to check for remaining changes."))
	}
	ui.diags(diags, src)
	if diags.HasErrors() || ctx.Err() != nil {
		if ctx.Err() != nil && !diags.HasErrors() {
			ui.diags(hcl.Diagnostics{tfdiags.Error("Apply interrupted",
				"The apply was interrupted: operations in progress finished and the state records what was completed. Plan again to continue.")}, src)
		}
		return ExitError
	}
	applyView(ui).Summary(run.counts, run.destroy, newState)
	return ExitOK
}

// checkStateMatches refuses to apply a plan made for another state
// (different lineage) or a stale one (the serial moved since the plan).
func checkStateMatches(cur, planned *statefile.File) hcl.Diagnostics {
	if planned == nil {
		return nil
	}
	curLineage, curSerial := "", uint64(0)
	curEmpty := true
	if cur != nil {
		curLineage, curSerial = cur.Lineage, cur.Serial
		curEmpty = cur.State == nil || cur.State.Empty()
	}
	plannedEmpty := planned.State == nil || planned.State.Empty()
	switch {
	case curLineage != "" && planned.Lineage != "" && curLineage != planned.Lineage:
		return hcl.Diagnostics{tfdiags.Errorf("Saved plan is for a different state",
			"This plan was made for another state: the plan's state lineage is %s but the state to apply to has lineage %s. Check -state (or the backend path), or plan again against this state.", planned.Lineage, curLineage)}
	case planned.Lineage == "" && !curEmpty:
		return hcl.Diagnostics{tfdiags.Error("Saved plan is stale",
			"The plan is stale: the state changed after it was made (the plan was made with no state, and now there is one). Plan again.")}
	case curLineage == "" && planned.Lineage != "" && !plannedEmpty:
		// A plan made from no state (lineage "") may still carry objects:
		// the data sources it read. It applies while there is still no
		// state, as in Terraform; only a plan made from a real state is
		// refused here.
		return hcl.Diagnostics{tfdiags.Errorf("Saved plan is for a different state",
			"This plan was made for another state: it was made from a state with lineage %s, but there is no state at the path being applied to. Check -state (or the backend path).", planned.Lineage)}
	case curLineage == planned.Lineage && curSerial != planned.Serial:
		return hcl.Diagnostics{tfdiags.Errorf("Saved plan is stale",
			"The plan is stale: the state changed after it was made (serial %d when planned, %d now); plan again.", planned.Serial, curSerial)}
	}
	return nil
}

// applyView is where apply's result goes: the command's output streams.
func applyView(ui *ui) views.ApplyView {
	return views.ApplyView{Out: ui.out, Color: ui.col, JSON: ui.json}
}
