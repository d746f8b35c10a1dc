package dag

import "slices"

// idHeap is a binary min-heap of vertex ids. Lower ids were inserted
// earlier, so popping the minimum breaks ties by insertion order.
type idHeap []int32

func (h *idHeap) push(x int32) {
	*h = append(*h, x)
	s := *h
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) / 2
		if s[p] <= s[i] {
			break
		}
		s[p], s[i] = s[i], s[p]
		i = p
	}
}

func (h *idHeap) pop() int32 {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	s = s[:last]
	i := 0
	for {
		l := 2*i + 1
		if l >= len(s) {
			break
		}
		m := l
		if r := l + 1; r < len(s) && s[r] < s[l] {
			m = r
		}
		if s[i] <= s[m] {
			break
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
	*h = s
	return top
}

// sortIDs sorts ids ascending, that is, by insertion order.
func sortIDs(ids []int32) { slices.Sort(ids) }
