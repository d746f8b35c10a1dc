package jsonplan

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/plankit/plankit/plans"
)

// The benchmarks below hold each of this package's second paths against
// the general one on n creates (manyPlan), in the same run.

// BenchmarkEncoderVsEncodingJSON encodes the resource_changes entries of
// n creates, made beforehand, with this package's encoder and with
// encoding/json (which writes the same bytes, TestEncoderMatchesEncodingJSON).
// Run: go test -run '^$' -bench EncoderVsEncodingJSON -benchmem ./jsonplan/
func BenchmarkEncoderVsEncodingJSON(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		p := manyPlan(n)
		entries, err := marshalResourceChanges(plans.SortedResourceChanges(p.Changes.Resources), p.ProviderSchemas)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("%d/encoder", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				e := &encoder{}
				if err := e.encode(entries); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("%d/encoding-json", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := json.Marshal(entries); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkWriteVsMarshal is show -json of n creates written as it is
// made (Write) and made whole first, then written (Marshal).
// Run: go test -run '^$' -bench WriteVsMarshal -benchmem ./jsonplan/
func BenchmarkWriteVsMarshal(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		p := manyPlan(n)
		b.Run(fmt.Sprintf("%d/write", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := Write(&countWriter{}, p, Options{Version: "bench"}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("%d/marshal", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				out, err := Marshal(p, Options{Version: "bench"})
				if err != nil {
					b.Fatal(err)
				}
				(&countWriter{}).Write(out)
			}
		})
	}
}
