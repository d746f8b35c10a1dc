package terraform

import (
	"maps"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/procgroup"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/tfdiags"
)

// ContextOpts configures a Context.
type ContextOpts struct {
	// ProviderSource finds the providers the operations start; when nil,
	// Providers are the factories of every provider they may use
	// (built-ins from providers/builtin.Factories()).
	ProviderSource ProviderSource
	Providers      map[addrs.Provider]providers.Factory
	// Parallelism bounds concurrent provider operations; ≤ 0 means 10.
	Parallelism int
	Hooks       []Hook
	// WorkingDir is what path.cwd evaluates to: the directory the user
	// ran the command from. Empty means the process's working directory,
	// read once by NewContext. Made absolute either way, as Terraform
	// returns it.
	WorkingDir string
	// MaxInstances bounds how many instances one count or for_each may
	// expand to, and how many resource and module instances a walk may
	// expand in all; ≤ 0 means DefaultMaxInstances. A larger configuration
	// is refused, naming the expression and the number, before anything is
	// allocated for its instances.
	MaxInstances int
	// Workspace is what terraform.workspace evaluates to; empty means
	// "default".
	Workspace string
	// Phase, when set, is called as each phase of Plan and Apply ends,
	// with its name ("graph", "walk"): for measuring plankit itself.
	Phase func(name string)
}

// DefaultMaxInstances is ContextOpts.MaxInstances when unset: ten times the
// million instances plankit is benchmarked with, and far below what
// exhausts memory (each instance costs a few kilobytes).
const DefaultMaxInstances = 10_000_000

// Context runs core operations. It caches provider schemas (fetched once
// per provider type) and is safe for concurrent use.
type Context struct {
	providers   ProviderSource
	parallelism int
	hooks       []Hook
	workingDir  string // absolute; path.cwd
	maxInst     int
	workspace   string // terraform.workspace
	phase       func(string)

	schemaMu sync.Mutex
	schemas  map[addrs.Provider]*providers.GetProviderSchemaResponse
	spares   spareProviders // schema instances kept for the walk
}

// NewContext returns a Context for opts.
func NewContext(opts *ContextOpts) (*Context, hcl.Diagnostics) {
	if opts == nil {
		opts = &ContextOpts{}
	}
	p := opts.Parallelism
	if p <= 0 {
		p = 10
	}
	var src ProviderSource = ProviderFactories(maps.Clone(opts.Providers))
	if opts.ProviderSource != nil {
		src = opts.ProviderSource
	}
	wd, err := absWorkingDir(opts.WorkingDir)
	if err != nil {
		return nil, tfdiags.FromError("Cannot determine the working directory", err)
	}
	return &Context{
		providers:   src,
		parallelism: p,
		hooks:       append([]Hook(nil), opts.Hooks...),
		workingDir:  wd,
		maxInst:     maxInstances(opts.MaxInstances),
		workspace:   workspaceOrDefault(opts.Workspace),
		phase:       opts.Phase,
		schemas:     map[addrs.Provider]*providers.GetProviderSchemaResponse{},
	}, nil
}

// absWorkingDir returns dir made absolute, or the process's working
// directory when dir is empty. Called once per Context, never during a
// walk.
func absWorkingDir(dir string) (string, error) {
	if dir == "" {
		return os.Getwd()
	}
	return filepath.Abs(dir)
}

// ValueSourceType says where an input variable's value came from.
type ValueSourceType rune

const (
	ValueFromUnknown   ValueSourceType = 0
	ValueFromConfig    ValueSourceType = 'C'
	ValueFromCLIArg    ValueSourceType = 'A'
	ValueFromNamedFile ValueSourceType = 'N'
	ValueFromAutoFile  ValueSourceType = 'F'
	ValueFromEnvVar    ValueSourceType = 'E'
	ValueFromPlan      ValueSourceType = 'P'
)

// InputValue is the raw value given for a root input variable.
type InputValue struct {
	Value       cty.Value
	SourceType  ValueSourceType
	SourceRange hcl.Range
}

// InputValues are root input variable values by name.
type InputValues map[string]*InputValue

// PlanOpts are the options of Context.Plan.
type PlanOpts struct {
	Mode         plans.Mode
	SkipRefresh  bool
	SetVariables InputValues
	Targets      []addrs.Targetable
	ForceReplace []addrs.AbsResourceInstance
	// Timestamp is the clock plantimestamp() reads, once, the first time
	// an expression calls it; nil means time.Now. The command passes
	// SOURCE_DATE_EPOCH here when it is set. The plan records the time
	// (plans.Plan.Timestamp) only when the configuration called
	// plantimestamp, so plans of other configurations hold no clock time.
	Timestamp func() time.Time
	// GenerateConfig makes a normal plan generate a resource block for
	// every import target without one (plan -generate-config-out); the
	// changes carry the text in GeneratedConfig.
	GenerateConfig bool
	// SchemasLoaded, when set, is called once the provider schemas the
	// plan uses are loaded, before the graph is built, with every
	// schema of those providers (which the callee must not modify); the
	// plan's ProviderSchemas is a part of them. plan -out starts the
	// archive's show -json members then, while the plan is made.
	SchemasLoaded func(map[addrs.Provider]*providers.GetProviderSchemaResponse)
}

