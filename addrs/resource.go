package addrs

import (
	"fmt"
	"strings"
)

// ResourceMode says whether a resource is managed (resource blocks), a
// data source (data blocks) or ephemeral (ephemeral blocks).
type ResourceMode rune

const (
	InvalidResourceMode   ResourceMode = 0
	ManagedResourceMode   ResourceMode = 'M'
	DataResourceMode      ResourceMode = 'D'
	EphemeralResourceMode ResourceMode = 'E'
)

// String returns "managed" or "data", the words the v4 state file uses,
// or "ephemeral" (which no state holds).
func (m ResourceMode) String() string {
	switch m {
	case ManagedResourceMode:
		return "managed"
	case DataResourceMode:
		return "data"
	case EphemeralResourceMode:
		return "ephemeral"
	}
	return "invalid"
}

// Resource is a resource block's address within its module: mode, type, name.
// It is comparable.
type Resource struct {
	Mode ResourceMode
	Type string
	Name string
}

func (Resource) referenceableSigil() {}

// String returns "aws_instance.a", "data.aws_ami.a" or
// "ephemeral.aws_secret.a".
func (r Resource) String() string { return r.Mode.addrPrefix() + r.Type + "." + r.Name }

// addrPrefix is what an address of a resource of mode m starts with:
// "data." or "ephemeral.", nothing for a managed resource.
func (m ResourceMode) addrPrefix() string {
	switch m {
	case DataResourceMode:
		return "data."
	case EphemeralResourceMode:
		return "ephemeral."
	}
	return ""
}

// UniqueKey returns a comparable key for r.
func (r Resource) UniqueKey() string { return r.String() }

// Instance returns the instance of r with key.
func (r Resource) Instance(key InstanceKey) ResourceInstance {
	return ResourceInstance{Resource: r, Key: key}
}

// Absolute places r in a module instance.
func (r Resource) Absolute(m ModuleInstance) AbsResource {
	return AbsResource{Module: m, Resource: r}
}

// InModule places r in a static module.
func (r Resource) InModule(m Module) ConfigResource {
	return ConfigResource{Module: m, Resource: r}
}

// ImpliedProvider returns the local name of the provider a resource type
// belongs to when no provider argument says otherwise: the type name's
// prefix up to the first underscore ("aws" for "aws_instance").
func (r Resource) ImpliedProvider() string {
	if i := strings.IndexByte(r.Type, '_'); i >= 0 {
		return r.Type[:i]
	}
	return r.Type
}

func (r Resource) compare(o Resource) int {
	if r.Mode != o.Mode {
		// Data sources list before managed resources, as in Terraform
		// (plan rendering, state list); ephemeral resources first of all.
		return modeOrder(r.Mode) - modeOrder(o.Mode)
	}
	if c := strings.Compare(r.Type, o.Type); c != 0 {
		return c
	}
	return strings.Compare(r.Name, o.Name)
}

func modeOrder(m ResourceMode) int {
	switch m {
	case EphemeralResourceMode:
		return 0
	case DataResourceMode:
		return 1
	}
	return 2
}

// ResourceInstance is one instance of a resource within its module. It is
// comparable.
type ResourceInstance struct {
	Resource Resource
	Key      InstanceKey
}

func (ResourceInstance) referenceableSigil() {}

// String returns e.g. `aws_instance.a[0]`.
func (r ResourceInstance) String() string { return r.Resource.String() + KeyString(r.Key) }

// UniqueKey returns a comparable key for r.
func (r ResourceInstance) UniqueKey() string { return r.String() }

// ReferencedResource returns the resource a reference subject names: the
// resource itself, or the resource of an instance; ok is false for any
// other subject.
func ReferencedResource(subj Referenceable) (r Resource, ok bool) {
	switch s := subj.(type) {
	case Resource:
		return s, true
	case ResourceInstance:
		return s.Resource, true
	}
	return Resource{}, false
}

// Absolute places r in a module instance.
func (r ResourceInstance) Absolute(m ModuleInstance) AbsResourceInstance {
	return AbsResourceInstance{Module: m, Resource: r}
}

// AbsResource is a resource in a specific module instance.
type AbsResource struct {
	Module   ModuleInstance
	Resource Resource
}

// String returns e.g. `module.a[0].aws_instance.b`.
func (r AbsResource) String() string { return joinModule(r.Module.String(), r.Resource.String()) }

