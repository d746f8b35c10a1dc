package terraform

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/lang"
	"github.com/plankit/plankit/internal/lang/marks"
	"github.com/plankit/plankit/internal/terraform/filerec"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/tfdiags"
)

// Apply makes the plan's changes real. The apply graph comes from the
// plan's changes and config, the configuration the plan was made from. The
// walk is parallel (bounded by the parallelism); every change is handed to
// opts.State as it happens (see StateWriter), and the final state to
// opts.Persist. Apply never returns a nil state: after a failure or a
// cancellation it holds everything that succeeded.
func (c *Context) Apply(ctx context.Context, plan *plans.Plan, config *configs.Config, opts *ApplyOpts) (*states.State, hcl.Diagnostics) {
	if opts == nil {
		opts = &ApplyOpts{}
	}
	prior := plan.PriorState
	if prior == nil {
		prior = states.NewState()
	}
	if plan.Errored || plan.Changes == nil {
		return prior.DeepCopy(), hcl.Diagnostics{tfdiags.Error("Cannot apply an incomplete plan", "The plan was produced with errors, so it cannot be applied. Fix the errors and plan again.")}
	}
	if diags := changesWithoutConfig(plan.Changes, config); diags.HasErrors() {
		return prior.DeepCopy(), diags
	}
	defer c.closeSpares()
	schemas, diags := c.schemasFor(neededProviders(config, prior))
	if diags.HasErrors() {
		return prior.DeepCopy(), diags
	}
	aw := newApplyWalk(plan, opts)
	ws := c.newWalkState(aw, config, schemas)
	ws.prevState = prior
	ws.state = prior.DeepCopy().SyncWrapper()
	ws.clock = lang.NewPlanClock(opts.Timestamp)
	if !plan.Timestamp.IsZero() {
		ws.clock = lang.NewPlanClock(func() time.Time { return plan.Timestamp })
	}
	// The file functions see the files as the plan saw them; only files
	// the plan never looked at come from the disk.
	ws.files = filerec.NewReplay(plan.Files, lang.OSFiles(c.workingDir))
	ws.rootVars = make(InputValues, len(plan.VariableValues))
	for name, v := range plan.VariableValues {
		ws.rootVars[name] = &InputValue{Value: v, SourceType: ValueFromPlan}
	}
	for name, v := range config.Module.Variables {
		// An ephemeral variable's value comes from the caller only (the
		// configuration, not the plan's list, says which are: a plan
		// never holds their values).
		if v.Ephemeral {
			delete(ws.rootVars, name)
			if iv := opts.ApplyTimeVariables[name]; iv != nil {
				ws.rootVars[name] = iv
			}
		}
	}
	removed, _ := config.RemovedStatements() // checked when planning
	in := &buildInput{config: config, schemas: schemas, state: prior, targets: plan.TargetAddrs, apply: aw, removed: removed}
	g, d := applyBuilder(in, plan).Build()
	diags = append(diags, d...)
	if d.HasErrors() {
		return prior.DeepCopy(), diags
	}
	kept := keptRootOutputs(g, plan.TargetAddrs)
	c.phaseDone("graph")
	if aw.writer != nil {
		aw.writer.Start(ws.state)
		aw.recordMoves(plan)
	}
	diags = append(diags, ws.walk(ctx, g)...)
	c.phaseDone("walk")
	if ctx.Err() != nil {
		diags = append(diags, tfdiags.Error("Apply cancelled", "The apply was interrupted: operations in progress were allowed to finish and the state records everything that completed."+ws.notStartedNote("started")))
	}
	if plan.UIMode == plans.DestroyMode && len(plan.TargetAddrs) == 0 {
		ws.removeDataResources()
	}
	ws.applyOutputs(plan.UIMode, kept)
	if opts.Checks != nil {
		if plan.UIMode != plans.DestroyMode {
			ws.checks.complete(config, ws.exp)
		}
		opts.Checks(ws.checks.results())
	}
	if opts.State != nil {
		if err := opts.State.Close(); err != nil {
			diags = append(diags, tfdiags.FromError("Failed to persist state", err)...)
		}
	}
	final := ws.state.Close()
	if opts.Persist != nil {
		if err := opts.Persist(final); err != nil {
			diags = append(diags, tfdiags.FromError("Failed to persist state", err)...)
		}
	}
	return final, diags
}

