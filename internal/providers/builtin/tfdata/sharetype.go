package tfdata

import (
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/zclconf/go-cty/cty"
)

// Planned objects share their type. cty.ObjectVal gives every object a
// type of its own (a map of attribute types, about 340 bytes for
// terraform_data's four attributes), and a plan keeps every planned
// object to its end: 34 MB of identical types at 100,000 instances.
// A terraform_data configuration has few distinct object types (one per
// type of input), so planData hands out one shared copy of each.
//
// cty has no constructor taking the type of the object to build, so the
// type is replaced in the value built by cty.ObjectVal, through the
// layout of cty.Value (its type, then its payload). layoutOK checks that
// layout once; when it does not hold (a cty version that changed it),
// values keep their own types and nothing else changes, and
// TestPlannedObjectsShareTypes fails so the change is seen.
// BenchmarkPlannedObjectsRetained measures what sharing saves.

// sharedTypes is the set of shared types, copied on write; at most
// maxSharedTypes (a configuration with more distinct input types shares
// the first ones only).
var sharedTypes struct {
	mu   sync.Mutex
	list atomic.Pointer[[]cty.Type]
}

const maxSharedTypes = 16

// valueLayout is cty.Value's layout.
type valueLayout struct {
	ty cty.Type
	v  any
}

// ifaceWords are an interface value's two words.
type ifaceWords struct{ tab, data unsafe.Pointer }

// typeIdentity is what tells a type apart from an equal copy: the
// address of its implementation.
func typeIdentity(t cty.Type) unsafe.Pointer {
	return (*ifaceWords)(unsafe.Pointer(&t)).data
}

// withType is v with its type replaced by ty, which must equal v's type.
func withType(v cty.Value, ty cty.Type) cty.Value {
	(*valueLayout)(unsafe.Pointer(&v)).ty = ty
	return v
}

// layoutOK: replacing the type of a value through valueLayout gives an
// equal value whose Type is the very type given.
var layoutOK = func() bool {
	if unsafe.Sizeof(cty.Value{}) != unsafe.Sizeof(valueLayout{}) || unsafe.Sizeof(cty.Type{}) != unsafe.Sizeof(ifaceWords{}) {
		return false
	}
	attrs := map[string]cty.Value{"a": cty.StringVal("x"), "b": cty.UnknownVal(cty.Number)}
	v, u := cty.ObjectVal(attrs), cty.ObjectVal(attrs)
	w := withType(v, u.Type())
	return typeIdentity(w.Type()) == typeIdentity(u.Type()) && typeIdentity(v.Type()) != typeIdentity(u.Type()) &&
		w.RawEquals(v) && w.GetAttr("a").RawEquals(cty.StringVal("x")) && !w.GetAttr("b").IsKnown()
}()

// shareType returns v with the shared copy of its type, first making v's
// type the shared one if there is none yet (and room for it).
func shareType(v cty.Value) cty.Value {
	if !layoutOK {
		return v
	}
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
