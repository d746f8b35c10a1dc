package terraform

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/states"
)

func TestInstanceIndex(t *testing.T) {
	res := func(name string) addrs.AbsResource {
		return addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "t", Name: name}.Absolute(addrs.RootModuleInstance)
	}
	mod := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "t", Name: "a"}.Absolute(addrs.RootModuleInstance.Child("m", addrs.IntKey(1)))
	puts := []struct {
		addr addrs.AbsResourceInstance
		v    string
	}{
		{res("single").Instance(addrs.NoKey), "single"},
		{res("count").Instance(addrs.IntKey(0)), "c0"},
		{res("count").Instance(addrs.IntKey(2)), "c2"},
		{res("count").Instance(addrs.IntKey(1)), "c1"},
		{res("count").Instance(addrs.IntKey(1 << 40)), "huge"}, // sparse: the map, not a slot per index
		{res("each").Instance(addrs.StringKey("x")), "ex"},
		{res("each").Instance(addrs.StringKey("y")), "ey"},
		{res("count").Instance(addrs.IntKey(0)), "c0 again"}, // replaces c0
		{mod.Instance(addrs.NoKey), "in module"},
	}
	var ix instanceIndex[string]
	for _, p := range puts {
		ix.put(p.addr, p.v)
	}
	gets := map[string]string{}
	for _, a := range []addrs.AbsResourceInstance{
		res("single").Instance(addrs.NoKey), res("single").Instance(addrs.IntKey(0)),
		res("count").Instance(addrs.IntKey(0)), res("count").Instance(addrs.IntKey(1)), res("count").Instance(addrs.IntKey(2)),
		res("count").Instance(addrs.IntKey(3)), res("count").Instance(addrs.IntKey(1 << 40)), res("count").Instance(addrs.NoKey),
		res("each").Instance(addrs.StringKey("x")), res("each").Instance(addrs.StringKey("z")),
		mod.Instance(addrs.NoKey), res("a").Instance(addrs.NoKey), res("none").Instance(addrs.IntKey(0)),
	} {
		gets[a.String()] = ix.get(a)
	}
	want := map[string]string{
		"t.single": "single", "t.single[0]": "",
		"t.count[0]": "c0 again", "t.count[1]": "c1", "t.count[2]": "c2", "t.count[3]": "", "t.count[1099511627776]": "huge", "t.count": "",
		`t.each["x"]`: "ex", `t.each["z"]`: "",
		"module.m[1].t.a": "in module", "t.a": "", "t.none[0]": "",
	}
	if d := cmp.Diff(want, gets); d != "" {
		t.Errorf("get (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"c0", "c2", "c1", "huge", "c0 again"}, ix.resource(res("count"))); d != "" {
		t.Errorf("resource (-want +got):\n%s", d)
	}
	if got := len(ix.m["t.count"].byIdx); got != 3 {
		t.Errorf("count slots: %d, want 3", got)
	}
	if got := ix.resource(res("none")); got != nil {
		t.Errorf("resource of an unknown address: %v", got)
	}
}

// TestInstanceIndexCountPutNoAddressString checks that putting and getting
// the instances of one resource one after another does not build the
// resource's address string each time (2 allocations an instance before).
func TestInstanceIndexCountPutNoAddressString(t *testing.T) {
	r := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "t", Name: "r"}.Absolute(addrs.RootModuleInstance.Child("m", addrs.NoKey))
	var ix instanceIndex[*int]
	v := new(int)
	i := 0
	if n := testing.AllocsPerRun(1000, func() {
		a := r.Instance(addrs.IntKey(i))
		ix.put(a, v)
		if ix.get(a) != v {
			t.Fatalf("get(%s) lost the value", a)
		}
		i++
	}); n >= 1 {
		t.Errorf("put+get allocated %v times per instance, want < 1 (amortized slice growth only)", n)
	}
}

// TestSortedDeposedNone checks that an object with no deposed objects (the
// usual case, once per planned instance) costs no allocation, and that
// deposed keys still come sorted.
func TestSortedDeposedNone(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() { sortedDeposed(nil) }); n != 0 {
		t.Errorf("sortedDeposed(nil) allocated %v times, want 0", n)
	}
	got := sortedDeposed(map[addrs.DeposedKey]*states.ResourceInstanceObjectSrc{"bbbbbbbb": nil, "aaaaaaaa": nil})
	if diff := cmp.Diff([]addrs.DeposedKey{"aaaaaaaa", "bbbbbbbb"}, got); diff != "" {
		t.Errorf("sortedDeposed (-want +got):\n%s", diff)
	}
}
