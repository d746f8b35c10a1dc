package states

import (
	"github.com/plankit/plankit/addrs"
	"github.com/zclconf/go-cty/cty"
)

// Module is one module instance's part of the state.
type Module struct {
	Addr addrs.ModuleInstance
	// Resources by addrs.Resource.String(): "type.name" or "data.type.name".
	Resources map[string]*Resource
	// OutputValues by output name. Only the root module's are written to a
	// state file, as Terraform does.
	OutputValues map[string]*OutputValue
}

func newModule(addr addrs.ModuleInstance) *Module {
	return &Module{Addr: addr, Resources: map[string]*Resource{}, OutputValues: map[string]*OutputValue{}}
}

// Resource returns the resource addr in m, or nil.
func (m *Module) Resource(addr addrs.Resource) *Resource {
	if m == nil {
		return nil
	}
	return m.Resources[addr.String()]
}

// empty reports whether m holds nothing, so a non-root module can be pruned.
func (m *Module) empty() bool { return len(m.Resources) == 0 && len(m.OutputValues) == 0 }

func (m *Module) copy(deep bool) *Module {
	out := &Module{
		Addr:         append(addrs.ModuleInstance(nil), m.Addr...),
		Resources:    make(map[string]*Resource, len(m.Resources)),
		OutputValues: make(map[string]*OutputValue, len(m.OutputValues)),
	}
	for k, r := range m.Resources {
		out.Resources[k] = r.copy(deep)
	}
	for k, o := range m.OutputValues {
		c := *o
		out.OutputValues[k] = &c
	}
	return out
}

// OutputValue is an output value as recorded in the state. Value is
// unmarked; Sensitive says whether it must be hidden.
type OutputValue struct {
	Addr      addrs.AbsOutputValue
	Value     cty.Value
	Sensitive bool
}
