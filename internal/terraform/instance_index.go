package terraform

import (
	"github.com/plankit/plankit/addrs"
)

// instanceIndex maps resource instances to values of T, grouped by
// resource: one address string per resource rather than one per instance,
// a count's instances in a slice indexed by count.index (8 bytes an
// instance for a pointer T). The zero T means "absent". Not safe for
// concurrent use: callers lock.
type instanceIndex[T comparable] struct {
	m map[string]*resourceEntries[T]
	// last is the entry put last and lastAddr its resource: a count's
	// instances arrive one after another, and this spares building the
	// resource's address string for each (lastEntry).
	last     *resourceEntries[T]
	lastAddr addrs.AbsResource
}

// resourceEntries are the entries of one resource's instances.
type resourceEntries[T comparable] struct {
	order []T // every put, in order
	noKey T
	byIdx []T                     // IntKey i at i, while the keys stay dense
	other map[addrs.InstanceKey]T // string keys and sparse int keys
}

// put records v for addr (replacing an earlier value for addr; order keeps
// both). O(1) amortized.
func (ix *instanceIndex[T]) put(addr addrs.AbsResourceInstance, v T) {
	if ix.m == nil {
		ix.m = map[string]*resourceEntries[T]{}
	}
	res := addr.ContainingResource()
	e := ix.lastEntry(res)
	if e == nil {
		k := res.String()
		if e = ix.m[k]; e == nil {
			e = &resourceEntries[T]{}
			ix.m[k] = e
		}
		ix.last, ix.lastAddr = e, res
	}
	e.order = append(e.order, v)
	switch key := addr.Resource.Key.(type) {
	case nil:
		e.noKey = v
		return
	case addrs.IntKey:
		// Dense while an index is at most twice the slots so far: a
		// state's stray huge index goes to the map instead.
		if i := int(key); i >= 0 && i <= 2*len(e.byIdx)+16 {
			for len(e.byIdx) <= i {
				var zero T
				e.byIdx = append(e.byIdx, zero)
			}
			e.byIdx[i] = v
			return
		}
	}
	if e.other == nil {
		e.other = map[addrs.InstanceKey]T{}
	}
	e.other[addr.Resource.Key] = v
}

// get returns the value recorded for addr, or the zero T. O(1).
func (ix *instanceIndex[T]) get(addr addrs.AbsResourceInstance) T {
	var zero T
	res := addr.ContainingResource()
	e := ix.lastEntry(res)
	if e == nil {
		e = ix.m[res.String()]
	}
	if e == nil {
		return zero
	}
	switch key := addr.Resource.Key.(type) {
	case nil:
		return e.noKey
	case addrs.IntKey:
		if i := int(key); i >= 0 && i < len(e.byIdx) && e.byIdx[i] != zero {
			return e.byIdx[i]
		}
	}
	return e.other[addr.Resource.Key]
}

// resource returns every value put for an instance of addr, in put order.
// The slice is the index's own: callers copy it before unlocking.
func (ix *instanceIndex[T]) resource(addr addrs.AbsResource) []T {
	if e := ix.m[addr.String()]; e != nil {
		return e.order
	}
	return nil
}

// lastEntry returns the entry of res when it is the one put last, else nil.
func (ix *instanceIndex[T]) lastEntry(res addrs.AbsResource) *resourceEntries[T] {
	if ix.last != nil && ix.lastAddr.Equal(res) {
		return ix.last
	}
	return nil
}
