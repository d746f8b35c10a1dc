package dag

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
)

// watchdog fails the test if done is not closed in time; it only detects
// a hang, it never orders events.
func watchdog(t *testing.T, done <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatalf("%s did not return", what)
	}
}

func errDiags(summary string) hcl.Diagnostics {
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: summary}}
}

// recordPeak raises peak to n if n is higher.
func recordPeak(peak *atomic.Int64, n int64) {
	for {
		m := peak.Load()
		if n <= m || peak.CompareAndSwap(m, n) {
			return
		}
	}
}

// TestWalkParallelismBound proves the bound is reached and never exceeded:
// the first P callbacks wait until P are in flight at once, and every
// callback checks the in-flight count.
func TestWalkParallelismBound(t *testing.T) {
	for _, p := range []int{1, 3, 10} {
		t.Run(fmt.Sprint(p), func(t *testing.T) {
			g := randomGraph(rand.New(rand.NewPCG(7, uint64(p))), 300, 0.003, true)
			var inflight, peak, started atomic.Int64
			allIn := make(chan struct{})
			var once sync.Once
			res := Walk(context.Background(), g, WalkOptions{Parallelism: p}, func(ctx context.Context, v int) hcl.Diagnostics {
				n := inflight.Add(1)
				recordPeak(&peak, n)
				if n == int64(p) {
					once.Do(func() { close(allIn) })
				}
				if started.Add(1) <= int64(p) {
					<-allIn // the graph has more than p roots
				}
				inflight.Add(-1)
				return nil
			})
			if res.Failed() {
				t.Fatalf("walk failed: %v", res.Diagnostics())
			}
			if got := peak.Load(); got != int64(p) {
				t.Fatalf("peak in flight %d, want exactly %d", got, p)
			}
			if got := started.Load(); got != int64(g.Len()) {
				t.Fatalf("%d callbacks for %d vertices", got, g.Len())
			}
		})
	}
}

func TestWalkDefaultParallelism(t *testing.T) {
	g := New[int](nil)
	for i := range 50 {
		g.Add(i)
	}
	var inflight, peak atomic.Int64
	allIn := make(chan struct{})
	var once sync.Once
	Walk(context.Background(), g, WalkOptions{}, func(ctx context.Context, v int) hcl.Diagnostics {
		n := inflight.Add(1)
		recordPeak(&peak, n)
		if n > DefaultParallelism {
			t.Errorf("%d in flight", n)
		}
		if n == DefaultParallelism {
			once.Do(func() { close(allIn) })
		}
		<-allIn
		inflight.Add(-1)
		return nil
	})
	if peak.Load() != DefaultParallelism {
		t.Fatalf("peak %d, want %d", peak.Load(), DefaultParallelism)
	}
}

// TestWalkOrder checks that no vertex starts before everything it waits
// for has finished, forward and reverse, on random DAGs.
func TestWalkOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for i := range 20 {
		g := randomGraph(r, 60, 0.05, true)
		for _, reverse := range []bool{false, true} {
			var mu sync.Mutex
			ended := map[int]bool{}
			var calls int
			res := Walk(context.Background(), g, WalkOptions{Parallelism: 4, Reverse: reverse}, func(ctx context.Context, v int) hcl.Diagnostics {
				mu.Lock()
				calls++
				before := g.DownEdges(v)
				if reverse {
					before = g.UpEdges(v)
				}
				for _, b := range before {
					if !ended[b] {
						t.Errorf("graph %d reverse=%v: %d started before %d ended", i, reverse, v, b)
					}
				}
				mu.Unlock()
				mu.Lock()
				ended[v] = true
				mu.Unlock()
				return nil
			})
			if res.Failed() || calls != g.Len() {
				t.Fatalf("failed=%v calls=%d of %d", res.Failed(), calls, g.Len())
			}
		}
	}
}

// TestWalkSequentialFollowsTopologicalOrder: with parallelism 1 the walk
// is deterministic and follows (Reverse)TopologicalOrder, which is also
// the order of Vertices and Diagnostics.
func TestWalkSequentialFollowsTopologicalOrder(t *testing.T) {
	g := randomGraph(rand.New(rand.NewPCG(5, 6)), 40, 0.1, true)
	for _, reverse := range []bool{false, true} {
		var calls []int
		res := Walk(context.Background(), g, WalkOptions{Parallelism: 1, Reverse: reverse}, func(ctx context.Context, v int) hcl.Diagnostics {
			calls = append(calls, v)
			return hcl.Diagnostics{{Severity: hcl.DiagWarning, Summary: fmt.Sprint(v)}}
		})
		want, _ := g.TopologicalOrder()
		if reverse {
			want, _ = g.ReverseTopologicalOrder()
		}
		if diff := cmp.Diff(want, calls); diff != "" {
			t.Fatalf("reverse=%v call order (-want +got):\n%s", reverse, diff)
		}
		if diff := cmp.Diff(want, res.Vertices()); diff != "" {
			t.Fatalf("reverse=%v Vertices (-want +got):\n%s", reverse, diff)
		}
		var summaries []int
		for _, d := range res.Diagnostics() {
			var v int
			fmt.Sscan(d.Summary, &v)
			summaries = append(summaries, v)
		}
		if diff := cmp.Diff(want, summaries); diff != "" {
			t.Fatalf("reverse=%v warnings order (-want +got):\n%s", reverse, diff)
		}
		if res.Failed() {
			t.Fatal("warnings made the walk fail")
		}
	}
}

