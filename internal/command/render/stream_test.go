package render

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/plans"
)

// writeLog records each Write; failAfter > 0 makes write number failAfter
// fail.
type writeLog struct {
	buf       bytes.Buffer
	writes    []int
	failAfter int
}

func (w *writeLog) Write(p []byte) (int, error) {
	w.writes = append(w.writes, len(p))
	if w.failAfter > 0 && len(w.writes) == w.failAfter {
		return 0, errors.New("disk full")
	}
	return w.buf.Write(p)
}

func manyCreates(n int) *plans.Plan {
	null := cty.NullVal(thingType())
	rcs := make([]*plans.ResourceInstanceChange, n)
	for i := range rcs {
		rcs[i] = change(inst("test_thing", fmt.Sprintf("r%d", i), nil), plans.Create, null,
			thing(map[string]cty.Value{"name": cty.StringVal(fmt.Sprintf("v%d", i))}))
	}
	return planWith(rcs, nil)
}

// TestPlanStreams: a large plan's header goes out before any resource is
// rendered and the rest in bounded pieces, and the streamed text is the
// same as one resource at a time gives.
func TestPlanStreams(t *testing.T) {
	p := manyCreates(3000)
	var w writeLog
	if err := Plan(&w, p, false); err != nil {
		t.Fatal(err)
	}
	if len(w.writes) < 3 {
		t.Fatalf("%d writes of %v bytes, want the header first and then pieces", len(w.writes), w.writes)
	}
	first := w.buf.String()[:w.writes[0]]
	if !strings.HasSuffix(first, "will perform the following actions:\n\n") {
		t.Errorf("first write is not the header alone:\n%s", first)
	}
	for i, n := range w.writes {
		if n > 2*planFlushSize {
			t.Errorf("write %d is %d bytes, more than twice the flush size", i, n)
		}
	}
	out := w.buf.String()
	for _, want := range []string{"# test_thing.r0 will be created", "# test_thing.r2999 will be created", "Plan: 3000 to add, 0 to change, 0 to destroy."} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
}

// TestPlanWriteError: a failing write stops the rendering and is returned.
func TestPlanWriteError(t *testing.T) {
	w := writeLog{failAfter: 2}
	err := Plan(&w, manyCreates(3000), false)
	if err == nil || err.Error() != "disk full" {
		t.Fatalf("err = %v, want disk full", err)
	}
	if len(w.writes) != 2 {
		t.Errorf("%d writes after the failure, want it to stop at 2", len(w.writes))
	}
}

// BenchmarkPlanRender renders the human plan of 100,000 creates to a
// discarding writer. Run: go test -run '^$' -bench PlanRender ./command/render/
func BenchmarkPlanRender(b *testing.B) {
	p := manyCreates(100000)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if err := Plan(discard{}, p, false); err != nil {
			b.Fatal(err)
		}
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
