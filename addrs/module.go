package addrs

import (
	"slices"
	"strings"
)

// Module is the static address of a module in the configuration tree: the
// names of the module calls from the root, without instance keys.
type Module []string

// RootModule is the address of the root module.
var RootModule Module

// IsRoot reports whether m is the root module.
func (m Module) IsRoot() bool { return len(m) == 0 }

// Child returns the address of the module called name from m.
func (m Module) Child(name string) Module {
	out := make(Module, len(m)+1)
	copy(out, m)
	out[len(m)] = name
	return out
}

// Parent returns the module that calls m; the root's parent is the root.
func (m Module) Parent() Module {
	if len(m) == 0 {
		return m
	}
	return m[:len(m)-1]
}

// Equal reports whether m and o are the same module.
func (m Module) Equal(o Module) bool { return slices.Equal(m, o) }

// IsAncestorOf reports whether m contains o (m is o or one of its parents).
func (m Module) IsAncestorOf(o Module) bool {
	return len(m) <= len(o) && m.Equal(o[:len(m)])
}

// String returns e.g. "module.a.module.b"; the root is "".
func (m Module) String() string {
	var b strings.Builder
	for i, name := range m {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString("module.")
		b.WriteString(name)
	}
	return b.String()
}

// ModuleInstanceStep is one step of a module instance path: a module call
// name and the instance key chosen by its count or for_each.
type ModuleInstanceStep struct {
	Name        string
	InstanceKey InstanceKey
}

// ModuleInstance is the address of one instance of a module, e.g.
// module.a["x"].module.b[0]. The root module instance is empty.
type ModuleInstance []ModuleInstanceStep

// RootModuleInstance is the address of the root module instance.
var RootModuleInstance ModuleInstance

// IsRoot reports whether m is the root module instance.
func (m ModuleInstance) IsRoot() bool { return len(m) == 0 }

// Child returns the instance of the module call name, with key, inside m.
func (m ModuleInstance) Child(name string, key InstanceKey) ModuleInstance {
	out := make(ModuleInstance, len(m)+1)
	copy(out, m)
	out[len(m)] = ModuleInstanceStep{Name: name, InstanceKey: key}
	return out
}

// Parent returns the module instance that contains m; the root's is the root.
func (m ModuleInstance) Parent() ModuleInstance {
	if len(m) == 0 {
		return m
	}
	return m[:len(m)-1]
}

// Module returns the static module address of m, dropping instance keys.
func (m ModuleInstance) Module() Module {
	if len(m) == 0 {
		return nil
	}
	out := make(Module, len(m))
	for i, s := range m {
		out[i] = s.Name
	}
	return out
}

// Equal reports whether m and o address the same module instance.
func (m ModuleInstance) Equal(o ModuleInstance) bool { return slices.Equal(m, o) }

// IsAncestorOf reports whether m contains o (m is o or one of its parents).
func (m ModuleInstance) IsAncestorOf(o ModuleInstance) bool {
	return len(m) <= len(o) && m.Equal(o[:len(m)])
}

// Compare orders module instances step by step: by call name, then key.
func (m ModuleInstance) Compare(o ModuleInstance) int {
	for i := 0; i < len(m) && i < len(o); i++ {
		if c := strings.Compare(m[i].Name, o[i].Name); c != 0 {
			return c
		}
		if c := compareKeys(m[i].InstanceKey, o[i].InstanceKey); c != 0 {
			return c
		}
	}
	return len(m) - len(o)
}

// String returns e.g. `module.a["x"].module.b[0]`; the root is "".
func (m ModuleInstance) String() string {
	var b strings.Builder
	for i, s := range m {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString("module.")
		b.WriteString(s.Name)
		b.WriteString(KeyString(s.InstanceKey))
	}
	return b.String()
}
