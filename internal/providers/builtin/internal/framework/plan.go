package framework

import (
	"maps"
	"slices"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
)

// ReplaceFunc decides whether a planned change of one attribute (prior
// differs from the planned value) forces replacement. It receives the
// attribute's prior state and configuration values. It is the built-ins'
// counterpart of the plugin framework's RequiresReplaceIf.
type ReplaceFunc func(prior, config cty.Value) bool

// Planner plans resources whose configurable attributes force replacement
// when they change (random_*, null_resource, local_file), except where
// ReplaceIf says otherwise: then the change is an in-place update that
// keeps every computed-only attribute (the framework's UseStateForUnknown).
type Planner struct {
	Schema *configschema.Block
	// Defaults fill optional+computed attributes left null in config.
	Defaults map[string]cty.Value
	// ReplaceIf overrides, per attribute, "any change replaces".
	ReplaceIf map[string]ReplaceFunc
}

// Plan fills defaults; on update, each changed configurable attribute asks
// for replacement unless its ReplaceIf declines, and a replacement makes
// the computed-only attributes unknown again. O(number of attributes).
func (p Planner) Plan(req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
	planned := ApplyDefaults(req.ProposedNewState, req.Config, p.Defaults)
	resp := providers.PlanResourceChangeResponse{PlannedState: planned, PlannedPrivate: req.PriorPrivate}
	if req.PriorState.IsNull() {
		return resp
	}
	for _, name := range slices.Sorted(maps.Keys(p.Schema.Attributes)) {
		if p.Schema.Attributes[name].ComputedOnly() {
			continue
		}
		prior, now := req.PriorState.GetAttr(name), planned.GetAttr(name)
		if eq := prior.Equals(now); eq.IsKnown() && eq.True() {
			continue
		}
		if f := p.ReplaceIf[name]; f != nil && !f(prior, req.Config.GetAttr(name)) {
			continue
		}
		resp.RequiresReplace = append(resp.RequiresReplace, cty.GetAttrPath(name))
	}
	if len(resp.RequiresReplace) > 0 {
		resp.PlannedState = UnknownComputed(p.Schema, planned)
	}
	return resp
}

// ReplaceIfKeepersChanged is the random provider's rule for keepers: a
// change replaces only if it adds, changes or removes a non-null value.
// Null map values, and a null map against one holding only nulls, do not
// count (the older SDK provider stored neither), so such a change is an
// in-place update. An unknown map counts as empty, as in the plugin
// framework, whose unknown maps have no elements. O(len(prior)+len(config)).
func ReplaceIfKeepersChanged(prior, config cty.Value) bool {
	elems := func(v cty.Value) map[string]cty.Value {
		if v.IsNull() || !v.IsKnown() {
			return nil
		}
		return v.AsValueMap()
	}
	cfg := elems(config)
	if prior.IsNull() {
		for _, v := range cfg {
			if !v.IsNull() {
				return true
			}
		}
		return false
	}
	old := elems(prior)
	for k, v := range cfg {
		pv, ok := old[k]
		if !ok && v.IsNull() {
			continue
		}
		if !ok || !v.RawEquals(pv) {
			return true
		}
	}
	for k := range old {
		if _, ok := cfg[k]; !ok {
			return true
		}
	}
	return false
}

// ReplaceUnlessEmptyToNull is the random provider's rule for
// override_special: every change replaces except removing an empty string
// (which provider 3.4.2 stored for an unset argument), and an unknown
// configuration does not replace yet.
func ReplaceUnlessEmptyToNull(prior, config cty.Value) bool {
	if !config.IsKnown() {
		return false
	}
	if !config.IsNull() || prior.IsNull() || !prior.IsKnown() {
		return true
	}
	return prior.AsString() != ""
}
