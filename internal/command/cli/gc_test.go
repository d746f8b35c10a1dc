package cli

import "testing"

// TestGCPercentFor: below gcSmallHeap (64 MiB) live the heap may grow by
// 64 MiB (a live heap below the runtime's 4 MiB minimum counts as 4 MiB),
// up to gcLargeHeap (256 MiB) it may double, and above that the headroom
// shrinks with the square of the live heap, never below gcPercentMin.
func TestGCPercentFor(t *testing.T) {
	for _, c := range []struct {
		live uint64
		want int
	}{
		{0, 1600},
		{1 << 20, 1600},
		{4 << 20, 1600},
		{16 << 20, 400},
		{20 << 20, 320},
		{32 << 20, 200},
		{64 << 20, 100},
		{128 << 20, 100},
		{256 << 20, 100},
		{362 << 20, 50},
		{400 << 20, 40},
		{512 << 20, 25},
		{4 << 30, 25},
	} {
		if got := gcPercentFor(c.live); got != c.want {
			t.Errorf("gcPercentFor(%d MiB) = %d, want %d", c.live>>20, got, c.want)
		}
	}
}
