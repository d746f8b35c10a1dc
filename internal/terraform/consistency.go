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
// values must not be shown. Marks are ignored. The mismatches are sorted
// by path. O(size of the values) without allocating when they agree
// (it runs for every applied instance); O(n·m) only for sets with unknown
// elements.
func compatibleValues(promised, got cty.Value, secret func(cty.Path) bool) []valueMismatch {
	return (&compatChecker{}).run(promised, got, secret)
}

// compatibleValues is the package function with a checker from the walk's
// pool: a checker escapes to the heap (its stack points into its own
// buffer), and the apply checks every applied instance twice.
func (ws *walkState) compatibleValues(promised, got cty.Value, secret func(cty.Path) bool) []valueMismatch {
	c, _ := ws.compat.Get().(*compatChecker)
	if c == nil {
		c = &compatChecker{}
	}
	out := c.run(promised, got, secret)
	ws.compat.Put(c)
	return out
}

// run checks got against promised and leaves c ready for reuse.
func (c *compatChecker) run(promised, got cty.Value, secret func(cty.Path) bool) []valueMismatch {
	c.secret, c.stack = secret, c.buf[:0]
	c.check(promised, got)
	out := c.out
	c.secret, c.out = nil, nil
	clear(c.buf[:])
	if len(out) > 1 {
		sort.SliceStable(out, func(i, j int) bool {
			return configschema.FormatPath(out[i].path) < configschema.FormatPath(out[j].path)
		})
	}
	return out
}

// compatChecker walks two values side by side. The path to the current
// position is kept as a stack of plain steps and turned into a cty.Path
// only for a mismatch, so agreeing values cost no allocation per step.
type compatChecker struct {
	secret func(cty.Path) bool
	out    []valueMismatch
	stack  []compatStep
	buf    [8]compatStep // stack's first backing array
}

// compatStep is one step of the current path: an attribute name, or an
// index key when attr is empty.
type compatStep struct {
	attr string
	key  cty.Value
}

func (c *compatChecker) push(attr string, key cty.Value) {
	c.stack = append(c.stack, compatStep{attr, key})
}
func (c *compatChecker) pop() { c.stack = c.stack[:len(c.stack)-1] }

// path returns the current position as a new cty.Path.
func (c *compatChecker) path() cty.Path {
	out := make(cty.Path, len(c.stack))
	for i, s := range c.stack {
		if s.attr != "" {
			out[i] = cty.GetAttrStep{Name: s.attr}
		} else {
			out[i] = cty.IndexStep{Key: s.key}
		}
	}
	return out
}

// fail records a mismatch at the current position; %v arguments that are
// cty.Values are rendered with show.
func (c *compatChecker) fail(format string, args ...any) {
	path := c.path()
	for i, a := range args {
		if v, ok := a.(cty.Value); ok {
			args[i] = c.show(path, v)
		}
	}
	c.out = append(c.out, valueMismatch{path: path, reason: fmt.Sprintf(format, args...)})
}

