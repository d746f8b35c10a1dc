package statefile

import (
	"bytes"
	"fmt"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/states"
)

// TestAppendInstanceFileMatchesWrite: AppendInstanceFile gives exactly the
// bytes Write gives for a state built to hold only one instance's objects
// (what the state journal wrote before it), for every instance of varied
// states (modules, keys, deposed and tainted objects, odd names, provider
// aliases and per-instance provider keys, which such a state never kept),
// after whatever dst already held; and for an instance with no objects.
func TestAppendInstanceFileMatchesWrite(t *testing.T) {
	n := 0
	for seed := range uint64(300) {
		s := randomFile(seed).State
		for _, r := range s.AllResources() {
			for key, ri := range r.Instances {
				addr := r.Addr.Instance(key)
				mini := states.NewState()
				if ri.Current != nil {
					mini.SetResourceInstanceCurrent(addr, ri.Current, r.ProviderConfig)
				}
				for dk, obj := range ri.Deposed {
					mini.SetResourceInstanceDeposed(addr, dk, obj, r.ProviderConfig)
				}
				if ri.ProviderKey != nil {
					mini.SetResourceInstanceProviderKey(addr, ri.ProviderKey)
				}
				var want bytes.Buffer
				want.WriteString("prefix")
				if err := Write(&File{State: mini}, &want); err != nil {
					t.Fatalf("seed %d, %s: Write: %s", seed, addr, err)
				}
				got, err := AppendInstanceFile([]byte("prefix"), addr, r.ProviderConfig, ri.ProviderKey, ri.Current, ri.Deposed)
				if err != nil {
					t.Fatalf("seed %d, %s: %s", seed, addr, err)
				}
				if d := cmp.Diff(want.String(), string(got)); d != "" {
					t.Fatalf("seed %d, %s: (-Write +AppendInstanceFile):\n%s", seed, addr, d)
				}
				n++
			}
		}
	}
	if n < 1000 {
		t.Fatalf("only %d instances compared", n)
	}

	addr := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: "gone"}.Instance(addrs.IntKey(1)).Absolute(addrs.RootModuleInstance)
	var want bytes.Buffer
	if err := Write(&File{State: states.NewState()}, &want); err != nil {
		t.Fatal(err)
	}
	got, err := AppendInstanceFile(nil, addr, addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}, nil, nil,
		map[addrs.DeposedKey]*states.ResourceInstanceObjectSrc{"00000001": nil})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want.String(), string(got)); d != "" {
		t.Fatalf("no objects: (-Write +AppendInstanceFile):\n%s", d)
	}
}

// TestAppendInstanceFileLarge: an instance whose encoding passes the
// writer's flush size (an object depending on thousands of resources, as
// one deep in a chain records them) is appended whole, as Write writes
// it, and reads back.
func TestAppendInstanceFileLarge(t *testing.T) {
	addr := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: "last"}.Instance(addrs.NoKey).Absolute(addrs.RootModuleInstance)
	pc := addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}
	obj := &states.ResourceInstanceObjectSrc{AttrsJSON: []byte(`{"id":"x"}`), Status: states.ObjectReady}
	for i := range 4000 {
		obj.Dependencies = append(obj.Dependencies, addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: "r" + string(rune('a'+i%26)) + strconv.Itoa(i)}.InModule(addrs.RootModule))
	}
	obj.Dependencies = states.SortedDependencies(obj.Dependencies)
	mini := states.NewState()
	mini.SetResourceInstanceCurrent(addr, obj, pc)
	var want bytes.Buffer
	if err := Write(&File{State: mini}, &want); err != nil {
		t.Fatal(err)
	}
	if want.Len() < 2*flushAt {
		t.Fatalf("the file is %d bytes, not past the flush size", want.Len())
	}
	got, err := AppendInstanceFile(nil, addr, pc, nil, obj, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want.String(), string(got)); d != "" {
		t.Fatalf("(-Write +AppendInstanceFile):\n%s", d)
	}
	f, err := Read(bytes.NewReader(got))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(obj.Dependencies, f.State.ResourceInstance(addr).Current.Dependencies); d != "" {
		t.Errorf("dependencies read back (-want +got):\n%s", d)
	}
}

// TestEncodeTailDependenciesInPlace: an object's dependencies (in a
// chain, every resource before it: O(n²) in a state) are printed into the
// encoding, not built as strings first.
func TestEncodeTailDependenciesInPlace(t *testing.T) {
	obj := &states.ResourceInstanceObjectSrc{AttrsJSON: []byte(`{"id":"1"}`), Status: states.ObjectReady}
	for i := range 1000 {
		obj.Dependencies = append(obj.Dependencies, addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "null_resource", Name: fmt.Sprintf("r%04d", i)}.InModule(nil))
	}
	if _, err := encodeTail(obj); err != nil { // warms the buffer pool
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(10, func() {
		if _, err := encodeTail(obj); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 20 {
		t.Errorf("encoding an object with 1,000 dependencies made %.0f allocations, want at most 20", allocs)
	}
}
