package terraform

import (
	"fmt"
	"sort"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/providers/configschema"
)

// valueMismatch is one place where a value contradicts the one promised
// for it: the path (as configschema.FormatPath renders it, "" for the
// whole object) and what differs.
type valueMismatch struct {
	path   cty.Path
	reason string
}

// String renders the mismatch as ".a.b[0]: reason" (or "the object: …").
func (m valueMismatch) String() string {
	if len(m.path) == 0 {
		return "the object: " + m.reason
	}
	return "." + configschema.FormatPath(m.path) + ": " + m.reason
}

// compatibleValues returns every place where got contradicts promised:
// each known value in promised (however deeply nested in objects, maps,
// lists, tuples and sets) must be equal in got; an unknown in promised may
// become any value of its type, known or not. It is the rule behind both
// "inconsistent result after apply" (promised: the final planned object,
// got: the new object) and "inconsistent final plan" (promised: the saved
// plan, got: the plan made again at apply). secret reports paths whose
// values must not be shown. Marks are ignored. O(size of the values),
// O(n·m) only for sets with unknown elements.
func compatibleValues(promised, got cty.Value, secret func(cty.Path) bool) []valueMismatch {
	promised, _ = promised.UnmarkDeep()
	got, _ = got.UnmarkDeep()
	c := &compatChecker{secret: secret}
	c.check(nil, promised, got)
	return c.out
}

type compatChecker struct {
	secret func(cty.Path) bool
	out    []valueMismatch
}

func (c *compatChecker) fail(path cty.Path, format string, args ...any) {
	c.out = append(c.out, valueMismatch{path: path.Copy(), reason: fmt.Sprintf(format, args...)})
}

// show renders v for a message, or hides it when path is secret.
func (c *compatChecker) show(path cty.Path, v cty.Value) string {
	if c.secret != nil && c.secret(path) {
		return "(sensitive value)"
	}
	switch {
	case !v.IsKnown():
		return "(known after apply)"
	case v.IsNull():
		return "null"
	case v.Type() == cty.String:
		return fmt.Sprintf("%q", v.AsString())
	case v.Type() == cty.Number:
		return v.AsBigFloat().Text('f', -1)
	case v.Type() == cty.Bool:
		return fmt.Sprint(v.True())
	}
	return withArticle(v.Type().FriendlyName())
}

// withArticle prefixes a type name with "a" or "an".
func withArticle(name string) string {
	if name != "" && strings.ContainsRune("aeiou", rune(name[0])) {
		return "an " + name
	}
	return "a " + name
}

func (c *compatChecker) check(path cty.Path, p, g cty.Value) {
	if !p.IsKnown() {
		if errs := g.Type().TestConformance(p.Type()); p.Type() != cty.DynamicPseudoType && len(errs) > 0 {
			c.fail(path, "the planned value was unknown of type %s, but the provider returned a value of type %s", p.Type().FriendlyName(), g.Type().FriendlyName())
		}
		return
	}
	if !g.IsKnown() {
		c.fail(path, "the planned value %s was known, but it is now unknown", c.show(path, p))
		return
	}
	if p.IsNull() || g.IsNull() {
		if p.IsNull() != g.IsNull() {
			c.fail(path, "the planned value was %s, but now it is %s", c.show(path, p), c.show(path, g))
		}
		return
	}
	pt, gt := p.Type(), g.Type()
	switch {
	case pt.IsPrimitiveType():
		if eq := p.Equals(g); !gt.IsPrimitiveType() || !eq.IsKnown() || eq.False() {
			c.fail(path, "the planned value was %s, but now it is %s", c.show(path, p), c.show(path, g))
		}
	case pt.IsListType() || pt.IsTupleType():
		c.checkSequence(path, p, g)
	case pt.IsMapType() || pt.IsObjectType():
		c.checkMapping(path, p, g)
	case pt.IsSetType():
		c.checkSet(path, p, g)
	default: // capsules: only identity can be checked
		if !p.RawEquals(g) {
			c.fail(path, "the planned value changed")
		}
	}
}