// Instance returns the instance of r with key.
func (r AbsResource) Instance(key InstanceKey) AbsResourceInstance {
	return AbsResourceInstance{Module: r.Module, Resource: r.Resource.Instance(key)}
}

// Config returns the static address of r's resource block.
func (r AbsResource) Config() ConfigResource {
	return ConfigResource{Module: r.Module.Module(), Resource: r.Resource}
}

// Equal reports whether r and o are the same address.
func (r AbsResource) Equal(o AbsResource) bool {
	return r.Resource == o.Resource && r.Module.Equal(o.Module)
}

// Compare orders by module instance, then mode, type and name.
func (r AbsResource) Compare(o AbsResource) int {
	if c := r.Module.Compare(o.Module); c != 0 {
		return c
	}
	return r.Resource.compare(o.Resource)
}

// AbsResourceInstance is one resource instance in a specific module instance:
// the address a state entry and a planned change have.
type AbsResourceInstance struct {
	Module   ModuleInstance
	Resource ResourceInstance
}

// String returns e.g. `module.a["x"].aws_instance.b[0]`.
func (r AbsResourceInstance) String() string {
	return joinModule(r.Module.String(), r.Resource.String())
}

// UniqueKey returns a comparable key for r (its string form).
func (r AbsResourceInstance) UniqueKey() string { return r.String() }

// ContainingResource returns the resource that r is an instance of.
func (r AbsResourceInstance) ContainingResource() AbsResource {
	return AbsResource{Module: r.Module, Resource: r.Resource.Resource}
}

// ConfigResource returns the static address of r's resource block.
func (r AbsResourceInstance) ConfigResource() ConfigResource {
	return ConfigResource{Module: r.Module.Module(), Resource: r.Resource.Resource}
}

// Equal reports whether r and o are the same address.
func (r AbsResourceInstance) Equal(o AbsResourceInstance) bool {
	return r.Resource == o.Resource && r.Module.Equal(o.Module)
}

// Compare orders by module instance, then mode, type, name and key.
func (r AbsResourceInstance) Compare(o AbsResourceInstance) int {
	if c := r.Module.Compare(o.Module); c != 0 {
		return c
	}
	if c := r.Resource.Resource.compare(o.Resource.Resource); c != 0 {
		return c
	}
	return compareKeys(r.Resource.Key, o.Resource.Key)
}

// Less reports whether r sorts before o.
func (r AbsResourceInstance) Less(o AbsResourceInstance) bool { return r.Compare(o) < 0 }

// ConfigResource is a resource block in a static module: what a resource
// block in the configuration is, before count/for_each of it or its module
// expand.
type ConfigResource struct {
	Module   Module
	Resource Resource
}

// String returns e.g. `module.a.aws_instance.b`.
func (r ConfigResource) String() string { return joinModule(r.Module.String(), r.Resource.String()) }

// AppendString appends r.String() to b without building the string: a
// state lists every object's dependencies (in a chain, each resource's
// transitive ones), so they are printed O(n²) times per apply.
func (r ConfigResource) AppendString(b []byte) []byte {
	for _, name := range r.Module {
		b = append(b, "module."...)
		b = append(b, name...)
		b = append(b, '.')
	}
	b = append(b, r.Resource.Mode.addrPrefix()...)
	b = append(b, r.Resource.Type...)
	b = append(b, '.')
	return append(b, r.Resource.Name...)
}

// Equal reports whether r and o are the same address.
func (r ConfigResource) Equal(o ConfigResource) bool {
	return r.Resource == o.Resource && r.Module.Equal(o.Module)
}

func joinModule(mod, rest string) string {
	if mod == "" {
		return rest
	}
	return mod + "." + rest
}

// DeposedKey names a deposed object of a resource instance: the old object
// kept during a create_before_destroy replacement. It is eight hex digits.
type DeposedKey string

// NotDeposed is the DeposedKey of a current object.
const NotDeposed DeposedKey = ""

// String returns the key itself.
func (k DeposedKey) String() string { return string(k) }

// ParseDeposedKey checks that s is eight lowercase hex digits.
func ParseDeposedKey(s string) (DeposedKey, error) {
	if len(s) != 8 {
		return NotDeposed, fmt.Errorf("deposed key %q must be eight hexadecimal digits", s)
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return NotDeposed, fmt.Errorf("deposed key %q must be eight lowercase hexadecimal digits", s)
		}
	}
	return DeposedKey(s), nil
}
