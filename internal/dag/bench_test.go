package dag

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// layered returns layers×width vertices, each depending on fanout random
// vertices of the layer below (fixed seed), plus skip random vertices two
// layers below (edges that transitive reduction may remove).
func layered(layers, width, fanout, skip int) *Graph[int] {
	r := rand.New(rand.NewPCG(42, 42))
	g := New[int](nil)
	for v := range layers * width {
		g.Add(v)
	}
	for l := 1; l < layers; l++ {
		for i := range width {
			v := l*width + i
			for range fanout {
				g.Connect(v, (l-1)*width+r.IntN(width))
			}
			if l >= 2 {
				for range skip {
					g.Connect(v, (l-2)*width+r.IntN(width))
				}
			}
		}
	}
	return g
}

var benchGraphs = []struct {
	name string
	make func() *Graph[int]
}{
	{"chain100k", func() *Graph[int] { return chain(100_000) }},
	{"layered100x1000", func() *Graph[int] { return layered(100, 1000, 10, 0) }},
	{"layered100x1000skip", func() *Graph[int] { return layered(100, 1000, 10, 2) }},
}

func BenchmarkValidate(b *testing.B) {
	for _, bg := range benchGraphs {
		g := bg.make()
		b.Run(bg.name, func(b *testing.B) {
			for b.Loop() {
				if err := g.Validate(ValidateOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkTopologicalOrder(b *testing.B) {
	for _, bg := range benchGraphs {
		g := bg.make()
		b.Run(bg.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := g.TopologicalOrder(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkTransitiveReduction(b *testing.B) {
	for _, bg := range benchGraphs {
		g := bg.make()
		b.Run(bg.name, func(b *testing.B) {
			var removed int
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				c := g.Copy()
				b.StartTimer()
				if err := c.TransitiveReduction(); err != nil {
					b.Fatal(err)
				}
				removed = g.EdgeCount() - c.EdgeCount()
			}
			b.ReportMetric(float64(g.EdgeCount()), "edges")
			b.ReportMetric(float64(removed), "removed")
		})
	}
}

func BenchmarkWalkNoop(b *testing.B) {
	noop := func(context.Context, int) hcl.Diagnostics { return nil }
	for _, bg := range benchGraphs[:2] {
		g := bg.make()
		for _, p := range []int{1, 10} {
			b.Run(bg.name+"/p"+map[int]string{1: "1", 10: "10"}[p], func(b *testing.B) {
				for b.Loop() {
					if res := Walk(context.Background(), g, WalkOptions{Parallelism: p}, noop); res.Failed() {
						b.Fatal("failed")
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(g.Len()), "ns/vertex")
			})
		}
	}
}

func BenchmarkDot(b *testing.B) {
	g := layered(10, 1000, 5, 0)
	b.ReportAllocs()
	for b.Loop() {
		_ = g.Dot(DotOptions[int]{})
	}
}
