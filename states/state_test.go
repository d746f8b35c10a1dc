package states

import (
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/lang/marks"
	"github.com/zclconf/go-cty/cty"
)

var nullProvider = addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("null")}

func inst(mod addrs.ModuleInstance, typ, name string, key addrs.InstanceKey) addrs.AbsResourceInstance {
	return addrs.Resource{Mode: addrs.ManagedResourceMode, Type: typ, Name: name}.Instance(key).Absolute(mod)
}

func obj(id string) *ResourceInstanceObjectSrc {
	return &ResourceInstanceObjectSrc{AttrsJSON: []byte(`{"id":"` + id + `"}`), Status: ObjectReady}
}

func TestSettersAndPruning(t *testing.T) {
	s := NewState()
	child := addrs.RootModuleInstance.Child("net", addrs.StringKey("a"))
	a0 := inst(nil, "null_resource", "a", addrs.IntKey(0))
	a1 := inst(nil, "null_resource", "a", addrs.IntKey(1))
	b := inst(child, "null_resource", "b", addrs.NoKey)

	s.SetResourceInstanceCurrent(a1, obj("a1"), nullProvider)
	s.SetResourceInstanceCurrent(a0, obj("a0"), nullProvider)
	s.SetResourceInstanceCurrent(b, obj("b"), nullProvider)

	want := []string{"null_resource.a[0]", "null_resource.a[1]", `module.net["a"].null_resource.b`}
	var got []string
	for _, a := range s.AllResourceInstances() {
		got = append(got, a.String())
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("AllResourceInstances (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"", `module.net["a"]`}, modStrings(s.ModuleInstances())); d != "" {
		t.Fatalf("ModuleInstances (-want +got):\n%s", d)
	}

	// Deposing then removing the current object keeps the instance.
	key := s.DeposeResourceInstanceObject(b)
	if key == addrs.NotDeposed || s.ResourceInstance(b).Current != nil || s.ResourceInstanceObject(b, key) == nil {
		t.Fatalf("depose: key %q, instance %+v", key, s.ResourceInstance(b))
	}
	if again := s.DeposeResourceInstanceObject(b); again != addrs.NotDeposed {
		t.Fatalf("deposing an instance without a current object gave %q", again)
	}
	s.SetResourceInstanceDeposed(b, key, nil, nullProvider)
	if s.Module(child) != nil {
		t.Fatalf("emptied module was not pruned")
	}
	s.SetResourceInstanceCurrent(a0, nil, nullProvider)
	s.SetResourceInstanceCurrent(a1, nil, nullProvider)
	if !s.Empty() || s.Module(addrs.RootModuleInstance) == nil {
		t.Fatalf("want an empty state that keeps its root module, got %+v", s.Modules)
	}
}

func modStrings(ms []addrs.ModuleInstance) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.String())
	}
	return out
}

func TestOutputs(t *testing.T) {
	s := NewState()
	if !s.Empty() {
		t.Fatal("new state not empty")
	}
	addr := addrs.OutputValue{Name: "x"}.Absolute(addrs.RootModuleInstance)
	s.SetOutputValue(addr, cty.StringVal("v"), true)
	if s.Empty() || !s.RootOutputValues()["x"].Sensitive {
		t.Fatalf("output not recorded: %+v", s.RootOutputValues())
	}
	s.RemoveOutputValue(addr)
	if !s.Empty() {
		t.Fatal("output not removed")
	}
	childOut := addrs.OutputValue{Name: "y"}.Absolute(addrs.RootModuleInstance.Child("m", addrs.NoKey))
	s.SetOutputValue(childOut, cty.True, false)
	s.RemoveOutputValue(childOut)
	if len(s.Modules) != 1 {
		t.Fatalf("module with its only output removed was kept: %v", s.Modules)
	}
}

