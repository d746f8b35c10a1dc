package plans_test

import (
	"testing"

	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/plans/planstest"
)

// BenchmarkMarshal10k encodes a plan of 10,000 resource changes: the
// per-value cost that plan -out pays.
func BenchmarkMarshal10k(b *testing.B) {
	p := planstest.LargePlan(10000)
	for b.Loop() {
		if _, err := plans.Marshal(p, ""); err != nil {
			b.Fatal(err)
		}
	}
}
