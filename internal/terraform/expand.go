package terraform

import (
	"fmt"
	"sort"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/lang"
	"github.com/plankit/plankit/internal/lang/marks"
)

// moduleInst is one instance of a module with the repetition data of the
// module call instance that made it.
type moduleInst struct {
	addr addrs.ModuleInstance
	key  string // addr.String(), computed once
	rep  repetition
}

// expander records how module calls expanded, per calling module
// instance. Module call nodes write it; everything inside a module reads
// it after them (graph edges guarantee the order).
type expander struct {
	mu      sync.RWMutex
	modules map[string][]moduleInst // parent instance key + "\x00" + call name
}

func newExpander() *expander { return &expander{modules: map[string][]moduleInst{}} }

var rootInst = []moduleInst{{addr: addrs.RootModuleInstance, key: ""}}

// setModuleCall records the instances of call inside parent.
func (e *expander) setModuleCall(parent moduleInst, call string, insts []moduleInst) {
	e.mu.Lock()
	e.modules[parent.key+"\x00"+call] = insts
	e.mu.Unlock()
}

// children returns the instances of call inside parent.
func (e *expander) children(parentKey, call string) ([]moduleInst, bool) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	insts, ok := e.modules[parentKey+"\x00"+call]
	return insts, ok
}

// moduleInstances returns every instance of the static module path. O(the
// instances along the path).
func (e *expander) moduleInstances(path addrs.Module) []moduleInst {
	cur := rootInst
	for _, name := range path {
		var next []moduleInst
		for _, p := range cur {
			c, _ := e.children(p.key, name)
			next = append(next, c...)
		}
		cur = next
	}
	return cur
}

// expansion is the evaluated count or for_each of a resource or module
// call in one module instance.
type expansion struct {
	mode expMode
	// count is the number of instances of a count; their keys are
	// IntKey(0..count-1), made on demand (no slice of boxed keys).
	count int
	keys  []addrs.InstanceKey // other modes, sorted: strings lexically
	each  map[addrs.InstanceKey]cty.Value
	known bool
}

// len is the number of instances.
func (x expansion) len() int {
	if x.mode == expCount {
		return x.count
	}
	return len(x.keys)
}

// key returns the key of instance i (0 <= i < x.len()), in key order.
func (x expansion) key(i int) addrs.InstanceKey {
	if x.mode == expCount {
		return addrs.IntKey(i)
	}
	return x.keys[i]
}

// has reports whether k is one of the keys. O(1) for a count, O(log n)
// otherwise.
func (x expansion) has(k addrs.InstanceKey) bool {
	switch x.mode {
	case expCount:
		i, ok := k.(addrs.IntKey)
		return ok && int(i) >= 0 && int(i) < x.count
	case expForEach:
		_, ok := x.each[k]
		return ok
	}
	for _, xk := range x.keys {
		if xk == k {
			return true
		}
	}
	return false
}

// reps returns the repetition data of each key, in key order.
func (x expansion) rep(k addrs.InstanceKey) repetition {
	return repetition{mode: x.mode, key: k, eachValue: x.each[k]}
}

// evalExpansion evaluates count or for_each (at most one is set) in scope.
// Unknown values are an error unless allowUnknown (the validate walk),
// when the result has known=false. what names the object for messages.
func evalExpansion(scope *lang.Scope, count, forEach hcl.Expression, allowUnknown bool) (expansion, hcl.Diagnostics) {
	switch {
	case count != nil:
		return evalCount(scope, count, allowUnknown)
	case forEach != nil:
		return evalForEach(scope, forEach, allowUnknown)
	}
	return expansion{mode: expSingle, keys: []addrs.InstanceKey{addrs.NoKey}, known: true}, nil
}

func evalCount(scope *lang.Scope, expr hcl.Expression, allowUnknown bool) (expansion, hcl.Diagnostics) {
	v, diags := scope.EvalExpr(expr, cty.Number)
	if diags.HasErrors() {
		return expansion{mode: expCount}, diags
	}
	if marks.Contains(v, marks.Ephemeral) {
		return expansion{mode: expCount}, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError,
			Summary: "Invalid count argument", Detail: ephemeralExpansionDetail("count"), Subject: expr.Range().Ptr()})
	}
	v, _ = v.Unmark()
	if !v.IsKnown() {
		if allowUnknown {
			return expansion{mode: expCount, known: false}, diags
		}
		return expansion{mode: expCount}, append(diags, unknownExpansionDiag(expr, "count"))
	}
	if v.IsNull() {
		return expansion{mode: expCount}, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError,
			Summary: "Invalid count argument", Detail: "The given \"count\" argument value is null. An integer is required.",
			Subject: expr.Range().Ptr()})
	}
	n, acc := v.AsBigFloat().Int64()
	if acc != 0 || n < 0 {
		return expansion{mode: expCount}, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError,
			Summary: "Invalid count argument", Detail: "The given \"count\" argument value is unsuitable: it must be a whole number, zero or greater.",
			Subject: expr.Range().Ptr()})
	}
	return expansion{mode: expCount, known: true, count: int(n)}, diags
}

