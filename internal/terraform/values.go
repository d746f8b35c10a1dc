package terraform

import (
	"sync"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
)

// expMode is how a resource or module call repeats.
type expMode uint8

const (
	expSingle  expMode = iota // no count or for_each
	expCount                  // count: IntKeys
	expForEach                // for_each: StringKeys
	expUnknown                // not known yet (validate walk)
)

// repetition is what count.index / each.key / each.value mean inside one
// instance of a resource or module call.
type repetition struct {
	mode      expMode
	key       addrs.InstanceKey
	eachValue cty.Value
}

// resourceValues holds the current value (planned during plan, new during
// apply) of every instance of one resource in one module instance. A
// count's instances live in a slice indexed by count.index (32 bytes an
// instance, no map sized per instance), a single instance in one field;
// for_each keys in a map.
type resourceValues struct {
	mu    sync.Mutex
	mode  expMode
	keys  []addrs.InstanceKey // for_each: in instance order
	byIdx []cty.Value         // count: value of instance i; cty.NilVal until set
	noKey cty.Value           // the instance without a key; cty.NilVal until set
	// whole caches get's collection value until the next put: every
	// instance of a dependent reads the same complete resource, and
	// building it per reference made count-to-count references quadratic.
	whole cty.Value
	vals  map[addrs.InstanceKey]cty.Value
	ty    cty.Type // the schema's implied type, for unknown placeholders
}

// put records the value of key k. Callers hold rv.mu.
func (rv *resourceValues) put(k addrs.InstanceKey, v cty.Value) {
	rv.whole = cty.NilVal
	if k == addrs.NoKey {
		rv.noKey = v
		return
	}
	if i, ok := k.(addrs.IntKey); ok && int(i) >= 0 && int(i) < len(rv.byIdx) {
		rv.byIdx[i] = v
		return
	}
	if rv.vals == nil {
		rv.vals = map[addrs.InstanceKey]cty.Value{}
	}
	rv.vals[k] = v
}

// lookup returns the value of key k, if set. Callers hold rv.mu.
func (rv *resourceValues) lookup(k addrs.InstanceKey) (cty.Value, bool) {
	if k == addrs.NoKey {
		return rv.noKey, rv.noKey != cty.NilVal
	}
	if i, ok := k.(addrs.IntKey); ok && int(i) >= 0 && int(i) < len(rv.byIdx) {
		v := rv.byIdx[i]
		return v, v != cty.NilVal
	}
	v, ok := rv.vals[k]
	return v, ok
}

// valueStore holds resourceValues by AbsResource. A reference resolves with
// one map lookup plus O(instances) to build the collection value.
type valueStore struct {
	mu sync.RWMutex
	m  map[string]*resourceValues
}

func newValueStore() *valueStore { return &valueStore{m: map[string]*resourceValues{}} }

// expand records how a resource expanded (x); the instances' values are
// set later with set. O(instances).
func (s *valueStore) expand(addr addrs.AbsResource, x expansion, ty cty.Type) {
	rv := &resourceValues{mode: x.mode, ty: ty}
	switch x.mode {
	case expCount:
		rv.byIdx = make([]cty.Value, x.count)
	case expForEach:
		rv.keys = x.keys
		rv.vals = make(map[addrs.InstanceKey]cty.Value, len(x.keys))
	default:
		rv.keys = x.keys
	}
	s.mu.Lock()
	s.m[addr.String()] = rv
	s.mu.Unlock()
}

// set records the value of one instance. O(1).
func (s *valueStore) set(addr addrs.AbsResourceInstance, v cty.Value) {
	key := addr.ContainingResource().String()
	s.mu.RLock()
	rv := s.m[key]
	s.mu.RUnlock()
	if rv == nil {
		s.mu.Lock()
		if rv = s.m[key]; rv == nil {
			rv = &resourceValues{mode: expSingle}
			s.m[key] = rv
		}
		s.mu.Unlock()
	}
	rv.mu.Lock()
	rv.put(addr.Resource.Key, v)
	rv.mu.Unlock()
}

// get returns the value of the whole resource: its object, or a tuple
// (count) or object (for_each) of instance objects; ok is false when the
// resource was never expanded. O(instances) the first time after a set,
// O(1) after that (rv.whole).
func (s *valueStore) get(addr addrs.AbsResource) (cty.Value, bool) {
	s.mu.RLock()
	rv := s.m[addr.String()]
	s.mu.RUnlock()
	if rv == nil {
		return cty.DynamicVal, false
	}
	rv.mu.Lock()
	defer rv.mu.Unlock()
	inst := func(k addrs.InstanceKey) cty.Value {
		if v, ok := rv.lookup(k); ok {
			return v
		}
		if rv.ty != cty.NilType {
			return cty.UnknownVal(rv.ty)
		}
		return cty.DynamicVal
	}
	if rv.whole != cty.NilVal {
		return rv.whole, true
	}
	switch rv.mode {
	case expSingle:
		return inst(addrs.NoKey), true
	case expCount:
		if len(rv.byIdx) == 0 {
			return cty.EmptyTupleVal, true
		}
		elems := make([]cty.Value, len(rv.byIdx))
		for i, v := range rv.byIdx {
			if v == cty.NilVal {
				v = inst(addrs.IntKey(i))
			}
			elems[i] = v
		}
		rv.whole = cty.TupleVal(elems)
		return rv.whole, true
	case expForEach:
		if len(rv.keys) == 0 {
			return cty.EmptyObjectVal, true
		}
		attrs := make(map[string]cty.Value, len(rv.keys))
		for _, k := range rv.keys {
			attrs[string(k.(addrs.StringKey))] = inst(k)
		}
		rv.whole = cty.ObjectVal(attrs)
		return rv.whole, true
	}
	return cty.DynamicVal, true
}
