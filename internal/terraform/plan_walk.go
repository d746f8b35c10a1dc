package terraform

import (
	"context"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/terraform/filerec"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/states"
)

// planWalk is the operation of Plan, in any mode: each managed instance
// is refreshed (unless SkipRefresh) and then planned according to the
// mode; each data source is read, or its read deferred to apply. It
// collects the planned changes and the drift the plan is assembled from.
type planWalk struct {
	opts *PlanOpts
	// replace are the -replace addresses by String().
	replace map[string]bool
	// fileRec records the files the file functions read, for the plan.
	fileRec *filerec.Recorder
	changes *changeCollector // planned changes, indexed by instance
	drift   *changeCollector // differences the refresh found
	// forCurrent is the mode's step for an instance's current object once
	// refreshed: plan it (normal), plan deleting it (destroy) or keep it
	// (refresh-only).
	forCurrent func(pi *planInstance, cur *states.ResourceInstanceObjectSrc, prior cty.Value) hcl.Diagnostics
	// imports are the plan's import blocks and targets (import.go); nil
	// when there are none or the mode ignores them.
	imports *importSet
	// moves is the refactoring step's result (refactor.go).
	moves *planMoves
}

var _ operation = (*planWalk)(nil)

// newPlanWalk returns the plan operation for opts (a supported mode).
func newPlanWalk(opts *PlanOpts, fileRec *filerec.Recorder) *planWalk {
	pw := &planWalk{opts: opts, fileRec: fileRec, replace: map[string]bool{},
		changes: &changeCollector{indexed: true}, drift: &changeCollector{}}
	for _, a := range opts.ForceReplace {
		pw.replace[a.String()] = true
	}
	switch opts.Mode {
	case plans.DestroyMode:
		pw.forCurrent = (*planInstance).planDestroy
	case plans.RefreshOnlyMode:
		pw.forCurrent = (*planInstance).keepRefreshed
	default:
		pw.forCurrent = (*planInstance).planConfigured
	}
	return pw
}

func (pw *planWalk) traits() opTraits {
	return opTraits{orphans: true, validateOnce: true, checkDestroyRefs: true,
		skipOutputs: pw.opts.Mode == plans.DestroyMode, verb: "planned",
		conditionsWarn: pw.opts.Mode == plans.RefreshOnlyMode}
}

// planInstance is one resource instance being planned.
type planInstance struct {
	*instanceCtx
	pw *planWalk
}

func (pw *planWalk) managedInstance(_ context.Context, ic *instanceCtx) hcl.Diagnostics {
	return (&planInstance{ic, pw}).managed()
}

func (pw *planWalk) ephemeralInstance(ctx context.Context, ic *instanceCtx) hcl.Diagnostics {
	return ic.openEphemeral(ctx)
}

func (pw *planWalk) dataInstance(_ context.Context, ic *instanceCtx) hcl.Diagnostics {
	return (&planInstance{ic, pw}).data()
}

// changeCollector gathers resource instance changes from many goroutines;
// the result is sorted once at the end, so the plan is deterministic.
type changeCollector struct {
	mu   sync.Mutex
	list []*plans.ResourceInstanceChange
	// current indexes the current-object changes by instance, and by
	// containing resource for replace_triggered_by on whole resources;
	// kept only when indexed (the planned changes: nothing looks drift up).
	current instanceIndex[*plans.ResourceInstanceChange]
	indexed bool
}

func (c *changeCollector) add(rc *plans.ResourceInstanceChange) {
	c.mu.Lock()
	c.list = append(c.list, rc)
	if c.indexed && rc.DeposedKey == addrs.NotDeposed {
		c.current.put(rc.Addr, rc)
	}
	c.mu.Unlock()
}

// get returns the change of the current object at addr, or nil. O(1).
func (c *changeCollector) get(addr addrs.AbsResourceInstance) *plans.ResourceInstanceChange {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.current.get(addr)
}

// forResource returns the changes of every current instance of addr.
// O(instances of addr), not O(all changes): replace_triggered_by on a
// whole resource asks it once per instance of the triggered resource.
func (c *changeCollector) forResource(addr addrs.AbsResource) []*plans.ResourceInstanceChange {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]*plans.ResourceInstanceChange(nil), c.current.resource(addr)...)
}

func (c *changeCollector) sorted() []*plans.ResourceInstanceChange {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := &plans.Changes{Resources: c.list}
	ch.Sort()
	return ch.Resources
}
