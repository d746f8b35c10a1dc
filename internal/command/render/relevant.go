package render

import (
	"math"
	"strconv"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/plans"
)

// relevantDrift is the drift a plan that is not refresh-only shows, as
// OpenTofu filters it: none when the plan changes nothing; otherwise an
// object only when its address is among the resources of the plan's
// relevant attributes, and in it only the changes to those attributes
// (an irrelevant attribute keeps its old value), so an object whose
// relevant attributes did not change is not shown. A plan whose
// relevant attributes are unknown shows all its drift.
// O(drift + relevant attributes).
func relevantDrift(p *plans.Plan) []*plans.ResourceInstanceChange {
	changes := p.Changes
	if changes == nil || (!HasResourceChanges(changes) && !HasMoves(changes) && !HasOutputChanges(changes)) {
		return nil
	}
	var paths map[string][][]any
	var everywhere [][]any // entries naming no resource apply to every one
	if p.RelevantKnown {
		paths = map[string][][]any{}
		for _, a := range p.RelevantAttributes {
			if a.Resource == "" {
				everywhere = append(everywhere, a.Attribute)
				continue
			}
			paths[a.Resource] = append(paths[a.Resource], a.Attribute)
		}
	}
	var out []*plans.ResourceInstanceChange
	for _, rc := range plans.SortedResourceChanges(p.DriftedResources) {
		if rc.Action == plans.NoOp {
			continue // a move alone: the planned changes show it
		}
		if !p.RelevantKnown {
			out = append(out, rc)
			continue
		}
		m := pathMatcher(paths[rc.Addr.String()])
		if len(everywhere) > 0 {
			m = append(append(pathMatcher{}, m...), everywhere...)
		}
		if len(m) == 0 {
			continue
		}
		if rc.Action != plans.Update {
			out = append(out, rc) // a deletion: the object is relevant as a whole
			continue
		}
		after := relevantAfter(rc.Before, rc.After, m)
		b, _ := rc.Before.UnmarkDeep()
		a, _ := after.UnmarkDeep()
		if b.RawEquals(a) {
			continue
		}
		if !after.RawEquals(rc.After) {
			cp := *rc
			cp.After = after
			rc = &cp
		}
		out = append(out, rc)
	}
	return out
}

// pathMatcher is the attribute paths still to match below a value: a
// value is relevant as a whole when one of them is empty (and so is
// everything in it), and in part when there is any.
type pathMatcher [][]any

func (m pathMatcher) whole() bool {
	for _, p := range m {
		if len(p) == 0 {
			return true
		}
	}
	return false
}

// child is the matcher below the attribute or key k.
func (m pathMatcher) child(k string) pathMatcher {
	var out pathMatcher
	for _, p := range m {
		if s, ok := p[0].(string); ok && s == k {
			out = append(out, p[1:])
		}
	}
	return out
}

// index is the matcher below list index i (a key may be written as a
// number or as a string holding one).
func (m pathMatcher) index(i int) pathMatcher {
	var out pathMatcher
	for _, p := range m {
		if n, ok := stepIndex(p[0]); ok && n == i {
			out = append(out, p[1:])
		}
	}
	return out
}

func stepIndex(s any) (int, bool) {
	var f float64
	switch v := s.(type) {
	case int:
		return v, true
	case int64:
		f = float64(v)
	case float64:
		f = v
	case string:
		var err error
		if f, err = strconv.ParseFloat(v, 64); err != nil {
			return 0, false
		}
	default:
		return 0, false
	}
	if f != math.Trunc(f) {
		return 0, false
	}
	return int(f), true
}

// relevantAfter is after with every part m does not reach put back to
// its value in before. Objects and maps are matched by attribute or
// key, lists of objects by index; any other value m reaches at all is
// relevant as a whole (as is everything when the two are not both
// known, non-null values of one type).
func relevantAfter(before, after cty.Value, m pathMatcher) cty.Value {
	if len(m) == 0 {
		return before
	}
	if m.whole() {
		return after
	}
	bv, bmarks := before.Unmark()
	av, amarks := after.Unmark()
	if !bv.IsKnown() || !av.IsKnown() || bv.IsNull() || av.IsNull() || !bv.Type().Equals(av.Type()) {
		return after
	}
	ty := av.Type()
	var out cty.Value
	switch {
	case ty.IsObjectType():
		if len(ty.AttributeTypes()) == 0 {
			return after
		}
		attrs := make(map[string]cty.Value, len(ty.AttributeTypes()))
		for name := range ty.AttributeTypes() {
			attrs[name] = relevantAfter(bv.GetAttr(name), av.GetAttr(name), m.child(name))
		}
		out = cty.ObjectVal(attrs)
	case ty.IsMapType():
		elems := map[string]cty.Value{}
		for it := bv.ElementIterator(); it.Next(); {
			k, v := it.Element()
			if len(m.child(k.AsString())) > 0 {
				continue // taken from after (or gone there)
			}
			elems[k.AsString()] = v
		}
		for it := av.ElementIterator(); it.Next(); {
			k, v := it.Element()
			if c := m.child(k.AsString()); len(c) > 0 {
				old := cty.NullVal(ty.ElementType())
				if bv.HasIndex(k).True() {
					old = bv.Index(k)
				}
				elems[k.AsString()] = relevantAfter(old, v, c)
			}
		}
		if len(elems) == 0 {
			out = cty.MapValEmpty(ty.ElementType())
		} else {
			out = cty.MapVal(elems)
		}
	case ty.IsListType() && ty.ElementType().IsObjectType():
		bl, al := bv.AsValueSlice(), av.AsValueSlice()
		var elems []cty.Value
		for i := 0; i < len(bl) || i < len(al); i++ {
			c := m.index(i)
			switch {
			case len(c) == 0 && i < len(bl):
				elems = append(elems, bl[i])
			case len(c) == 0:
			case i < len(al) && i < len(bl):
				elems = append(elems, relevantAfter(bl[i], al[i], c))
			case i < len(al):
				elems = append(elems, al[i])
			}
		}
		if len(elems) == 0 {
			out = cty.ListValEmpty(ty.ElementType())
		} else {
			out = cty.ListVal(elems)
		}
	default:
		return after
	}
	if len(amarks) > 0 {
		out = out.WithMarks(amarks)
	} else if len(bmarks) > 0 {
		out = out.WithMarks(bmarks)
	}
	return out
}
