package planfile

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/plankit/plankit/plans/planstest"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/states/statefile"
)

const benchChanges = 100_000

func benchArgs(b *testing.B, n int) *CreateArgs {
	st := states.NewState()
	return &CreateArgs{
		Plan:                 planstest.LargePlan(n),
		StateFile:            &statefile.File{Lineage: "l", Serial: 1, State: st},
		PreviousRunStateFile: &statefile.File{Lineage: "l", Serial: 1, State: st},
		ConfigSnapshot:       testSnapshot(b),
		DependencyLocks:      testLocks(),
	}
}

// BenchmarkWrite100k writes a plan of 100,000 creates to disk; it reports
// the archive size and the bytes per change.
func BenchmarkWrite100k(b *testing.B) {
	args := benchArgs(b, benchChanges)
	path := filepath.Join(b.TempDir(), "big.tfplan")
	b.ResetTimer()
	for b.Loop() {
		if err := Write(path, args); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	var buf bytes.Buffer
	if err := WriteTo(&buf, args); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(buf.Len()), "archive-bytes")
	b.ReportMetric(float64(buf.Len())/benchChanges, "bytes/change")
}

// BenchmarkOpen100k opens that archive and decodes the plan (ReadPlan,
// which also reads both state files): what apply and show pay.
func BenchmarkOpen100k(b *testing.B) {
	path := filepath.Join(b.TempDir(), "big.tfplan")
	if err := Write(path, benchArgs(b, benchChanges)); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		r, err := Open(path)
		if err != nil {
			b.Fatal(err)
		}
		p, err := r.ReadPlan()
		if err != nil {
			b.Fatal(err)
		}
		if len(p.Changes.Resources) != benchChanges {
			b.Fatalf("got %d changes", len(p.Changes.Resources))
		}
		r.Close()
	}
}

// BenchmarkWrite4k is the plan size OpenTofu's 94 KB figure is for.
func BenchmarkWrite4k(b *testing.B) {
	args := benchArgs(b, 4000)
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		if err := WriteTo(&buf, args); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "archive-bytes")
}
