package terraform

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
)

// TestValueStoreWholeResource checks the collection values get builds for
// count, for_each and single resources, unknown placeholders for instances
// not set yet, and that a set after a get is seen by the next get (the
// cached collection is dropped).
func TestValueStoreWholeResource(t *testing.T) {
	ty := cty.Object(map[string]cty.Type{"id": cty.String})
	obj := func(id string) cty.Value { return cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal(id)}) }
	res := func(name string) addrs.AbsResource {
		return addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "t", Name: name}.Absolute(addrs.RootModuleInstance)
	}
	s := newValueStore()
	s.expand(res("c"), expansion{mode: expCount, count: 3, known: true}, ty)
	s.expand(res("e"), expansion{mode: expForEach, keys: []addrs.InstanceKey{addrs.StringKey("x"), addrs.StringKey("y")}, known: true}, ty)
	s.expand(res("s"), expansion{mode: expSingle, keys: []addrs.InstanceKey{addrs.NoKey}, known: true}, ty)
	s.set(res("c").Instance(addrs.IntKey(0)), obj("c0"))
	s.set(res("e").Instance(addrs.StringKey("x")), obj("ex"))

	steps := []struct {
		name string
		set  map[string]cty.Value // instance address -> value, set before the gets
		want map[string]cty.Value // resource -> whole value
	}{
		{"partly set", nil, map[string]cty.Value{
			"c": cty.TupleVal([]cty.Value{obj("c0"), cty.UnknownVal(ty), cty.UnknownVal(ty)}),
			"e": cty.ObjectVal(map[string]cty.Value{"x": obj("ex"), "y": cty.UnknownVal(ty)}),
			"s": cty.UnknownVal(ty),
		}},
		{"set after get", map[string]cty.Value{"c2": obj("c2"), "ey": obj("ey"), "s": obj("s")}, map[string]cty.Value{
			"c": cty.TupleVal([]cty.Value{obj("c0"), cty.UnknownVal(ty), obj("c2")}),
			"e": cty.ObjectVal(map[string]cty.Value{"x": obj("ex"), "y": obj("ey")}),
			"s": obj("s"),
		}},
		{"replaced", map[string]cty.Value{"c0": obj("new")}, map[string]cty.Value{
			"c": cty.TupleVal([]cty.Value{obj("new"), cty.UnknownVal(ty), obj("c2")}),
			"e": cty.ObjectVal(map[string]cty.Value{"x": obj("ex"), "y": obj("ey")}),
			"s": obj("s"),
		}},
	}
	instOf := map[string]addrs.AbsResourceInstance{
		"c0": res("c").Instance(addrs.IntKey(0)), "c2": res("c").Instance(addrs.IntKey(2)),
		"ey": res("e").Instance(addrs.StringKey("y")), "s": res("s").Instance(addrs.NoKey),
	}
	for _, st := range steps {
		for k, v := range st.set {
			s.set(instOf[k], v)
		}
		for name, want := range st.want {
			for range 2 { // the second get is the cached value
				got, ok := s.get(res(name))
				if !ok || !got.RawEquals(want) {
					t.Errorf("%s: get(%s) = %#v, %v; want %#v", st.name, name, got, ok, want)
				}
			}
		}
	}
	if _, ok := s.get(res("never")); ok {
		t.Errorf("get of a resource never expanded: ok")
	}
}
