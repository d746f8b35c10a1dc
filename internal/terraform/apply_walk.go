package terraform

import (
	"context"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/internal/procgroup"
	"github.com/plankit/plankit/plans"
)

// applyWalk is the operation of Apply: each managed instance with a
// planned create or update is applied (its destroy, if any, is a
// nodeDestroy's), each data source planned as "read at apply" is read,
// and every other instance publishes its current object for references.
// Changes are announced to the writer as they happen.
type applyWalk struct {
	plan    *plans.Plan
	applied *applyIndex    // the plan's changes by instance; deposed keys
	writer  StateWriter    // persists state changes; may be nil
	procs   *procgroup.Set // the provisioners' processes; may be nil
}

var _ operation = (*applyWalk)(nil)

func newApplyWalk(plan *plans.Plan, opts *ApplyOpts) *applyWalk {
	return &applyWalk{plan: plan, applied: newApplyIndex(plan.Changes), writer: opts.State, procs: opts.Processes}
}

func (aw *applyWalk) traits() opTraits {
	return opTraits{impure: true, skipOutputs: aw.plan.UIMode == plans.DestroyMode, verb: "applied", applying: true}
}

// resolveImports does nothing: the plan resolved the import blocks and
// its changes carry the imports to carry out.
func (*applyWalk) resolveImports(*walkState, *nodeResource) hcl.Diagnostics { return nil }

// applyInstance is one resource instance being applied (or destroyed, by
// a nodeDestroy).
type applyInstance struct {
	*instanceCtx
	aw *applyWalk
}

func (aw *applyWalk) managedInstance(ctx context.Context, ic *instanceCtx) hcl.Diagnostics {
	return (&applyInstance{ic, aw}).apply(ctx)
}

// ephemeralInstance opens the instance again: the plan kept nothing of it.
func (aw *applyWalk) ephemeralInstance(ctx context.Context, ic *instanceCtx) hcl.Diagnostics {
	return ic.openEphemeral(ctx)
}

func (aw *applyWalk) dataInstance(_ context.Context, ic *instanceCtx) hcl.Diagnostics {
	if ic.w.gone {
		ic.ws.state.SetResourceInstanceCurrent(ic.w.addr, nil, ic.n.provider)
		return nil
	}
	return (&applyInstance{ic, aw}).applyData()
}