func (c *compatChecker) checkSequence(path cty.Path, p, g cty.Value) {
	if !(g.Type().IsListType() || g.Type().IsTupleType()) {
		c.fail(path, "the planned value was %s, but now it is %s", withArticle(p.Type().FriendlyName()), withArticle(g.Type().FriendlyName()))
		return
	}
	if pl, gl := p.LengthInt(), g.LengthInt(); pl != gl {
		c.fail(path, "the planned value had %d elements, but now it has %d", pl, gl)
		return
	}
	for i := range p.LengthInt() {
		k := cty.NumberIntVal(int64(i))
		c.check(append(path, cty.IndexStep{Key: k}), p.Index(k), g.Index(k))
	}
}

func (c *compatChecker) checkMapping(path cty.Path, p, g cty.Value) {
	if !(g.Type().IsMapType() || g.Type().IsObjectType()) {
		c.fail(path, "the planned value was %s, but now it is %s", withArticle(p.Type().FriendlyName()), withArticle(g.Type().FriendlyName()))
		return
	}
	pm, gm := p.AsValueMap(), g.AsValueMap()
	keys := make([]string, 0, len(pm)+len(gm))
	for k := range pm {
		keys = append(keys, k)
	}
	for k := range gm {
		if _, ok := pm[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	obj := p.Type().IsObjectType()
	for _, k := range keys {
		var step cty.PathStep = cty.IndexStep{Key: cty.StringVal(k)}
		if obj {
			step = cty.GetAttrStep{Name: k}
		}
		pv, pok := pm[k]
		gv, gok := gm[k]
		switch {
		case !gok:
			c.fail(append(path, step), "the planned value %s is missing from the result", c.show(append(path, step), pv))
		case !pok:
			c.fail(append(path, step), "the result has an element %s the plan did not have", c.show(append(path, step), gv))
		default:
			c.check(append(path, step), pv, gv)
		}
	}
}

// checkSet compares sets: equal when the plan knew every element;
// otherwise every known planned element must be in the result, and every
// result element must match some planned element (an unknown one matching
// anything of its type). Elements cannot be named by a path, so mismatches
// are reported at the set.
func (c *compatChecker) checkSet(path cty.Path, p, g cty.Value) {
	if !g.Type().IsSetType() {
		c.fail(path, "the planned value was %s, but now it is %s", withArticle(p.Type().FriendlyName()), withArticle(g.Type().FriendlyName()))
		return
	}
	if p.IsWhollyKnown() && g.IsWhollyKnown() {
		if eq := p.Equals(g); !eq.IsKnown() || eq.False() {
			c.fail(path, "the planned set of %d elements differs from the result's %d elements", p.LengthInt(), g.LengthInt())
		}
		return
	}
	pe, ge := p.AsValueSlice(), g.AsValueSlice()
	matches := func(a, b cty.Value) bool {
		return len(compatibleValues(a, b, nil)) == 0
	}
	var missing, extra []string
	for _, x := range pe {
		if !x.IsWhollyKnown() {
			continue
		}
		if !anyMatch(ge, func(y cty.Value) bool { return matches(x, y) }) {
			missing = append(missing, c.show(path, x))
		}
	}
	for _, y := range ge {
		if !anyMatch(pe, func(x cty.Value) bool { return matches(x, y) }) {
			extra = append(extra, c.show(path, y))
		}
	}
	if len(missing) > 0 {
		c.fail(path, "planned set elements are missing from the result: %s", strings.Join(missing, ", "))
	}
	if len(extra) > 0 {
		c.fail(path, "the result has set elements the plan did not allow: %s", strings.Join(extra, ", "))
	}
}

func anyMatch(vs []cty.Value, f func(cty.Value) bool) bool {
	for _, v := range vs {
		if f(v) {
			return true
		}
	}
	return false
}

// secretPaths returns the function compatibleValues uses to hide values:
// a path is secret when it is, or lies under, an attribute the schema
// marks sensitive, or lies under a path whose value came from a sensitive
// value in the configuration (marked).
func secretPaths(schema *configschema.Block, marked []cty.Path) func(cty.Path) bool {
	return func(path cty.Path) bool {
		for i := 1; i <= len(path); i++ {
			if a := schema.AttributeByPath(path[:i]); a != nil && a.Sensitive {
				return true
			}
		}
		for _, m := range marked {
			if len(m) <= len(path) && m.Equals(path[:len(m)]) {
				return true
			}
		}
		return false
	}
}
