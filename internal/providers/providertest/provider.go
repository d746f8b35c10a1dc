// Package providertest is a configurable provider for core tests: schemas
// set per test, every call recorded in order, injected errors, panics and
// channel-controlled delays, and sensible default behaviour (plans that keep
// computed attributes unknown until apply, replacement when a force-new
// attribute changes, reads that return the prior state unless drift is
// set). It is safe for concurrent use.
package providertest

import (
	"fmt"

	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
	"github.com/plankit/plankit/tfdiags"
)

// Provider is the test double. Configure its exported fields before the
// first call; they are read without locking afterwards.
type Provider struct {
	// Schema is returned by GetProviderSchema and drives the defaults.
	Schema providers.GetProviderSchemaResponse

	// ForceNew lists, per resource type, the attribute paths whose change
	// makes the default PlanResourceChange ask for replacement.
	ForceNew map[string][]cty.Path

	// KeyAttrs names the attributes whose string value identifies an
	// object in recorded calls (the first non-null one wins). Defaults to
	// "name", then "id".
	KeyAttrs []string

	// Drift, if set, gives ReadResource's new state (null = gone) instead
	// of the prior state.
	Drift func(req providers.ReadResourceRequest) cty.Value

	// Hooks replace default behaviour per method; nil keeps the default.
	ValidateResourceFn func(providers.ValidateResourceConfigRequest) providers.ValidateResourceConfigResponse
	PlanFn             func(providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse
	ApplyFn            func(providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse
	ImportFn           func(providers.ImportResourceStateRequest) providers.ImportResourceStateResponse
	ReadDataSourceFn   func(providers.ReadDataSourceRequest) providers.ReadDataSourceResponse
	MoveFn             func(providers.MoveResourceStateRequest) providers.MoveResourceStateResponse
	OpenEphemeralFn    func(providers.OpenEphemeralResourceRequest) providers.OpenEphemeralResourceResponse
	// Functions are the provider-defined functions GetFunctions returns
	// and CallFunction calls, by name.
	Functions map[string]Function
	// UnknownFill gives the value an unknown becomes at apply (or at data
	// source read); nil uses DefaultFill.
	UnknownFill func(typeName string, path cty.Path, ty cty.Type, seq int) cty.Value

	mu       sync.Mutex
	calls    []Call
	faults   []*Fault
	config   cty.Value
	seq      int
	stopOnce sync.Once
	stopped  chan struct{}
	closed   bool
	initOnce sync.Once
}

var _ providers.Interface = (*Provider)(nil)

// New returns a provider with one resource type per entry of resources
// (schema version 0) and an empty provider configuration schema.
func New(resources map[string]*configschema.Block) *Provider {
	p := &Provider{Schema: providers.GetProviderSchemaResponse{
		Provider:      providers.Schema{Block: &configschema.Block{}},
		ResourceTypes: map[string]providers.Schema{},
		DataSources:   map[string]providers.Schema{},
	}}
	for name, b := range resources {
		p.Schema.ResourceTypes[name] = providers.Schema{Block: b}
	}
	return p
}

// Factory returns a providers.Factory that always yields p, so the test
// can inspect the calls the core made.
func (p *Provider) Factory() providers.Factory {
	return func() (providers.Interface, error) { return p, nil }
}

func (p *Provider) init() {
	p.initOnce.Do(func() { p.stopped = make(chan struct{}) })
}

// Configured returns the configuration passed to ConfigureProvider, or
// cty.NilVal if it was not called.
func (p *Provider) Configured() cty.Value {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.config
}

// Closed reports whether Close was called.
func (p *Provider) Closed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.closed
}

func (p *Provider) resourceSchema(typeName string) (*configschema.Block, hcl.Diagnostics) {
	s, ok := p.Schema.ResourceTypes[typeName]
	if !ok || s.Block == nil {
		return nil, hcl.Diagnostics{tfdiags.Errorf("Unsupported resource type", "The test provider has no resource type %q.", typeName)}
	}
	return s.Block, nil
}

func (p *Provider) dataSchema(typeName string) (*configschema.Block, hcl.Diagnostics) {
	s, ok := p.Schema.DataSources[typeName]
	if !ok || s.Block == nil {
		return nil, hcl.Diagnostics{tfdiags.Errorf("Unsupported data source", "The test provider has no data source %q.", typeName)}
	}
	return s.Block, nil
}

func (p *Provider) ephemeralSchema(typeName string) (*configschema.Block, hcl.Diagnostics) {
	s, ok := p.Schema.EphemeralResourceTypes[typeName]
	if !ok || s.Block == nil {
		return nil, hcl.Diagnostics{tfdiags.Errorf("Unsupported ephemeral resource type", "The test provider has no ephemeral resource type %q.", typeName)}
	}
	return s.Block, nil
}

// nextSeq returns a fresh sequence number for filling unknowns.
func (p *Provider) nextSeq() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.seq++
	return p.seq
}

// DefaultFill is the default UnknownFill: strings become
// "<type>-<seq>" (so an "id" is unique per apply), numbers seq, bools
// false, anything else null.
func DefaultFill(typeName string, _ cty.Path, ty cty.Type, seq int) cty.Value {
	switch {
	case ty == cty.String:
		return cty.StringVal(fmt.Sprintf("%s-%d", typeName, seq))
	case ty == cty.Number:
		return cty.NumberIntVal(int64(seq))
	case ty == cty.Bool:
		return cty.False
	default:
		return cty.NullVal(ty)
	}
}

// fillUnknowns replaces every unknown in v by UnknownFill's value.
func (p *Provider) fillUnknowns(typeName string, v cty.Value) cty.Value {
	if v.IsWhollyKnown() {
		return v
	}
	fill := p.UnknownFill
	if fill == nil {
		fill = DefaultFill
	}
	seq := p.nextSeq()
	out, err := cty.Transform(v, func(path cty.Path, v cty.Value) (cty.Value, error) {
		if v.IsKnown() {
			return v, nil
		}
		ty := v.Type()
		if ty == cty.DynamicPseudoType {
			return cty.NullVal(cty.DynamicPseudoType), nil
		}
		return fill(typeName, path, ty, seq), nil
	})
	if err != nil {
		return v
	}
	return out
}

// keyOf returns the identifying string of the first non-null candidate
// value, by KeyAttrs.
func (p *Provider) keyOf(vals ...cty.Value) string {
	attrs := p.KeyAttrs
	if len(attrs) == 0 {
		attrs = []string{"name", "id"}
	}
	for _, attr := range attrs {
		for _, v := range vals {
			if v == cty.NilVal || v.IsNull() || !v.IsKnown() || !v.Type().IsObjectType() || !v.Type().HasAttribute(attr) {
				continue
			}
			a := v.GetAttr(attr)
			if a.IsKnown() && !a.IsNull() && a.Type() == cty.String {
				return a.AsString()
			}
		}
	}
	return ""
}
