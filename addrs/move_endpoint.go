package addrs

import (
	"github.com/hashicorp/hcl/v2"
)

// MoveEndpointKind is what a moved block's from or to address names.
type MoveEndpointKind int

const (
	// MoveModuleCall is every instance of a module call (module.a): each
	// instance keeps its key.
	MoveModuleCall MoveEndpointKind = iota + 1
	// MoveModuleInstance is one instance of a module call (module.a[0],
	// or module.a when the other address has a key).
	MoveModuleInstance
	// MoveResource is every instance of a resource (aws_instance.a): each
	// instance keeps its key.
	MoveResource
	// MoveResourceInstance is one instance of a resource (aws_instance.a[0],
	// or aws_instance.a when the other address has a key).
	MoveResourceInstance
)

// IsModule reports whether k names a module call or module instance.
func (k MoveEndpointKind) IsModule() bool { return k == MoveModuleCall || k == MoveModuleInstance }

// MoveEndpoint is a moved block's from or to: an address relative to the
// module that declares the block, so it can only name objects in that
// module or its descendants.
type MoveEndpoint struct {
	Kind MoveEndpointKind
	// Module is the relative module instance path: for the module kinds
	// the module instance itself (the last step's key is ignored for
	// MoveModuleCall), for the resource kinds the module containing the
	// resource (empty: the declaring module).
	Module ModuleInstance
	// Resource is the resource instance for the resource kinds (Key is
	// ignored for MoveResource).
	Resource    ResourceInstance
	SourceRange hcl.Range
}

// String returns the address as written relative to its module, e.g.
// `module.a[0]`, `module.b.null_resource.x["k"]`.
func (e MoveEndpoint) String() string {
	switch e.Kind {
	case MoveModuleCall:
		m := append(ModuleInstance(nil), e.Module...)
		m[len(m)-1].InstanceKey = NoKey
		return m.String()
	case MoveModuleInstance:
		return e.Module.String()
	case MoveResource:
		return joinModule(e.Module.String(), e.Resource.Resource.String())
	}
	return joinModule(e.Module.String(), e.Resource.String())
}

// ParseMoveEndpoint parses a moved block's from or to traversal: module
// steps, optionally followed by a managed resource (with an optional key).
// A key-less last step gives the whole-object kinds (MoveModuleCall,
// MoveResource); UnifyMoveEndpoints narrows them when the other endpoint
// has a key.
func ParseMoveEndpoint(trav hcl.Traversal) (*MoveEndpoint, hcl.Diagnostics) {
	rng := trav.SourceRange()
	mod, rest, diags := parseModuleInstancePrefix(trav)
	if diags.HasErrors() {
		return nil, diags
	}
	if len(rest) == 0 {
		if len(mod) == 0 {
			return nil, movedAddrError(rng, "A moved block's address must name a resource or a module call, such as aws_instance.a or module.a.")
		}
		kind := MoveModuleInstance
		if mod[len(mod)-1].InstanceKey == NoKey {
			kind = MoveModuleCall
		}
		return &MoveEndpoint{Kind: kind, Module: mod, SourceRange: rng}, nil
	}
	if firstName(rest) == "data" {
		return nil, movedAddrError(rng, "Data sources cannot be moved: a moved block's from and to must name managed resources or modules. Data sources hold no objects to keep; rename the data block directly.")
	}
	if len(rest) < 2 {
		return nil, movedAddrError(rng, "A resource address needs a type and a name, like aws_instance.example.")
	}
	typeName, ok1 := StepName(rest[0])
	name, ok2 := StepName(rest[1])
	if !ok1 || !ok2 {
		return nil, movedAddrError(rng, "A resource address needs a type and a name, like aws_instance.example.")
	}
	e := &MoveEndpoint{Kind: MoveResource, Module: mod, SourceRange: rng,
		Resource: Resource{Mode: ManagedResourceMode, Type: typeName, Name: name}.Instance(NoKey)}
	switch len(rest) {
	case 2:
	case 3:
		idx, ok := rest[2].(hcl.TraverseIndex)
		if !ok {
			return nil, movedAddrError(rng, "Only an instance key in brackets may follow the resource name.")
		}
		key, err := ParseInstanceKey(idx.Key)
		if err != nil {
			return nil, movedAddrError(rng, "Invalid instance key: "+err.Error()+".")
		}
		e.Kind, e.Resource.Key = MoveResourceInstance, key
	default:
		return nil, movedAddrError(rng, "Unexpected extra parts after the resource instance address.")
	}
	return e, nil
}

// UnifyMoveEndpoints makes from and to the same kind, as Terraform does:
// both whole objects when neither has a key, both single instances
// (key-less ones meaning the instance without a key) when either has one.
// ok is false when one names a resource and the other a module.
func UnifyMoveEndpoints(from, to MoveEndpoint) (MoveEndpoint, MoveEndpoint, bool) {
	if from.Kind.IsModule() != to.Kind.IsModule() {
		return from, to, false
	}
	if from.Kind == MoveModuleInstance || to.Kind == MoveModuleInstance {
		from.Kind, to.Kind = MoveModuleInstance, MoveModuleInstance
	}
	if from.Kind == MoveResourceInstance || to.Kind == MoveResourceInstance {
		from.Kind, to.Kind = MoveResourceInstance, MoveResourceInstance
	}
	return from, to, true
}

func movedAddrError(rng hcl.Range, detail string) hcl.Diagnostics {
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid \"moved\" address", Detail: detail, Subject: rng.Ptr()}}
}
