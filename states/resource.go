package states

import (
	"slices"

	"github.com/plankit/plankit/addrs"
)

// Resource is a resource in a module instance, with its instances by key and
// the provider configuration that manages it.
type Resource struct {
	Addr           addrs.AbsResource
	Instances      map[addrs.InstanceKey]*ResourceInstance
	ProviderConfig addrs.AbsProviderConfig
}

// SortedKeys returns the keys of r's instances in address order
// (addrs.CompareInstanceKeys): no key, int keys, then string keys.
func (r *Resource) SortedKeys() []addrs.InstanceKey {
	keys := make([]addrs.InstanceKey, 0, len(r.Instances))
	for k := range r.Instances {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, addrs.CompareInstanceKeys)
	return keys
}

// Instance returns the instance with key, or nil.
func (r *Resource) Instance(key addrs.InstanceKey) *ResourceInstance {
	if r == nil {
		return nil
	}
	return r.Instances[key]
}

func (r *Resource) copy(deep bool) *Resource {
	out := &Resource{
		Addr:           r.Addr,
		Instances:      make(map[addrs.InstanceKey]*ResourceInstance, len(r.Instances)),
		ProviderConfig: r.ProviderConfig,
	}
	out.Addr.Module = append(addrs.ModuleInstance(nil), r.Addr.Module...)
	out.ProviderConfig.Module = append(addrs.Module(nil), r.ProviderConfig.Module...)
	for k, ri := range r.Instances {
		out.Instances[k] = ri.copy(deep)
	}
	return out
}

// ResourceInstance is one instance of a resource: at most one current object
// and any number of deposed objects (old objects kept by a
// create_before_destroy replacement until they are destroyed).
type ResourceInstance struct {
	Current *ResourceInstanceObjectSrc
	Deposed map[addrs.DeposedKey]*ResourceInstanceObjectSrc
	// ProviderKey is the instance of its resource's provider configuration
	// (OpenTofu's provider for_each) that manages it; addrs.NoKey when the
	// configuration has no for_each.
	ProviderKey addrs.InstanceKey
}

// Object returns the current object (key addrs.NotDeposed) or a deposed one.
func (ri *ResourceInstance) Object(key addrs.DeposedKey) *ResourceInstanceObjectSrc {
	if ri == nil {
		return nil
	}
	if key == addrs.NotDeposed {
		return ri.Current
	}
	return ri.Deposed[key]
}

// HasObjects reports whether ri has a current or a deposed object.
func (ri *ResourceInstance) HasObjects() bool {
	return ri != nil && (ri.Current != nil || len(ri.Deposed) > 0)
}

// DeepCopy returns a copy of ri sharing no memory with it.
func (ri *ResourceInstance) DeepCopy() *ResourceInstance {
	if ri == nil {
		return nil
	}
	return ri.copy(true)
}

func (ri *ResourceInstance) copy(deep bool) *ResourceInstance {
	out := &ResourceInstance{Current: ri.Current, ProviderKey: ri.ProviderKey}
	if deep {
		out.Current = ri.Current.DeepCopy()
	}
	if ri.Deposed != nil {
		out.Deposed = make(map[addrs.DeposedKey]*ResourceInstanceObjectSrc, len(ri.Deposed))
		for k, o := range ri.Deposed {
			if deep {
				o = o.DeepCopy()
			}
			out.Deposed[k] = o
		}
	}
	return out
}
