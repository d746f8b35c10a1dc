package cli

import "testing"

// TestGCPercentFor: GOGC lets the heap grow by about gcHeadroom, never
// below Go's default 100 (large heaps are paced as before) nor above
// gcPercentMax.
func TestGCPercentFor(t *testing.T) {
	for _, c := range []struct {
		live uint64
		want int
	}{
		{0, gcPercentMax},
		{1 << 20, gcPercentMax},
		{32 << 20, 800},
		{64 << 20, 400},
		{gcHeadroom, 100},
		{4 << 30, 100},
	} {
		if got := gcPercentFor(c.live); got != c.want {
			t.Errorf("gcPercentFor(%d MiB) = %d, want %d", c.live>>20, got, c.want)
		}
	}
}
