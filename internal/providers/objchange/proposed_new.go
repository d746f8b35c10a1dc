// Package objchange holds the rules for how a resource object changes
// between prior state, configuration and plan, independent of any provider.
package objchange

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/providers/configschema"
)

// ProposedNew returns the proposed new state the core sends to
// PlanResourceChange: configuration values where the configuration sets
// them; for computed attributes left null in configuration, the prior
// value, or unknown when there is no prior object (create). Nested blocks
// are merged element by element: single and group blocks directly, lists by
// index, maps by key, and set elements with the prior element whose
// non-computed attributes are equal (so computed attributes of unchanged
// set elements survive).
//
// A null config gives null (destroy); an unknown config gives unknown.
// Values must be unmarked. O(size of config × set sizes).
func ProposedNew(schema *configschema.Block, prior, config cty.Value) cty.Value {
	if config.IsNull() || !config.IsKnown() {
		return config
	}
	if schema == nil {
		schema = &configschema.Block{}
	}
	return proposedNewObject(schema, prior, config)
}

// proposedNewObject merges one block's object. prior may be null or
// unknown; config is known and non-null.
func proposedNewObject(b *configschema.Block, prior, config cty.Value) cty.Value {
	priorKnown := !prior.IsNull() && prior.IsKnown()
	out := make(map[string]cty.Value, len(b.Attributes)+len(b.BlockTypes))
	for name, a := range b.Attributes {
		out[name] = proposedNewAttribute(a, prior, priorKnown, name, config.GetAttr(name))
	}
	for name, nb := range b.BlockTypes {
		cv := config.GetAttr(name)
		pv := cty.NullVal(nb.ImpliedType())
		if priorKnown {
			pv = prior.GetAttr(name)
		}
		out[name] = proposedNewBlock(nb, pv, cv)
	}
	return cty.ObjectVal(out)
}

func proposedNewBlock(nb *configschema.NestedBlock, prior, config cty.Value) cty.Value {
	if !config.IsKnown() || config.IsNull() {
		return config
	}
	if !prior.IsKnown() {
		prior = cty.NullVal(prior.Type())
	}
	switch nb.Nesting {
	case configschema.NestingSingle, configschema.NestingGroup:
		return proposedNewObject(&nb.Block, prior, config)
	case configschema.NestingList:
		return mergeSequence(nb, prior, config)
	case configschema.NestingMap:
		return mergeMap(nb, prior, config)
	case configschema.NestingSet:
		return mergeSet(nb, prior, config)
	}
	return config
}

// mergeSequence pairs list (or tuple) elements by index.
func mergeSequence(nb *configschema.NestedBlock, prior, config cty.Value) cty.Value {
	if config.LengthInt() == 0 {
		return config
	}
	var priorElems []cty.Value
	if !prior.IsNull() {
		priorElems = prior.AsValueSlice()
	}
	elems := make([]cty.Value, 0, config.LengthInt())
	for i, cv := range config.AsValueSlice() {
		pv := cty.NullVal(cv.Type())
		if i < len(priorElems) && priorElems[i].Type().Equals(cv.Type()) {
			pv = priorElems[i]
		}
		elems = append(elems, proposedNewObject(&nb.Block, pv, cv))
	}
	if config.Type().IsTupleType() {
		return cty.TupleVal(elems)
	}
	return cty.ListVal(elems)
}

// mergeMap pairs map (or object) elements by key.
func mergeMap(nb *configschema.NestedBlock, prior, config cty.Value) cty.Value {
	if config.LengthInt() == 0 {
		return config
	}
	var priorElems map[string]cty.Value
	if !prior.IsNull() {
		priorElems = prior.AsValueMap()
	}
	elems := make(map[string]cty.Value, config.LengthInt())
	for k, cv := range config.AsValueMap() {
		pv := cty.NullVal(cv.Type())
		if p, ok := priorElems[k]; ok && p.Type().Equals(cv.Type()) {
			pv = p
		}
		elems[k] = proposedNewObject(&nb.Block, pv, cv)
	}
	if config.Type().IsObjectType() {
		return cty.ObjectVal(elems)
	}
	return cty.MapVal(elems)
}

// mergeSet pairs each config element with the first unused prior element
// whose non-computed attributes are equal; others are new elements.
func mergeSet(nb *configschema.NestedBlock, prior, config cty.Value) cty.Value {
	if config.LengthInt() == 0 {
		return config
	}
	var priorElems []cty.Value
	if !prior.IsNull() {
		priorElems = prior.AsValueSlice()
	}
	used := make([]bool, len(priorElems))
	elems := make([]cty.Value, 0, config.LengthInt())
	for _, cv := range config.AsValueSlice() {
		pv := cty.NullVal(cv.Type())
		for i, p := range priorElems {
			if !used[i] && sameConfigured(&nb.Block, p, cv) {
				used[i], pv = true, p
				break
			}
		}
		elems = append(elems, proposedNewObject(&nb.Block, pv, cv))
	}
	return cty.SetVal(elems)
}

// sameConfigured reports whether prior and config agree on every attribute
// configuration could have set (computed-only attributes and computed
// attributes null in config are ignored), recursively through blocks.
func sameConfigured(b *configschema.Block, prior, config cty.Value) bool {
	if prior.IsNull() || config.IsNull() || !prior.IsKnown() || !config.IsKnown() {
		return prior.IsNull() == config.IsNull()
	}
	for name, a := range b.Attributes {
		cv := config.GetAttr(name)
		if a.Computed && cv.IsNull() {
			continue
		}
		if eq := prior.GetAttr(name).Equals(cv); !eq.IsKnown() || eq.False() {
			return false
		}
	}
	for name, nb := range b.BlockTypes {
		pv, cv := prior.GetAttr(name), config.GetAttr(name)
		if nb.Nesting == configschema.NestingSingle || nb.Nesting == configschema.NestingGroup {
			if !sameConfigured(&nb.Block, pv, cv) {
				return false
			}
			continue
		}
		if eq := pv.Equals(cv); !eq.IsKnown() || eq.False() {
			// Collections of blocks with computed parts compare loosely:
			// only the element count must agree.
			if !pv.IsKnown() || !cv.IsKnown() || pv.IsNull() != cv.IsNull() ||
				(!pv.IsNull() && pv.LengthInt() != cv.LengthInt()) {
				return false
			}
		}
	}
	return true
}
