package cli

import "testing"

// TestGCPercentFor: GOGC lets the heap grow by about gcHeadroom, never
// below gcPercentMin (50: a live heap of 512 MiB or more grows by half of
// itself) nor above gcPercentMax.
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
		{384 << 20, 66},
		{2 * gcHeadroom, 50},
		{4 << 30, 50},
	} {
		if got := gcPercentFor(c.live); got != c.want {
			t.Errorf("gcPercentFor(%d MiB) = %d, want %d", c.live>>20, got, c.want)
		}
	}
}
