package plans

import (
	"fmt"
	"math"
	"runtime"
	"testing"

	"github.com/plankit/plankit/addrs"
)

// withProcs runs f with GOMAXPROCS set to n, so the parallel path runs
// whatever the machine.
func withProcs(n int, f func()) {
	old := runtime.GOMAXPROCS(n)
	defer runtime.GOMAXPROCS(old)
	f()
}

// TestDecodeEachIsALoop: decodeEach visits every index once, in chunks
// on several goroutines for large n, and reports what a loop would: the
// error of the lowest failing index, and a panic raised again.
func TestDecodeEachIsALoop(t *testing.T) {
	withProcs(4, func() {
		for _, n := range []int{0, 5, parallelDecodeMin - 1, parallelDecodeMin, 3*parallelDecodeMin + 7} {
			seen := make([]int, n)
			d := &decoder{providers: map[string]addrs.Provider{}}
			if err := d.decodeEach(n, func(d *decoder, i int) error { seen[i]++; return nil }); err != nil {
				t.Fatal(err)
			}
			for i, c := range seen {
				if c != 1 {
					t.Fatalf("n=%d: index %d visited %d times", n, i, c)
				}
			}
		}
		n := 4 * parallelDecodeMin
		for _, bad := range [][]int{{7}, {n - 1}, {parallelDecodeMin + 3, 3 * parallelDecodeMin}, {5, 6, n - 2}} {
			failing := map[int]bool{}
			for _, i := range bad {
				failing[i] = true
			}
			err := (&decoder{}).decodeEach(n, func(d *decoder, i int) error {
				if failing[i] {
					return fmt.Errorf("index %d", i)
				}
				return nil
			})
			if want := fmt.Sprintf("index %d", bad[0]); err == nil || err.Error() != want {
				t.Errorf("failing %v: err %v, want %s", bad, err, want)
			}
		}
		defer func() {
			if r := recover(); r != "boom" {
				t.Errorf("recovered %v, want the chunk's panic", r)
			}
		}()
		_ = (&decoder{}).decodeEach(n, func(d *decoder, i int) error {
			if i == n-3 {
				panic("boom")
			}
			return nil
		})
		t.Errorf("no panic")
	})
}

// BenchmarkUnmarshalParallel decodes a plan of n changes (variedChanges)
// with the values decoded on every core and in one loop.
// Run: go test -run '^$' -bench UnmarshalParallel -benchmem ./plans/
func BenchmarkUnmarshalParallel(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		enc, err := Marshal(&Plan{UIMode: NormalMode, Changes: &Changes{Resources: variedChanges(n)}}, "")
		if err != nil {
			b.Fatal(err)
		}
		for _, mode := range []struct {
			name string
			min  int
		}{{"parallel", parallelDecodeMin}, {"loop", math.MaxInt}} {
			b.Run(fmt.Sprintf("%d/%s", n, mode.name), func(b *testing.B) {
				saved := parallelDecodeMin
				parallelDecodeMin = mode.min
				defer func() { parallelDecodeMin = saved }()
				b.ReportAllocs()
				for b.Loop() {
					if _, _, err := Unmarshal(enc); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
