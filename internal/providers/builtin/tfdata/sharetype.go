package tfdata

import (
	"sync"
	"sync/atomic"

	"github.com/zclconf/go-cty/cty"
)

// Planned objects share their type. cty.ObjectVal gives every object a
// type of its own (a map of attribute types), and a plan keeps every
// planned object to its end, so a large plan holds as many identical
// types as it has instances. A terraform_data configuration has few
// distinct object types (one per type of input), so planData hands out
// one shared copy of each. BenchmarkPlannedObjectsRetained measures what
// sharing saves.

// sharedTypes is the set of shared types, copied on write; at most
// maxSharedTypes (a configuration with more distinct input types shares
// the first ones only).
var sharedTypes struct {
	mu   sync.Mutex
	list atomic.Pointer[[]cty.Type]
}

const maxSharedTypes = 16

// withType is v with its type replaced by ty, which must equal v's type.
// go-cty has no constructor taking the type of the object to build, but
// a list's elements carry the list's element type, and cty.ListVal takes
// that type from its first element: the second element read back from
// [unknown of ty, v] is v's value with ty. Only public API is used, so a
// go-cty change can at worst stop the sharing (which
// TestPlannedObjectsShareTypes reports), never corrupt a value.
func withType(v cty.Value, ty cty.Type) cty.Value {
	it := cty.ListVal([]cty.Value{cty.UnknownVal(ty), v}).ElementIterator()
	it.Next()
	it.Next()
	_, w := it.Element()
	return w
}

// shareType returns v with the shared copy of its type, first making v's
// type the shared one if there is none yet (and room for it).
func shareType(v cty.Value) cty.Value {
	ty := v.Type()
	if l := sharedTypes.list.Load(); l != nil {
		for _, t := range *l {
			if t.Equals(ty) {
				return withType(v, t)
			}
		}
	}
	sharedTypes.mu.Lock()
	defer sharedTypes.mu.Unlock()
	var cur []cty.Type
	if l := sharedTypes.list.Load(); l != nil {
		cur = *l
	}
	for _, t := range cur {
		if t.Equals(ty) {
			return withType(v, t)
		}
	}
	if len(cur) < maxSharedTypes {
		next := append(cur[:len(cur):len(cur)], ty)
		sharedTypes.list.Store(&next)
	}
	return v
}
