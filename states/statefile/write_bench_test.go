package statefile

import (
	"fmt"
	"io"
	"testing"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/states"
	"github.com/zclconf/go-cty/cty"
)

func bigState(n int) *states.State {
	s := states.NewState()
	p := addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("null")}
	for i := range n {
		addr := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "null_resource", Name: "r"}.Instance(addrs.IntKey(i)).Absolute(nil)
		s.SetResourceInstanceCurrent(addr, &states.ResourceInstanceObjectSrc{
			AttrsJSON:          fmt.Appendf(nil, `{"id":"%d","triggers":{"name":"resource-%d","zone":"eu-west-1a"}}`, i, i),
			AttrSensitivePaths: []cty.Path{cty.GetAttrPath("triggers").IndexString("name")},
			Status:             states.ObjectReady,
		}, p)
	}
	return s
}

// BenchmarkWrite100k writes a 100,000-object state: "cold" re-encodes every
// object (fresh objects each time), "warm" serves them from the cache, as
// repeated persists during apply do.
func BenchmarkWrite100k(b *testing.B) {
	b.Run("cold", func(b *testing.B) {
		for range b.N {
			b.StopTimer()
			f := &File{Lineage: "l", State: bigState(100_000)}
			b.StartTimer()
			if err := Write(f, io.Discard); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("warm", func(b *testing.B) {
		f := &File{Lineage: "l", State: bigState(100_000)}
		if err := Write(f, io.Discard); err != nil {
			b.Fatal(err)
		}
		b.ResetTimer()
		for range b.N {
			if err := Write(f, io.Discard); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkWriteModules20k writes 20,000 single-instance resources spread
// over 100 nested module instances, warm: the resource sort and per-resource
// fields dominate, not the objects.
func BenchmarkWriteModules20k(b *testing.B) {
	s := states.NewState()
	p := addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("null")}
	for m := range 100 {
		mod := addrs.RootModuleInstance.Child("net", addrs.StringKey(fmt.Sprintf("m%d", m))).Child("sub", addrs.IntKey(m))
		for i := range 200 {
			addr := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "null_resource", Name: fmt.Sprintf("r%d", i)}.Instance(addrs.NoKey).Absolute(mod)
			s.SetResourceInstanceCurrent(addr, &states.ResourceInstanceObjectSrc{AttrsJSON: []byte(`{"id":"x"}`)}, p)
		}
	}
	f := &File{Lineage: "l", State: s}
	if err := Write(f, io.Discard); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if err := Write(f, io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}
