package statefile

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/states"
)

// independentState is n single-instance resources, as n independent
// terraform_data blocks leave them: one resource per object, so the
// per-resource work (sorting, the resource's own fields, snapshot maps)
// counts as much as the objects.
func independentState(n int) *states.State {
	s := states.NewState()
	p := addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}
	for i := range n {
		addr := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: fmt.Sprintf("r%d", i)}.Instance(addrs.NoKey).Absolute(nil)
		s.SetResourceInstanceCurrent(addr, &states.ResourceInstanceObjectSrc{
			AttrsJSON: fmt.Appendf(nil, `{"id":"%08x-4682-1b13-8491-64703bc91ce1","input":{"value":"v%d","type":"string"},"output":{"value":"v%d","type":"string"},"triggers_replace":null}`, i, i, i),
			Status:    states.ObjectReady,
		}, p)
	}
	return s
}

// BenchmarkWriteResources100k writes 100,000 single-instance resources:
// "cold" encodes every object (fresh objects each time, as the first write
// of a read state), "warm" serves them from the cache (the persister's
// repeated writes during apply).
func BenchmarkWriteResources100k(b *testing.B) { benchWriteResources(b, Write) }

// benchWriteResources is BenchmarkWriteResources100k with the writer
// given.
func benchWriteResources(b *testing.B, write func(*File, io.Writer) error) {
	b.Run("cold", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			b.StopTimer()
			f := &File{Lineage: "l", State: independentState(100_000)}
			b.StartTimer()
			if err := write(f, io.Discard); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("warm", func(b *testing.B) {
		f := &File{Lineage: "l", State: independentState(100_000)}
		if err := write(f, io.Discard); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		b.ResetTimer()
		for range b.N {
			if err := write(f, io.Discard); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkReadResources100k reads the file BenchmarkWriteResources100k
// writes.
func BenchmarkReadResources100k(b *testing.B) {
	var buf bytes.Buffer
	if err := Write(&File{Lineage: "l", State: independentState(100_000)}, &buf); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := Read(bytes.NewReader(buf.Bytes())); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWriteResources100kReference is BenchmarkWriteResources100k with
// the previous, reflection-based writer (write_reference_test.go): an A/B
// in one run.
func BenchmarkWriteResources100kReference(b *testing.B) { benchWriteResources(b, refWrite) }