// TestWalkFailurePropagation fails random vertices and checks against
// brute force that exactly their transitive dependents (or dependencies,
// reversed) are not run, each naming the earliest-inserted failure above
// it, and that every other vertex runs and succeeds.
func TestWalkFailurePropagation(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for i := range 30 {
		g := randomGraph(r, 50, 0.06, true)
		g.Name = func(v int) string { return fmt.Sprintf("v%d", v) }
		failing := map[int]bool{}
		for _, v := range g.Vertices() {
			if r.IntN(8) == 0 {
				failing[v] = true
			}
		}
		for _, reverse := range []bool{false, true} {
			upstream := g.Ancestors
			if reverse {
				upstream = g.Descendants
			}
			var ran sync.Map
			res := Walk(context.Background(), g, WalkOptions{Parallelism: 3, Reverse: reverse}, func(ctx context.Context, v int) hcl.Diagnostics {
				ran.Store(v, true)
				if failing[v] {
					return append(errDiags("boom"), &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "kept"})
				}
				return nil
			})
			pos := map[int]int{}
			for j, v := range g.Vertices() {
				pos[v] = j
			}
			for _, v := range g.Vertices() {
				// Failed vertices that ran, upstream of v.
				var causes []int
				for _, u := range upstream(v) {
					if failing[u] && !slices.ContainsFunc(upstream(u), func(x int) bool { return failing[x] }) {
						causes = append(causes, u)
					}
				}
				got, _ := res.Result(v)
				_, didRun := ran.Load(v)
				switch {
				case len(causes) > 0:
					first := slices.MinFunc(causes, func(a, b int) int { return pos[a] - pos[b] })
					if got.Status != StatusUpstreamFailed || didRun || got.FailedDependency != first {
						t.Fatalf("graph %d reverse=%v vertex %d: status %v ran %v blamed %d, want upstream failed blaming %d",
							i, reverse, v, got.Status, didRun, got.FailedDependency, first)
					}
					if !got.Diagnostics.HasErrors() || !strings.Contains(got.Diagnostics[0].Detail, fmt.Sprintf("because v%d,", first)) {
						t.Fatalf("vertex %d: diagnostic %q does not name v%d", v, got.Diagnostics[0].Detail, first)
					}
				case failing[v]:
					if got.Status != StatusFailed || !didRun || len(got.Diagnostics) != 2 {
						t.Fatalf("vertex %d: status %v ran %v diags %v, want failed with its two diagnostics", v, got.Status, didRun, got.Diagnostics)
					}
				default:
					if got.Status != StatusSucceeded || !didRun {
						t.Fatalf("vertex %d: status %v ran %v, want succeeded", v, got.Status, didRun)
					}
				}
			}
			if len(failing) > 0 != res.Failed() {
				t.Fatalf("Failed() = %v with %d failing", res.Failed(), len(failing))
			}
			for _, d := range res.Diagnostics() {
				if d.Summary == "Upstream failed" {
					t.Fatal("Diagnostics() includes upstream-failed diagnostics")
				}
			}
		}
	}
}

// TestWalkChainFailure: a failure at the bottom of a long chain settles
// the whole chain iteratively.
func TestWalkChainFailure(t *testing.T) {
	g := chain(100000)
	res := Walk(context.Background(), g, WalkOptions{}, func(ctx context.Context, v int) hcl.Diagnostics {
		if v == 100000-1 {
			return errDiags("bottom")
		}
		t.Errorf("vertex %d ran", v)
		return nil
	})
	if r, _ := res.Result(0); r.Status != StatusUpstreamFailed || r.FailedDependency != 100000-1 {
		t.Fatalf("top of chain: %+v", r)
	}
}

