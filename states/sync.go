package states

import (
	"sync"

	"github.com/plankit/plankit/addrs"
	"github.com/zclconf/go-cty/cty"
)

// SyncState guards a State with a mutex so that the apply walk's workers can
// update it concurrently. Its setters have the same meaning as State's; its
// readers return deep copies, so a caller never sees a later change.
type SyncState struct {
	mu    sync.Mutex
	state *State
}

// Lock locks the state and returns it for direct use; call Unlock after.
func (ss *SyncState) Lock() *State {
	ss.mu.Lock()
	return ss.state
}

// Unlock releases the lock taken by Lock.
func (ss *SyncState) Unlock() { ss.mu.Unlock() }

// Close returns the wrapped state and makes further use of ss panic, so that
// nothing updates the state after the walk is done.
func (ss *SyncState) Close() *State {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	s := ss.state
	ss.state = nil
	return s
}

func (ss *SyncState) with(fn func(*State)) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.state == nil {
		panic("use of a closed SyncState")
	}
	fn(ss.state)
}

// Snapshot returns (*State).Snapshot of the wrapped state, taken under the
// lock: O(number of objects) while holding it, no attribute bytes copied.
func (ss *SyncState) Snapshot() *State {
	var out *State
	ss.with(func(s *State) { out = s.Snapshot() })
	return out
}

// DeepCopy returns a deep copy of the wrapped state.
func (ss *SyncState) DeepCopy() *State {
	var out *State
	ss.with(func(s *State) { out = s.DeepCopy() })
	return out
}

// Module returns a deep copy of the module instance addr, or nil.
func (ss *SyncState) Module(addr addrs.ModuleInstance) *Module {
	var out *Module
	ss.with(func(s *State) {
		if m := s.Module(addr); m != nil {
			out = m.copy(true)
		}
	})
	return out
}

// Resource returns a deep copy of the resource addr, or nil.
func (ss *SyncState) Resource(addr addrs.AbsResource) *Resource {
	var out *Resource
	ss.with(func(s *State) {
		if r := s.Resource(addr); r != nil {
			out = r.copy(true)
		}
	})
	return out
}

// ResourceInstance returns a deep copy of the instance addr, or nil.
func (ss *SyncState) ResourceInstance(addr addrs.AbsResourceInstance) *ResourceInstance {
	var out *ResourceInstance
	ss.with(func(s *State) { out = s.ResourceInstance(addr).DeepCopy() })
	return out
}

// ResourceInstanceObject returns a deep copy of the current (NotDeposed) or
// a deposed object of addr, or nil.
func (ss *SyncState) ResourceInstanceObject(addr addrs.AbsResourceInstance, key addrs.DeposedKey) *ResourceInstanceObjectSrc {
	var out *ResourceInstanceObjectSrc
	ss.with(func(s *State) { out = s.ResourceInstanceObject(addr, key).DeepCopy() })
	return out
}

// AllResourceInstances returns every instance address, sorted.
func (ss *SyncState) AllResourceInstances() []addrs.AbsResourceInstance {
	var out []addrs.AbsResourceInstance
	ss.with(func(s *State) { out = s.AllResourceInstances() })
	return out
}

// ModuleInstances returns every module instance address, sorted.
func (ss *SyncState) ModuleInstances() []addrs.ModuleInstance {
	var out []addrs.ModuleInstance
	ss.with(func(s *State) { out = s.ModuleInstances() })
	return out
}

// OutputValue returns a copy of the output addr, or nil.
func (ss *SyncState) OutputValue(addr addrs.AbsOutputValue) *OutputValue {
	var out *OutputValue
	ss.with(func(s *State) {
		if o := s.OutputValue(addr); o != nil {
			c := *o
			out = &c
		}
	})
	return out
}

// RootOutputValues returns copies of the root module's outputs by name.
func (ss *SyncState) RootOutputValues() map[string]*OutputValue {
	out := map[string]*OutputValue{}
	ss.with(func(s *State) {
		for k, o := range s.RootOutputValues() {
			c := *o
			out[k] = &c
		}
	})
	return out
}

// SetResourceInstanceCurrent is (*State).SetResourceInstanceCurrent under the lock.
func (ss *SyncState) SetResourceInstanceCurrent(addr addrs.AbsResourceInstance, obj *ResourceInstanceObjectSrc, provider addrs.AbsProviderConfig) {
	ss.with(func(s *State) { s.SetResourceInstanceCurrent(addr, obj, provider) })
}

// SetResourceInstanceDeposed is (*State).SetResourceInstanceDeposed under the lock.
func (ss *SyncState) SetResourceInstanceDeposed(addr addrs.AbsResourceInstance, key addrs.DeposedKey, obj *ResourceInstanceObjectSrc, provider addrs.AbsProviderConfig) {
	ss.with(func(s *State) { s.SetResourceInstanceDeposed(addr, key, obj, provider) })
}

// DeposeResourceInstanceObject is (*State).DeposeResourceInstanceObject under the lock.
func (ss *SyncState) DeposeResourceInstanceObject(addr addrs.AbsResourceInstance) addrs.DeposedKey {
	var key addrs.DeposedKey
	ss.with(func(s *State) { key = s.DeposeResourceInstanceObject(addr) })
	return key
}

// SetOutputValue is (*State).SetOutputValue under the lock.
func (ss *SyncState) SetOutputValue(addr addrs.AbsOutputValue, v cty.Value, sensitive bool) {
	ss.with(func(s *State) { s.SetOutputValue(addr, v, sensitive) })
}

// RemoveOutputValue is (*State).RemoveOutputValue under the lock.
func (ss *SyncState) RemoveOutputValue(addr addrs.AbsOutputValue) {
	ss.with(func(s *State) { s.RemoveOutputValue(addr) })
}

// SetResourceInstanceProviderKey is (*State).SetResourceInstanceProviderKey under the lock.
func (ss *SyncState) SetResourceInstanceProviderKey(addr addrs.AbsResourceInstance, key addrs.InstanceKey) {
	ss.with(func(s *State) { s.SetResourceInstanceProviderKey(addr, key) })
}
