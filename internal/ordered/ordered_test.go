package ordered

import (
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
)

func TestBatchesInOrder(t *testing.T) {
	for _, c := range []struct{ n, size, workers int }{
		{0, 4, 2}, {1, 4, 2}, {10, 3, 1}, {1000, 7, 4}, {1000, 1, 8}, {17, 100, 3},
	} {
		t.Run(fmt.Sprint(c), func(t *testing.T) {
			var got []int
			err := Batches(c.n, c.size, c.workers,
				func(lo, hi int) []int {
					out := make([]int, 0, hi-lo)
					for i := lo; i < hi; i++ {
						out = append(out, i*i)
					}
					return out
				},
				func(r []int) error { got = append(got, r...); return nil })
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != c.n {
				t.Fatalf("%d results, want %d", len(got), c.n)
			}
			for i, v := range got {
				if v != i*i {
					t.Fatalf("result %d = %d, want %d: out of order", i, v, i*i)
				}
			}
		})
	}
}

func TestBatchesStopsAtUseError(t *testing.T) {
	boom := errors.New("boom")
	uses := 0
	err := Batches(1_000_000, 10, 2, func(lo, hi int) int { return lo },
		func(lo int) error {
			uses++
			if lo == 50 {
				return boom
			}
			return nil
		})
	if !errors.Is(err, boom) || uses != 6 {
		t.Fatalf("err = %v after %d uses, want boom after 6", err, uses)
	}
}

func TestBatchesRaisesPanicInCaller(t *testing.T) {
	defer func() {
		r := recover()
		if s, _ := r.(string); !strings.Contains(s, "bad batch 30") {
			t.Fatalf("recovered %v, want the work's panic", r)
		}
	}()
	_ = Batches(100, 10, 3, func(lo, hi int) int {
		if lo == 30 {
			panic(fmt.Sprintf("bad batch %d", lo))
		}
		return lo
	}, func(int) error { return nil })
	t.Fatal("Batches returned after a panic in work")
}

// After Batches returns (here with use's error), no work is running or
// starts: the caller may change what the work reads.
func TestBatchesNoWorkAfterReturn(t *testing.T) {
	boom := errors.New("boom")
	var running atomic.Int64
	sink := 0
	err := Batches(10_000, 1, 4, func(lo, hi int) int {
		running.Add(1)
		defer running.Add(-1)
		x := 0
		for i := range 200_000 {
			x += i ^ lo
		}
		return x
	}, func(x int) error { sink += x; return boom })
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
	if n := running.Load(); n != 0 {
		t.Fatalf("%d batches still running after Batches returned", n)
	}
}
