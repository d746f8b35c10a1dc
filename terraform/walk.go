package terraform

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/dag"
	"github.com/plankit/plankit/internal/procgroup"
	"github.com/plankit/plankit/lang"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/terraform/filerec"
	"github.com/plankit/plankit/terraform/namedvals"
)

// walkOp is what a walk does at each node.
type walkOp uint8

const (
	opValidate    walkOp = iota + 1
	opPlan               // refresh (unless skipped) then plan each instance
	opPlanDestroy        // refresh then plan deleting everything
	opRefreshOnly        // refresh only: drift, no changes
	opApply
)

// walkState is everything the nodes of one walk share. Each store is safe
// for concurrent use and answers in O(1) per lookup.
type walkState struct {
	c       *Context
	op      walkOp
	config  *configs.Config
	schemas map[addrs.Provider]*providers.GetProviderSchemaResponse

	// prevState is the state as given (read-only); state is the working
	// state: the refreshed prior state during plan, the new state during
	// apply.
	prevState *states.State
	state     *states.SyncState
	// procs tracks the provisioners' processes during apply (may be nil).
	procs *procgroup.Set

	values *valueStore
	named  *namedvals.Store
	exp    *expander
	provs  *providerSet
	// sem bounds concurrent provider operations to the parallelism.
	sem chan struct{}

	changes  *changeCollector
	drift    *changeCollector
	checks   checkCollector
	plan     *plans.Plan // the plan being applied (apply walk)
	opts     *PlanOpts
	replace  map[string]bool // -replace addresses by String()
	halted   func()          // cancels the walk (hook halt)
	skipRefr bool
	stateIdx stateIndex
	applied  *applyIndex
	writer   StateWriter // persists state changes (apply); may be nil
	scopes   sync.Map    // module directory -> *sync.Pool of *lang.Scope
	// instTotal counts the instances every count and for_each has
	// expanded to (checkExpansion).
	instTotal atomic.Int64
	compat    sync.Pool // *compatChecker (compatibleValues)
	// clock is plantimestamp's source (nil in validation: unknown).
	clock *lang.PlanClock
	// files serves the file functions: a filerec.Recorder while planning,
	// a filerec.Replay of the plan's files while applying, nil (the OS)
	// in validation.
	files lang.FileSource
	// fileRec is the plan walk's recorder (nil otherwise).
	fileRec *filerec.Recorder

	// notStarted counts the instances (and destroys) left undone because
	// the walk was cancelled; Plan and Apply report them in one message.
	notStarted atomic.Int64

	outMu   sync.Mutex
	outputs map[string]outputResult // root outputs by name
	// outputsKept are the root outputs a targeted graph kept (nil: all).
	outputsKept map[string]bool
	// funcs are the provider-defined functions and the instances that
	// answer them.
	funcs funcProviders
}

// outputResult is a root output's value as evaluated in the walk.
type outputResult struct {
	val       cty.Value
	sensitive bool
}

// rootOutput records the value of a root output.
func (ws *walkState) rootOutput(name string, v cty.Value, sensitive bool) {
	ws.outMu.Lock()
	if ws.outputs == nil {
		ws.outputs = map[string]outputResult{}
	}
	ws.outputs[name] = outputResult{val: v, sensitive: sensitive}
	ws.outMu.Unlock()
}

func (c *Context) newWalkState(op walkOp, config *configs.Config, schemas map[addrs.Provider]*providers.GetProviderSchemaResponse) *walkState {
	return &walkState{
		c: c, op: op, config: config, schemas: schemas,
		values: newValueStore(), named: namedvals.New(), exp: newExpander(),
		provs: newProviderSet(c), sem: make(chan struct{}, c.parallelism),
		changes: &changeCollector{indexed: true}, drift: &changeCollector{},
	}
}

// executable is a node that does work during a walk.
type executable interface {
	Execute(ctx context.Context, ws *walkState) hcl.Diagnostics
}

// walk runs every executable node of g, in dependency order, with the
// Context's parallelism. Provider instances left open (after failures) are
// closed at the end.
func (ws *walkState) walk(ctx context.Context, g *Graph) hcl.Diagnostics {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ws.halted = cancel
	stopped := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		ws.provs.stopAll()
		close(stopped)
	})
	res := dag.Walk(ctx, &g.Graph, dag.WalkOptions{Parallelism: ws.c.parallelism}, func(ctx context.Context, n Node) hcl.Diagnostics {
		if g.upstream != nil {
			if u := g.upstream[n]; u != nil {
				u.settle()
			}
		}
		if e, ok := n.(executable); ok {
			return e.Execute(ctx, ws)
		}
		return nil
	})
	if !stop() && ctx.Err() != nil {
		<-stopped // cancelled: let Stop reach every provider before closing them
	}
	ws.provs.closeAll()
	ws.closeFuncProviders()
	diags := res.Diagnostics()
	if diags.HasErrors() {
		diags = append(diags, ws.skippedSummary(res)...)
	}
	return diags
}

// acquire takes a provider-operation slot; false when ctx is done first.
func (ws *walkState) acquire(ctx context.Context) bool {
	select {
	case ws.sem <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	}
}

func (ws *walkState) release() { <-ws.sem }

// hook calls fn on every hook; a halt cancels the walk.
func (ws *walkState) hook(fn func(Hook) (HookAction, error)) {
	if ws.c.hookAll(fn) && ws.halted != nil {
		ws.halted()
	}
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