// applyOutputs writes the root outputs evaluated during the walk to the
// state (removing them all in destroy mode, and those no longer declared).
// A targeted apply touches only the outputs its graph kept (kept; nil:
// all).
func (ws *walkState) applyOutputs(mode plans.Mode, kept map[string]bool) {
	s := ws.state.Lock()
	defer ws.state.Unlock()
	for name := range s.RootOutputValues() {
		if kept != nil && !kept[name] {
			continue
		}
		if _, ok := ws.config.Module.Outputs[name]; !ok || mode == plans.DestroyMode {
			s.RemoveOutputValue(rootOutputAddr(name))
		}
	}
	if mode == plans.DestroyMode {
		return
	}
	for name, r := range ws.outputs {
		v, _ := r.val.UnmarkDeep()
		if !v.IsWhollyKnown() {
			continue
		}
		if v.IsNull() {
			// As in Terraform, a null root output is not stored: nothing
			// can refer to it, and "output" lists only values.
			s.RemoveOutputValue(rootOutputAddr(name))
			continue
		}
		s.SetOutputValue(rootOutputAddr(name), v, r.sensitive || marks.Contains(r.val, marks.Sensitive))
	}
}

// removeDataResources removes every data resource instance from the
// state at the end of a (non-targeted) destroy apply, as Terraform does:
// a destroyed configuration leaves an empty state, not the last results of
// its data sources. O(instances).
func (ws *walkState) removeDataResources() {
	s := ws.state.Lock()
	defer ws.state.Unlock()
	for _, r := range s.AllResources() {
		if r.Addr.Resource.Mode != addrs.DataResourceMode {
			continue
		}
		for key := range r.Instances {
			s.SetResourceInstanceCurrent(r.Addr.Instance(key), nil, r.ProviderConfig)
		}
	}
}

// applyIndex finds the planned change of an object in O(1) and records the
// deposed keys create-before-destroy replacements make during the apply.
// current is built before the walk and only read during it.
type applyIndex struct {
	current instanceIndex[*plans.ResourceInstanceChange]
	mu      sync.Mutex
	deposed map[string]addrs.DeposedKey // instance -> key its CBD replacement deposed
}

func newApplyIndex(ch *plans.Changes) *applyIndex {
	ix := &applyIndex{deposed: map[string]addrs.DeposedKey{}}
	for _, rc := range ch.Resources {
		if rc.DeposedKey == addrs.NotDeposed {
			ix.current.put(rc.Addr, rc)
		}
	}
	return ix
}

func (ix *applyIndex) setDeposed(addr addrs.AbsResourceInstance, k addrs.DeposedKey) {
	ix.mu.Lock()
	ix.deposed[addr.String()] = k
	ix.mu.Unlock()
}

func (ix *applyIndex) deposedKey(addr addrs.AbsResourceInstance) addrs.DeposedKey {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.deposed[addr.String()]
}

// changesWithoutConfig refuses a plan that creates or updates a managed
// object whose resource block is missing from the configuration it is
// applied with (a damaged or edited plan file, or a plan applied against
// another configuration): without the check, those changes would never be
// visited by the walk and would be dropped silently. Deletions and forgets
// need no block.
func changesWithoutConfig(ch *plans.Changes, config *configs.Config) hcl.Diagnostics {
	var diags hcl.Diagnostics
	seen := map[string]bool{}
	for _, rc := range ch.Resources {
		switch rc.Action {
		case plans.Create, plans.Update, plans.DeleteThenCreate, plans.CreateThenDelete:
		default:
			continue
		}
		if rc.Addr.Resource.Resource.Mode != addrs.ManagedResourceMode || rc.DeposedKey != addrs.NotDeposed {
			continue
		}
		ca := rc.Addr.ConfigResource()
		key := ca.String()
		if seen[key] {
			continue
		}
		seen[key] = true
		if c := config.Descendant(ca.Module); c != nil && c.Module.ResourceByAddr(ca.Resource) != nil {
			continue
		}
		diags = append(diags, tfdiags.Error("Saved plan does not match its configuration",
			fmt.Sprintf("The plan has a change (%s) for %s, but the configuration it is applied with has no resource block %s, so the change cannot be made. The plan file is damaged or was edited: make a new plan.", rc.Action, rc.Addr, key)))
	}
	return diags
}