// show renders v for a message, or hides it when path is secret.
func (c *compatChecker) show(path cty.Path, v cty.Value) string {
	if c.secret != nil && c.secret(path) {
		return "(sensitive value)"
	}
	v, _ = v.UnmarkDeep()
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

func (c *compatChecker) check(p, g cty.Value) {
	p, _ = p.Unmark() // shallow, O(1): nested marks are dropped level by level
	g, _ = g.Unmark()
	if !p.IsKnown() {
		if errs := g.Type().TestConformance(p.Type()); p.Type() != cty.DynamicPseudoType && len(errs) > 0 {
			c.fail("the planned value was unknown of type %s, but the provider returned a value of type %s", p.Type().FriendlyName(), g.Type().FriendlyName())
		}
		return
	}
	if !g.IsKnown() {
		c.fail("the planned value %v was known, but it is now unknown", p)
		return
	}
	if p.IsNull() || g.IsNull() {
		if p.IsNull() != g.IsNull() {
			c.fail("the planned value was %v, but now it is %v", p, g)
		}
		return
	}
	pt := p.Type()
	switch {
	case pt.IsPrimitiveType():
		if !primitiveEqual(p, g) {
			c.fail("the planned value was %v, but now it is %v", p, g)
		}
	case pt.IsObjectType():
		c.checkObject(p, g)
	case p.RawEquals(g):
		// a collection identical to the plan (the common case): no need
		// to look at its elements one by one
	case pt.IsListType() || pt.IsTupleType():
		c.checkSequence(p, g)
	case pt.IsMapType():
		c.checkMap(p, g)
	case pt.IsSetType():
		c.checkSet(p, g)
	default: // capsules: only identity can be checked
		if !p.RawEquals(g) {
			c.fail("the planned value changed")
		}
	}
}

// primitiveEqual compares two known, non-null values of primitive type
// without cty's general equality machinery (the hot path of the check).
func primitiveEqual(p, g cty.Value) bool {
	switch pt := p.Type(); {
	case pt != g.Type():
		return false
	case pt == cty.String:
		return p.AsString() == g.AsString()
	case pt == cty.Bool:
		return p.True() == g.True()
	}
	return p.AsBigFloat().Cmp(g.AsBigFloat()) == 0
}

func (c *compatChecker) typeChanged(p, g cty.Value) {
	c.fail("the planned value was %s, but now it is %s", withArticle(p.Type().FriendlyName()), withArticle(g.Type().FriendlyName()))
}

func (c *compatChecker) checkSequence(p, g cty.Value) {
	if !(g.Type().IsListType() || g.Type().IsTupleType()) {
		c.typeChanged(p, g)
		return
	}
	if pl, gl := p.LengthInt(), g.LengthInt(); pl != gl {
		c.fail("the planned value had %d elements, but now it has %d", pl, gl)
		return
	}
	for i := range p.LengthInt() {
		k := cty.NumberIntVal(int64(i))
		c.push("", k)
		c.check(p.Index(k), g.Index(k))
		c.pop()
	}
}

func (c *compatChecker) checkObject(p, g cty.Value) {
	pt, gt := p.Type(), g.Type()
	if !gt.IsObjectType() {
		c.typeChanged(p, g)
		return
	}
	for name := range pt.AttributeTypes() {
		c.push(name, cty.NilVal)
		if gt.HasAttribute(name) {
			c.check(p.GetAttr(name), g.GetAttr(name))
		} else {
			c.fail("the planned value %v is missing from the result", p.GetAttr(name))
		}
		c.pop()
	}
	for name := range gt.AttributeTypes() {
		if !pt.HasAttribute(name) {
			c.push(name, cty.NilVal)
			c.fail("the result has an element %v the plan did not have", g.GetAttr(name))
			c.pop()
		}
	}
}

func (c *compatChecker) checkMap(p, g cty.Value) {
	if !g.Type().IsMapType() {
		c.typeChanged(p, g)
		return
	}
	for it := p.ElementIterator(); it.Next(); {
		k, pv := it.Element()
		c.push("", k)
		if has := g.HasIndex(k); has.IsKnown() && has.True() {
			c.check(pv, g.Index(k))
		} else {
			c.fail("the planned value %v is missing from the result", pv)
		}
		c.pop()
	}
	for it := g.ElementIterator(); it.Next(); {
		k, gv := it.Element()
		if has := p.HasIndex(k); !has.IsKnown() || has.False() {
			c.push("", k)
			c.fail("the result has an element %v the plan did not have", gv)
			c.pop()
		}
	}
}

// checkSet compares sets: equal when the plan knew every element;
// otherwise every known planned element must be in the result, and every
// result element must match some planned element (an unknown one matching
// anything of its type). Elements cannot be named by a path, so mismatches
// are reported at the set.
func (c *compatChecker) checkSet(p, g cty.Value) {
	if !g.Type().IsSetType() {
		c.typeChanged(p, g)
		return
	}
	if p.IsWhollyKnown() && g.IsWhollyKnown() {
		if eq := p.Equals(g); !eq.IsKnown() || eq.False() {
			c.fail("the planned set of %d elements differs from the result's %d elements", p.LengthInt(), g.LengthInt())
		}
		return
	}
	pe, ge := p.AsValueSlice(), g.AsValueSlice()
	matches := func(a, b cty.Value) bool {
		return len(compatibleValues(a, b, nil)) == 0
	}
	path := c.path()
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
		c.fail("planned set elements are missing from the result: %s", strings.Join(missing, ", "))
	}
	if len(extra) > 0 {
		c.fail("the result has set elements the plan did not allow: %s", strings.Join(extra, ", "))
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