// ApplyOpts are the options of Context.Apply.
type ApplyOpts struct {
	// State persists the state while the apply changes it; may be nil.
	// command/ supplies one that journals every change (states/statemgr).
	State StateWriter
	// Persist, when set, is called once with the final state after the
	// walk (and after State's Close).
	Persist func(*states.State) error
	// Timestamp is plantimestamp()'s clock when the plan recorded no
	// time (its configuration called plantimestamp only in expressions
	// evaluated at apply, such as provisioners); nil means time.Now.
	// Otherwise plantimestamp returns the plan's recorded time.
	Timestamp func() time.Time
	// Processes tracks the local-exec provisioners' process groups, so
	// that the caller can kill them (a second interrupt); may be nil.
	// Cancelling the context interrupts them in any case.
	Processes *procgroup.Set
	// Checks, when set, is called once after the walk, before State is
	// closed, with the results of the conditions and check blocks the
	// apply evaluated (sorted; nil when none), as Terraform records them
	// after an apply.
	Checks func([]*plans.CheckResult)
	// ApplyTimeVariables are the values of the plan's ApplyTimeVariables
	// (ephemeral variables, which the plan does not hold), given again
	// for this apply; one missing is null, or the default.
	ApplyTimeVariables InputValues
}

// GraphKind selects the graph GraphDOT renders.
type GraphKind int

const (
	GraphKindPlan GraphKind = iota
	GraphKindPlanDestroy
	GraphKindApply
)

// schema returns the cached schema of provider p, fetching it from a
// fresh instance the first time; that instance is kept as a spare for the
// operation's walk (see spareProviders). The lock is held while fetching:
// schemas are fetched once per provider type per Context.
func (c *Context) schema(p addrs.Provider) (*providers.GetProviderSchemaResponse, hcl.Diagnostics) {
	c.schemaMu.Lock()
	defer c.schemaMu.Unlock()
	if s, ok := c.schemas[p]; ok {
		return s, nil
	}
	if _, own := c.providers.ProviderFactory(p); !own {
		// Served by its registry twin's factory: share its schema.
		if twin, ok := p.RegistryTwin(); ok && c.schemas[twin] != nil {
			c.schemas[p] = c.schemas[twin]
			return c.schemas[p], nil
		}
	}
	f, ok := c.factory(p)
	if !ok {
		return nil, hcl.Diagnostics{c.missingProvider(p)}
	}
	inst, err := f()
	if err != nil {
		return nil, tfdiags.FromError("Failed to start provider "+p.ForDisplay(), err)
	}
	resp := inst.GetProviderSchema()
	if resp.Diagnostics.HasErrors() {
		_ = inst.Close()
		return nil, resp.Diagnostics
	}
	c.spares.put(p, inst)
	c.schemas[p] = &resp
	return &resp, nil
}

// factory returns the factory for provider p, else for its registry twin
// (addrs.Provider.RegistryTwin): a state written by OpenTofu names
// registry.opentofu.org/hashicorp/null, the same provider plankit has as
// registry.terraform.io/hashicorp/null, and the other way round.
func (c *Context) factory(p addrs.Provider) (providers.Factory, bool) {
	if f, ok := c.providers.ProviderFactory(p); ok {
		return f, true
	}
	if twin, ok := p.RegistryTwin(); ok {
		return c.providers.ProviderFactory(twin)
	}
	return nil, false
}

// schemasFor fetches the schemas of every provider in ps. An operation
// calling it defers c.closeSpares(), which closes the instances that
// answered and that its walk did not take.
func (c *Context) schemasFor(ps []addrs.Provider) (map[addrs.Provider]*providers.GetProviderSchemaResponse, hcl.Diagnostics) {
	out := make(map[addrs.Provider]*providers.GetProviderSchemaResponse, len(ps))
	var diags hcl.Diagnostics
	for _, p := range ps {
		if _, done := out[p]; done {
			continue
		}
		s, d := c.schema(p)
		diags = append(diags, d...)
		if s != nil {
			out[p] = s
		}
	}
	return out, diags
}

// hookAll calls fn on every hook, reporting whether one asked to halt.
func (c *Context) hookAll(fn func(Hook) (HookAction, error)) bool {
	halt := false
	for _, h := range c.hooks {
		if a, _ := fn(h); a == HookActionHalt {
			halt = true
		}
	}
	return halt
}

// missingProvider is the error for a provider the configuration or state
// needs but this Context has no factory for. Installing providers is
// `plan init`'s job, and the commands point there before the core runs
// for the configuration's providers; what still reaches this error (a
// provider only the state names, a caller building its own Context) is
// beyond what the core can fix, so the detail lists what it has instead.
func (c *Context) missingProvider(p addrs.Provider) *hcl.Diagnostic {
	var have []string
	for _, a := range c.providers.ProviderAddrs() {
		have = append(have, a.ForDisplay())
	}
	sort.Strings(have)
	return tfdiags.Errorf("Missing required provider",
		"This configuration or its state uses provider %s, which plankit does not have. Available providers: %s. Remove the resources that use it from the configuration (and, for objects already in the state, from the state), or manage this configuration with a tool that has the provider.",
		p.ForDisplay(), strings.Join(have, ", "))
}

func workspaceOrDefault(ws string) string {
	if ws == "" {
		return "default"
	}
	return ws
}

// phaseDone reports the end of a phase to ContextOpts.Phase, if set.
func (c *Context) phaseDone(name string) {
	if c.phase != nil {
		c.phase(name)
	}
}