func TestEncodeDecodeSensitive(t *testing.T) {
	ty := cty.Object(map[string]cty.Type{"id": cty.String, "secret": cty.String, "tags": cty.Map(cty.String)})
	val := cty.ObjectVal(map[string]cty.Value{
		"id":     cty.StringVal("x"),
		"secret": cty.StringVal("hunter2").Mark(marks.Sensitive),
		"tags":   cty.MapVal(map[string]cty.Value{"k": cty.StringVal("v").Mark(marks.Sensitive)}),
	})
	dep := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "null_resource", Name: "z"}.InModule(nil)
	dep2 := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "null_resource", Name: "a"}.InModule(nil)
	o := &ResourceInstanceObject{Value: val, Private: []byte("p"), Dependencies: []addrs.ConfigResource{dep, dep2, dep}, CreateBeforeDestroy: true}
	src, err := o.Encode(ty, 3)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(src.AttrsJSON), `{"id":"x","secret":"hunter2","tags":{"k":"v"}}`; got != want {
		t.Fatalf("AttrsJSON = %s, want %s", got, want)
	}
	wantPaths := []cty.Path{cty.GetAttrPath("secret"), cty.GetAttrPath("tags").IndexString("k")}
	if d := cmp.Diff(wantPaths, src.AttrSensitivePaths, cmp.Comparer(cty.Path.Equals)); d != "" {
		t.Fatalf("sensitive paths (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"null_resource.a", "null_resource.z"}, depStrings(src.Dependencies)); d != "" {
		t.Fatalf("dependencies (-want +got):\n%s", d)
	}
	if src.Status != ObjectReady || src.SchemaVersion != 3 {
		t.Fatalf("status %v schema %d", src.Status, src.SchemaVersion)
	}
	back, err := src.Decode(ty)
	if err != nil {
		t.Fatal(err)
	}
	if !back.Value.RawEquals(val) || !marks.Has(back.Value.GetAttr("secret"), marks.Sensitive) || marks.Has(back.Value.GetAttr("id"), marks.Sensitive) {
		t.Fatalf("decoded value %#v lost its marks", back.Value)
	}
	if _, err := src.Decode(cty.Object(map[string]cty.Type{"id": cty.Number})); err == nil {
		t.Fatal("decoding with a mismatched type succeeded")
	}
	if _, err := (&ResourceInstanceObject{Value: cty.ObjectVal(map[string]cty.Value{"id": cty.UnknownVal(cty.String)})}).Encode(cty.Object(map[string]cty.Type{"id": cty.String}), 0); err == nil {
		t.Fatal("encoding an unknown value succeeded")
	}
}

func depStrings(ds []addrs.ConfigResource) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.String())
	}
	return out
}

func TestSnapshotAndDeepCopyIndependence(t *testing.T) {
	s := NewState()
	a := inst(nil, "null_resource", "a", addrs.NoKey)
	b := inst(nil, "null_resource", "b", addrs.NoKey)
	o := obj("a")
	s.SetResourceInstanceCurrent(a, o, nullProvider)

	snap := s.Snapshot()
	deep := s.DeepCopy()
	s.SetResourceInstanceCurrent(b, obj("b"), nullProvider)
	s.SetResourceInstanceCurrent(a, obj("a2"), nullProvider)

	if snap.ResourceInstance(b) != nil || deep.ResourceInstance(b) != nil {
		t.Fatal("a later set leaked into a copy")
	}
	if snap.ResourceInstance(a).Current != o {
		t.Fatal("Snapshot must share the immutable object")
	}
	if got := deep.ResourceInstance(a).Current; got == o || string(got.AttrsJSON) != `{"id":"a"}` {
		t.Fatalf("DeepCopy object = %p %s", got, got.AttrsJSON)
	}
}

func TestCachedEncoding(t *testing.T) {
	o := obj("a")
	calls := 0
	build := func(o *ResourceInstanceObjectSrc) ([]byte, error) {
		calls++
		return append([]byte("enc:"), o.AttrsJSON...), nil
	}
	for range 3 {
		if got, _ := o.CachedEncoding("f", build); string(got) != `enc:{"id":"a"}` {
			t.Fatalf("got %s", got)
		}
	}
	if calls != 1 {
		t.Fatalf("build called %d times for an unchanged object, want 1", calls)
	}
	c := o.DeepCopy()
	if got, _ := c.CachedEncoding("f", build); string(got) != `enc:{"id":"a"}` || calls != 1 {
		t.Fatalf("deep copy lost the cache: %s, %d builds", got, calls)
	}
	c.Status = ObjectTainted
	c.CachedEncoding("f", build)
	c.AttrsJSON = []byte(`{"id":"b"}`)
	got, _ := c.CachedEncoding("f", build)
	if string(got) != `enc:{"id":"b"}` || calls != 3 {
		t.Fatalf("changed object served from cache: %s after %d builds", got, calls)
	}
	if _, _ = o.CachedEncoding("other", build); calls != 4 {
		t.Fatalf("a different format must not share the cache")
	}
}

func TestSyncStateConcurrent(t *testing.T) {
	ss := NewState().SyncWrapper()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 50 {
				addr := inst(nil, "null_resource", "r", addrs.IntKey(i*50+j))
				ss.SetResourceInstanceCurrent(addr, obj("x"), nullProvider)
				if ss.ResourceInstanceObject(addr, addrs.NotDeposed) == nil {
					t.Errorf("%s missing right after set", addr)
				}
				_ = ss.Snapshot()
			}
		}()
	}
	wg.Wait()
	if n := len(ss.AllResourceInstances()); n != 400 {
		t.Fatalf("%d instances, want 400", n)
	}
	s := ss.Close()
	if n := len(s.AllResourceInstances()); n != 400 {
		t.Fatalf("closed state has %d instances", n)
	}
}

func TestNewLineage(t *testing.T) {
	a, b := NewLineage(), NewLineage()
	if len(a) != 36 || a == b {
		t.Fatalf("lineages %q %q", a, b)
	}
}
