package statefile

import (
	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/states"
)

// AppendInstanceFile appends to dst exactly what Write writes for a File
// holding only a state with addr's objects in it — current (nil: none)
// and deposed (nil entries ignored), under provider configuration pc and,
// for a provider configuration with for_each, its instance providerKey
// (nil or addrs.NoKey: none) — and
// nothing else: no outputs, serial 0, no lineage, the default
// terraform_version. It is the state journal's record of one instance,
// made without building that one-instance state and without a buffer of
// its own: O(size of the objects), a few small allocations. As with
// Write, each object's encoding comes from (and goes into) its cache.
func AppendInstanceFile(dst []byte, addr addrs.AbsResourceInstance, pc addrs.AbsProviderConfig, providerKey addrs.InstanceKey, current *states.ResourceInstanceObjectSrc, deposed map[addrs.DeposedKey]*states.ResourceInstanceObjectSrc) ([]byte, error) {
	e := &encoder{buf: dst}
	e.str("{\n  \"version\": 4,\n  \"terraform_version\": ")
	e.buf = appendJSONString(e.buf, DefaultTerraformVersion)
	e.str(",\n  \"serial\": 0,\n  \"lineage\": \"\",\n  \"outputs\": {},\n  \"resources\": ")
	ri := &states.ResourceInstance{Current: current, ProviderKey: providerKey}
	for dk, obj := range deposed {
		if obj == nil {
			continue
		}
		if ri.Deposed == nil {
			ri.Deposed = make(map[addrs.DeposedKey]*states.ResourceInstanceObjectSrc, len(deposed))
		}
		ri.Deposed[dk] = obj
	}
	if ri.Current == nil && ri.Deposed == nil {
		e.str("[]")
	} else {
		r := &states.Resource{
			Addr:           addr.ContainingResource(),
			Instances:      map[addrs.InstanceKey]*states.ResourceInstance{addr.Resource.Key: ri},
			ProviderConfig: pc,
		}
		e.str("[\n")
		if err := e.resource(placedResource{module: addr.Module.String(), r: r}); err != nil {
			return dst, err
		}
		e.str("\n  ]")
	}
	e.str(",\n  \"check_results\": null\n}\n")
	return e.buf, nil
}
