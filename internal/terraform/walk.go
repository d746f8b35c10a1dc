package terraform

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/dag"
	"github.com/plankit/plankit/internal/lang"
	"github.com/plankit/plankit/internal/terraform/namedvals"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/states"
)

// walkState is the evaluation state every node of one walk shares,
// whatever the operation: the configuration and schemas, the states,
// the values and scopes expressions read, the providers, the expansion,
// the clock and files. What the walk does with each resource instance is
// its operation's (op: validateWalk, planWalk or applyWalk), which keeps
// its own state. Each store is safe for concurrent use and answers in
// O(1) per lookup.
type walkState struct {
	c       *Context
	op      operation
	traits  opTraits // op.traits(), read by the shared nodes
	config  *configs.Config
	schemas map[addrs.Provider]*providers.GetProviderSchemaResponse

	// prevState is the state as given (read-only); state is the working
	// state: the refreshed prior state during plan, the new state during
	// apply.
	prevState *states.State
	state     *states.SyncState
	// rootVars are the root module's input variable values (the caller's
	// when planning, the plan's when applying; none when validating).
	rootVars InputValues

	values *valueStore
	named  *namedvals.Store
	exp    *expander
	provs  *providerSet
	// sem bounds concurrent provider operations to the parallelism.
	sem chan struct{}

	// checks are the check results (variable validations) the walk
	// records; a plan reports them.
	checks checkCollector

	halted   func() // cancels the walk (hook halt)
	stateIdx stateIndex
	scopes   sync.Map // module directory -> *sync.Pool of *lang.Scope
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

	// notStarted counts the instances (and destroys) left undone because
	// the walk was cancelled; Plan and Apply report them in one message.
	notStarted atomic.Int64

	outMu   sync.Mutex
	outputs map[string]outputResult // root outputs by name
	// funcs are the provider-defined functions and the instances that
	// answer them.
	funcs funcProviders
	// ephemerals are the open ephemeral resource instances (ephemeral.go).
	ephemerals ephemeralSet
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

func (c *Context) newWalkState(op operation, config *configs.Config, schemas map[addrs.Provider]*providers.GetProviderSchemaResponse) *walkState {
	return &walkState{
		c: c, op: op, traits: op.traits(), config: config, schemas: schemas,
		values: newValueStore(), named: namedvals.New(), exp: newExpander(),
		provs: newProviderSet(c), sem: make(chan struct{}, c.parallelism),
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
		if e, ok := n.(executable); ok {
			return e.Execute(ctx, ws)
		}
		return nil
	})
	if !stop() && ctx.Err() != nil {
		<-stopped // cancelled: let Stop reach every provider before closing them
	}
	// Whatever is still open (the walk failed or was cancelled before a
	// close node ran) is closed while its provider still runs.
	closeDiags := ws.ephemerals.closeAll()
	ws.provs.closeAll()
	ws.closeFuncProviders()
	diags := append(res.Diagnostics(), closeDiags...)
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