func evalForEach(scope *lang.Scope, expr hcl.Expression, allowUnknown bool) (expansion, hcl.Diagnostics) {
	v, diags := scope.EvalExpr(expr, cty.DynamicPseudoType)
	bad := func(detail string) (expansion, hcl.Diagnostics) {
		return expansion{mode: expForEach}, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError,
			Summary: "Invalid for_each argument", Detail: detail, Subject: expr.Range().Ptr()})
	}
	if diags.HasErrors() {
		return expansion{mode: expForEach}, diags
	}
	if marks.Contains(v, marks.Ephemeral) {
		return bad(ephemeralExpansionDetail("for_each"))
	}
	if marks.Has(v, marks.Sensitive) {
		return bad("Sensitive values, or values derived from sensitive values, cannot be used as for_each arguments: the keys would be shown in the plan.")
	}
	if v.IsNull() {
		return bad("The given \"for_each\" argument value is null. A map, or set of strings, is allowed.")
	}
	ty := v.Type()
	if !v.IsKnown() {
		if allowUnknown {
			return expansion{mode: expForEach}, diags
		}
		return expansion{mode: expForEach}, append(diags, unknownExpansionDiag(expr, "for_each"))
	}
	x := expansion{mode: expForEach, known: true, each: map[addrs.InstanceKey]cty.Value{}}
	switch {
	case ty.IsSetType() || ty.IsListType() || ty.IsTupleType():
		if !ty.IsSetType() {
			return bad(fmt.Sprintf("The given \"for_each\" argument value is unsuitable: the \"for_each\" argument must be a map, or set of strings, and you have provided a value of type %s. Use toset() to convert a list.", ty.FriendlyName()))
		}
		if !v.IsWhollyKnown() {
			if allowUnknown {
				return expansion{mode: expForEach}, diags
			}
			return expansion{mode: expForEach}, append(diags, unknownExpansionDiag(expr, "for_each"))
		}
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			e, _ = e.Unmark()
			s, err := convert.Convert(e, cty.String)
			if err != nil || s.IsNull() {
				return bad("The given \"for_each\" argument value is unsuitable: a set used in for_each must contain only strings.")
			}
			x.each[addrs.StringKey(s.AsString())] = s
		}
	case ty.IsMapType() || ty.IsObjectType():
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			x.each[addrs.StringKey(k.AsString())] = e
		}
	default:
		return bad(fmt.Sprintf("The given \"for_each\" argument value is unsuitable: the \"for_each\" argument must be a map, or set of strings, and you have provided a value of type %s.", ty.FriendlyName()))
	}
	for k := range x.each {
		x.keys = append(x.keys, k)
	}
	sort.Slice(x.keys, func(i, j int) bool { return x.keys[i].(addrs.StringKey) < x.keys[j].(addrs.StringKey) })
	return x, diags
}

func unknownExpansionDiag(expr hcl.Expression, arg string) *hcl.Diagnostic {
	what := `The "count" value depends on resource attributes that cannot be determined until apply, so the number of instances to create cannot be predicted.`
	if arg == "for_each" {
		what = `The "for_each" value includes keys derived from resource attributes that cannot be determined until apply, so the instances to create cannot be identified.`
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("Invalid %s argument", arg),
		Detail:   what + fmt.Sprintf(" To work around this, use the -target argument to first apply only the resources that the %s depends on, then plan again.", arg),
		Subject:  expr.Range().Ptr(),
	}
}

// ephemeralExpansionDetail explains why an ephemeral value cannot say how
// many instances there are: their keys are stored in the plan and state.
func ephemeralExpansionDetail(arg string) string {
	return fmt.Sprintf("The %q argument may not use ephemeral values, nor values derived from them: the instance keys it makes are saved in the plan and the state, where an ephemeral value never goes.", arg)
}