// TestWalkCancel cancels the context while callbacks are blocked: Walk
// returns without them being released otherwise, starts nothing more,
// and marks every vertex not started as cancelled.
func TestWalkCancel(t *testing.T) {
	g := New[string](nil)
	// a and b are roots of two chains; c waits for a, d for b.
	g.Connect("c", "a")
	g.Connect("d", "b")
	g.Connect("e", "c")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	inside := make(chan string, 4)
	var afterCancel atomic.Int64
	var cancelled atomic.Bool
	done := make(chan struct{})
	var res *WalkResult[string]
	go func() {
		defer close(done)
		res = Walk(ctx, g, WalkOptions{Parallelism: 2}, func(ctx context.Context, v string) hcl.Diagnostics {
			if cancelled.Load() {
				afterCancel.Add(1)
			}
			inside <- v
			<-ctx.Done() // never released any other way
			return errDiags("interrupted " + v)
		})
	}()
	got := []string{<-inside, <-inside}
	slices.Sort(got)
	if diff := cmp.Diff([]string{"a", "b"}, got); diff != "" {
		t.Fatalf("first callbacks (-want +got):\n%s", diff)
	}
	cancelled.Store(true)
	cancel()
	watchdog(t, done, "Walk after cancel")
	if n := afterCancel.Load(); n != 0 {
		t.Fatalf("%d callbacks started after cancel", n)
	}
	want := map[string]Status{"a": StatusFailed, "b": StatusFailed, "c": StatusCancelled, "d": StatusCancelled, "e": StatusCancelled}
	for v, st := range want {
		if got := res.Status(v); got != st {
			t.Errorf("%s: %v, want %v", v, got, st)
		}
	}
	if !res.Cancelled() || !res.Failed() {
		t.Fatal("result does not report the cancellation")
	}
}

// TestWalkCancelledBefore: a context cancelled before the walk runs
// nothing.
func TestWalkCancelledBefore(t *testing.T) {
	g := chain(5)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := Walk(ctx, g, WalkOptions{}, func(ctx context.Context, v int) hcl.Diagnostics {
		t.Errorf("%d ran", v)
		return nil
	})
	for _, v := range g.Vertices() {
		if res.Status(v) != StatusCancelled {
			t.Fatalf("%d: %v", v, res.Status(v))
		}
	}
	if len(res.Diagnostics()) != 0 {
		t.Fatalf("diagnostics %v", res.Diagnostics())
	}
}

// TestWalkNested runs a walk from inside callbacks of another, as the
// core does for count/for_each expansion, with parallelism 1 outside so
// the only worker is busy in the nested walk.
func TestWalkNested(t *testing.T) {
	outer := New[string](nil)
	outer.Connect("b", "a")
	outer.Connect("c", "a")
	var mu sync.Mutex
	var log []string
	res := Walk(context.Background(), outer, WalkOptions{Parallelism: 1}, func(ctx context.Context, v string) hcl.Diagnostics {
		inner := New[string](nil)
		inner.Connect(v+"[1]", v+"[0]")
		r := Walk(ctx, inner, WalkOptions{Parallelism: 2}, func(ctx context.Context, w string) hcl.Diagnostics {
			mu.Lock()
			log = append(log, w)
			mu.Unlock()
			return nil
		})
		return r.Diagnostics()
	})
	if res.Failed() {
		t.Fatal(res.Diagnostics())
	}
	want := []string{"a[0]", "a[1]", "b[0]", "b[1]", "c[0]", "c[1]"}
	if diff := cmp.Diff(want, log); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
}

// TestWalkCycle: vertices held back by a cycle fail, the rest runs.
func TestWalkCycle(t *testing.T) {
	g := New[string](nil)
	g.Connect("a", "b")
	g.Connect("b", "a")
	g.Connect("c", "a")
	g.Add("d")
	res := Walk(context.Background(), g, WalkOptions{}, func(ctx context.Context, v string) hcl.Diagnostics { return nil })
	got := map[string]Status{}
	for _, v := range g.Vertices() {
		got[v] = res.Status(v)
	}
	want := map[string]Status{"a": StatusFailed, "b": StatusFailed, "c": StatusFailed, "d": StatusSucceeded}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	if !res.Diagnostics().HasErrors() {
		t.Fatal("no cycle diagnostic")
	}
}

func TestWalkEmptyAndUnknown(t *testing.T) {
	res := Walk(context.Background(), New[int](nil), WalkOptions{}, func(ctx context.Context, v int) hcl.Diagnostics {
		t.Fatal("called")
		return nil
	})
	if res.Len() != 0 || res.Failed() || res.Status(1) != 0 {
		t.Fatal("empty walk")
	}
	if _, ok := res.Result(1); ok {
		t.Fatal("unknown vertex has a result")
	}
	if Status(0).String() != "not walked" || StatusUpstreamFailed.String() != "upstream failed" {
		t.Fatal("Status.String")
	}
}

// TestWalkSnapshot: changing the graph from a callback does not change the
// running walk.
func TestWalkSnapshot(t *testing.T) {
	g := chain(3)
	var calls []int
	Walk(context.Background(), g, WalkOptions{Parallelism: 1}, func(ctx context.Context, v int) hcl.Diagnostics {
		calls = append(calls, v)
		g.Remove(0)
		g.Connect(7, 8)
		return nil
	})
	if diff := cmp.Diff([]int{2, 1, 0}, calls); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
}
