package states

import (
	"fmt"
	"math/rand/v2"

	"github.com/plankit/plankit/addrs"
	"github.com/zclconf/go-cty/cty"
)

// SetResourceInstanceCurrent sets addr's current object to obj, recording
// provider as its resource's provider configuration (unless the resource
// records an Equivalent one already, which it keeps). A nil obj removes the
// current object; an instance left with no objects, a resource left with no
// instances and a non-root module left empty are removed. The state takes
// ownership of obj.
func (s *State) SetResourceInstanceCurrent(addr addrs.AbsResourceInstance, obj *ResourceInstanceObjectSrc, provider addrs.AbsProviderConfig) {
	s.setObject(addr, addrs.NotDeposed, obj, provider)
}

// SetResourceInstanceDeposed sets (or, with a nil obj, removes) the deposed
// object key of addr, pruning as SetResourceInstanceCurrent does.
func (s *State) SetResourceInstanceDeposed(addr addrs.AbsResourceInstance, key addrs.DeposedKey, obj *ResourceInstanceObjectSrc, provider addrs.AbsProviderConfig) {
	if key == addrs.NotDeposed {
		panic("SetResourceInstanceDeposed called with addrs.NotDeposed") // programming error, not user input
	}
	s.setObject(addr, key, obj, provider)
}

func (s *State) setObject(addr addrs.AbsResourceInstance, key addrs.DeposedKey, obj *ResourceInstanceObjectSrc, provider addrs.AbsProviderConfig) {
	if obj == nil {
		s.removeObject(addr, key)
		return
	}
	m := s.EnsureModule(addr.Module)
	rk := addr.Resource.Resource.String()
	r := m.Resources[rk]
	if r == nil {
		r = &Resource{Addr: addr.ContainingResource(), Instances: map[addrs.InstanceKey]*ResourceInstance{}}
		m.Resources[rk] = r
	}
	if !r.ProviderConfig.Equivalent(provider) {
		r.ProviderConfig = provider
	}
	// An equivalent address (the same provider under the other public
	// registry's host) is left as the state had it: a state written by
	// OpenTofu keeps naming registry.opentofu.org, so OpenTofu still
	// reads it as its own after plankit applies it.
	ri := r.Instances[addr.Resource.Key]
	if ri == nil {
		ri = &ResourceInstance{}
		r.Instances[addr.Resource.Key] = ri
	}
	if key == addrs.NotDeposed {
		ri.Current = obj
		return
	}
	if ri.Deposed == nil {
		ri.Deposed = map[addrs.DeposedKey]*ResourceInstanceObjectSrc{}
	}
	ri.Deposed[key] = obj
}

func (s *State) removeObject(addr addrs.AbsResourceInstance, key addrs.DeposedKey) {
	m := s.Module(addr.Module)
	if m == nil {
		return
	}
	rk := addr.Resource.Resource.String()
	r := m.Resources[rk]
	if r == nil {
		return
	}
	ri := r.Instances[addr.Resource.Key]
	if ri == nil {
		return
	}
	if key == addrs.NotDeposed {
		ri.Current = nil
	} else {
		delete(ri.Deposed, key)
		if len(ri.Deposed) == 0 {
			ri.Deposed = nil
		}
	}
	if ri.HasObjects() {
		return
	}
	delete(r.Instances, addr.Resource.Key)
	if len(r.Instances) > 0 {
		return
	}
	delete(m.Resources, rk)
	s.pruneModule(m)
}

func (s *State) pruneModule(m *Module) {
	if !m.Addr.IsRoot() && m.empty() {
		delete(s.Modules, m.Addr.String())
	}
}

// DeposeResourceInstanceObject moves addr's current object to a new, unused
// deposed key and returns it; it returns addrs.NotDeposed when there is no
// current object. Used at the start of a create_before_destroy replacement.
func (s *State) DeposeResourceInstanceObject(addr addrs.AbsResourceInstance) addrs.DeposedKey {
	ri := s.ResourceInstance(addr)
	if ri == nil || ri.Current == nil {
		return addrs.NotDeposed
	}
	key := newDeposedKey(ri.Deposed)
	if ri.Deposed == nil {
		ri.Deposed = map[addrs.DeposedKey]*ResourceInstanceObjectSrc{}
	}
	ri.Deposed[key] = ri.Current
	ri.Current = nil
	return key
}

// newDeposedKey returns eight random hex digits not already in use.
func newDeposedKey(used map[addrs.DeposedKey]*ResourceInstanceObjectSrc) addrs.DeposedKey {
	for {
		k := addrs.DeposedKey(fmt.Sprintf("%08x", rand.Uint32()))
		if _, taken := used[k]; !taken {
			return k
		}
	}
}

// SetOutputValue records the output addr with its unmarked value v.
// Only root module outputs are written to a state file.
func (s *State) SetOutputValue(addr addrs.AbsOutputValue, v cty.Value, sensitive bool) {
	m := s.EnsureModule(addr.Module)
	m.OutputValues[addr.OutputValue.Name] = &OutputValue{Addr: addr, Value: v, Sensitive: sensitive}
}

// RemoveOutputValue removes the output addr, pruning an emptied non-root
// module.
func (s *State) RemoveOutputValue(addr addrs.AbsOutputValue) {
	m := s.Module(addr.Module)
	if m == nil {
		return
	}
	delete(m.OutputValues, addr.OutputValue.Name)
	s.pruneModule(m)
}

// OutputValue returns the output addr, or nil.
func (s *State) OutputValue(addr addrs.AbsOutputValue) *OutputValue {
	m := s.Module(addr.Module)
	if m == nil {
		return nil
	}
	return m.OutputValues[addr.OutputValue.Name]
}

// SetResourceInstanceProviderKey records which instance of its provider
// configuration (provider for_each) manages addr; a no-op when addr has no
// objects.
func (s *State) SetResourceInstanceProviderKey(addr addrs.AbsResourceInstance, key addrs.InstanceKey) {
	if ri := s.ResourceInstance(addr); ri != nil {
		ri.ProviderKey = key
	}
}
