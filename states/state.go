package states

import (
	"slices"

	"github.com/plankit/plankit/addrs"
)

// State is the whole state: module instances by the String() of their
// address ("" for the root). It is not safe for concurrent use; wrap it with
// SyncWrapper for that.
type State struct {
	Modules map[string]*Module
}

// NewState returns an empty state holding only the root module.
func NewState() *State {
	s := &State{Modules: map[string]*Module{}}
	s.EnsureModule(addrs.RootModuleInstance)
	return s
}

// Module returns the module instance with address addr, or nil.
func (s *State) Module(addr addrs.ModuleInstance) *Module {
	if s == nil {
		return nil
	}
	return s.Modules[addr.String()]
}

// EnsureModule returns the module instance with address addr, creating it
// when absent.
func (s *State) EnsureModule(addr addrs.ModuleInstance) *Module {
	if s.Modules == nil {
		s.Modules = map[string]*Module{}
	}
	key := addr.String()
	if m, ok := s.Modules[key]; ok {
		return m
	}
	m := newModule(addr)
	s.Modules[key] = m
	return m
}

// RootModule returns the root module instance, creating it when absent.
func (s *State) RootModule() *Module { return s.EnsureModule(addrs.RootModuleInstance) }

// Resource returns the resource with address addr, or nil.
func (s *State) Resource(addr addrs.AbsResource) *Resource {
	m := s.Module(addr.Module)
	if m == nil {
		return nil
	}
	return m.Resources[addr.Resource.String()]
}

// ResourceInstance returns the resource instance with address addr, or nil.
func (s *State) ResourceInstance(addr addrs.AbsResourceInstance) *ResourceInstance {
	r := s.Resource(addr.ContainingResource())
	if r == nil {
		return nil
	}
	return r.Instances[addr.Resource.Key]
}

// ResourceInstanceObject returns the current object (deposed ==
// addrs.NotDeposed) or the given deposed object of addr, or nil.
func (s *State) ResourceInstanceObject(addr addrs.AbsResourceInstance, deposed addrs.DeposedKey) *ResourceInstanceObjectSrc {
	ri := s.ResourceInstance(addr)
	if ri == nil {
		return nil
	}
	return ri.Object(deposed)
}

// AllResourceInstances returns the address of every resource instance that
// has a current or deposed object, sorted by module instance, mode, type,
// name and key. O(n log n) in the number of instances.
func (s *State) AllResourceInstances() []addrs.AbsResourceInstance {
	if s == nil {
		return nil
	}
	var out []addrs.AbsResourceInstance
	for _, m := range s.Modules {
		for _, r := range m.Resources {
			for key := range r.Instances {
				out = append(out, r.Addr.Instance(key))
			}
		}
	}
	slices.SortFunc(out, addrs.AbsResourceInstance.Compare)
	return out
}

// AllResources returns every resource, sorted by address.
func (s *State) AllResources() []*Resource {
	if s == nil {
		return nil
	}
	var out []*Resource
	for _, m := range s.Modules {
		for _, r := range m.Resources {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b *Resource) int { return a.Addr.Compare(b.Addr) })
	return out
}

// ModuleInstances returns the address of every module instance in the state,
// root first, sorted.
func (s *State) ModuleInstances() []addrs.ModuleInstance {
	if s == nil {
		return nil
	}
	out := make([]addrs.ModuleInstance, 0, len(s.Modules))
	for _, m := range s.Modules {
		out = append(out, m.Addr)
	}
	slices.SortFunc(out, addrs.ModuleInstance.Compare)
	return out
}

// RootOutputValues returns the root module's output values by name. The map
// is the state's own: callers must not modify it.
func (s *State) RootOutputValues() map[string]*OutputValue {
	m := s.Module(addrs.RootModuleInstance)
	if m == nil {
		return nil
	}
	return m.OutputValues
}

// Empty reports whether the state has no resources and no output values.
func (s *State) Empty() bool {
	if s == nil {
		return true
	}
	for _, m := range s.Modules {
		if len(m.Resources) > 0 || len(m.OutputValues) > 0 {
			return false
		}
	}
	return true
}

// HasManagedResourceInstanceObjects reports whether any managed resource
// instance has an object: what decides whether a destroy has work to do.
func (s *State) HasManagedResourceInstanceObjects() bool {
	if s == nil {
		return false
	}
	for _, m := range s.Modules {
		for _, r := range m.Resources {
			if r.Addr.Resource.Mode == addrs.ManagedResourceMode && len(r.Instances) > 0 {
				return true
			}
		}
	}
	return false
}

// DeepCopy returns a copy sharing no memory with s: objects, attribute JSON,
// private bytes and paths are all copied. O(size of the state). Use Snapshot
// when the copy only needs to be read.
func (s *State) DeepCopy() *State {
	if s == nil {
		return nil
	}
	out := &State{Modules: make(map[string]*Module, len(s.Modules))}
	for k, m := range s.Modules {
		out.Modules[k] = m.copy(true)
	}
	return out
}

// Snapshot returns a copy of s's structure (modules, resources, instances,
// output values) that shares the immutable *ResourceInstanceObjectSrc values
// with s. Later setter calls on s do not affect the snapshot. O(number of
// objects), no attribute bytes copied: it is what a background writer takes
// under a lock before encoding outside it.
func (s *State) Snapshot() *State {
	if s == nil {
		return nil
	}
	out := &State{Modules: make(map[string]*Module, len(s.Modules))}
	for k, m := range s.Modules {
		out.Modules[k] = m.copy(false)
	}
	return out
}

// SyncWrapper returns a SyncState that guards s with a mutex. The caller must
// stop using s directly.
func (s *State) SyncWrapper() *SyncState {
	return &SyncState{state: s}
}
