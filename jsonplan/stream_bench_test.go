package jsonplan

import (
	"io"
	"strconv"
	"testing"
)

// BenchmarkWrite is show -json of a plan of n terraform_data-like
// creates (manyPlan) written to io.Discard: the rendering part of
// `plan show -json`, without reading the archive or the configuration.
// Run: go test -run '^$' -bench Write -benchmem ./jsonplan/
func BenchmarkWrite(b *testing.B) {
	for _, n := range []int{4000} {
		p := manyPlan(n)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			var size int64
			for range b.N {
				w := &countWriter{}
				if err := Write(w, p, Options{Version: "bench"}); err != nil {
					b.Fatal(err)
				}
				size = w.n
			}
			b.ReportMetric(float64(size), "out-bytes/op")
		})
	}
}

type countWriter struct{ n int64 }

func (w *countWriter) Write(p []byte) (int, error) {
	w.n += int64(len(p))
	return io.Discard.Write(p)
}
