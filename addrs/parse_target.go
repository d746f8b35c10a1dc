package addrs

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// Targetable is what -target and -replace may name: a module instance, a
// resource (all its instances) or a resource instance.
type Targetable interface {
	targetableSigil()
	String() string
}

func (ModuleInstance) targetableSigil()      {}
func (AbsResource) targetableSigil()         {}
func (AbsResourceInstance) targetableSigil() {}

// Target is a parsed -target argument.
type Target struct {
	Subject     Targetable
	SourceRange hcl.Range
}

// TargetContains reports whether target t includes instance r: the same
// instance, an instance of the same resource, or something inside the
// module instance. A module step written without a key (-target=module.m)
// stands for the whole module call, so it contains every instance of it,
// as in Terraform since module expansion.
func TargetContains(t Targetable, r AbsResourceInstance) bool {
	switch t := t.(type) {
	case ModuleInstance:
		return targetModuleContains(t, r.Module)
	case AbsResource:
		return t.Equal(r.ContainingResource())
	case AbsResourceInstance:
		return t.Equal(r)
	}
	return false
}

func targetModuleContains(t, m ModuleInstance) bool {
	if len(m) < len(t) {
		return false
	}
	for i, step := range t {
		if step.Name != m[i].Name {
			return false
		}
		if step.InstanceKey != NoKey && step.InstanceKey != m[i].InstanceKey {
			return false
		}
	}
	return true
}

// ParseTarget parses a traversal such as module.a[0].aws_instance.b["x"].
func ParseTarget(trav hcl.Traversal) (*Target, hcl.Diagnostics) {
	mod, rest, diags := parseModuleInstancePrefix(trav)
	if diags.HasErrors() {
		return nil, diags
	}
	rng := trav.SourceRange()
	if len(rest) == 0 {
		return &Target{Subject: mod, SourceRange: rng}, nil
	}
	mode := ManagedResourceMode
	switch firstName(rest) {
	case "data":
		mode = DataResourceMode
		rest = rest[1:]
	case "ephemeral":
		mode = EphemeralResourceMode
		rest = rest[1:]
	}
	if len(rest) < 2 {
		return nil, targetError(rng, "a resource address needs a type and a name, like aws_instance.example")
	}
	typeName, ok := StepName(rest[0])
	if !ok {
		return nil, targetError(rng, "a resource type name was expected")
	}
	name, ok := StepName(rest[1])
	if !ok {
		return nil, targetError(rng, "a resource name was expected after the type")
	}
	res := Resource{Mode: mode, Type: typeName, Name: name}.Absolute(mod)
	switch len(rest) {
	case 2:
		return &Target{Subject: res, SourceRange: rng}, nil
	case 3:
		idx, ok := rest[2].(hcl.TraverseIndex)
		if !ok {
			return nil, targetError(rng, "only an instance key in brackets may follow the resource name")
		}
		key, err := ParseInstanceKey(idx.Key)
		if err != nil {
			return nil, targetError(rng, err.Error())
		}
		return &Target{Subject: res.Instance(key), SourceRange: rng}, nil
	default:
		return nil, targetError(rng, "unexpected extra parts after the resource instance address")
	}
}

// ParseTargetStr parses a -target string.
func ParseTargetStr(s string) (*Target, hcl.Diagnostics) {
	trav, diags := hclsyntax.ParseTraversalAbs([]byte(s), "", hcl.InitialPos)
	if diags.HasErrors() {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid target address",
			Detail:   fmt.Sprintf("%q is not a valid address: write a resource address such as aws_instance.a, aws_instance.a[0] or module.m.", s),
		}}
	}
	return ParseTarget(trav)
}

// ParseAbsResourceInstanceStr parses e.g. `module.a["x"].null_resource.b[0]`.
// An address without a key is the instance with no key.
func ParseAbsResourceInstanceStr(s string) (AbsResourceInstance, hcl.Diagnostics) {
	t, diags := ParseTargetStr(s)
	if diags.HasErrors() {
		return AbsResourceInstance{}, diags
	}
	switch sub := t.Subject.(type) {
	case AbsResourceInstance:
		return sub, nil
	case AbsResource:
		return sub.Instance(NoKey), nil
	}
	return AbsResourceInstance{}, targetError(t.SourceRange, "a resource instance address was expected, not a module")
}

// ParseModuleInstanceStr parses e.g. `module.a["x"].module.b`.
func ParseModuleInstanceStr(s string) (ModuleInstance, hcl.Diagnostics) {
	if s == "" {
		return RootModuleInstance, nil
	}
	trav, diags := hclsyntax.ParseTraversalAbs([]byte(s), "", hcl.InitialPos)
	if diags.HasErrors() {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid module instance address",
			Detail: fmt.Sprintf("%q is not a valid module instance address such as module.a or module.a[0].", s)}}
	}
	mod, rest, diags := parseModuleInstancePrefix(trav)
	if diags.HasErrors() {
		return nil, diags
	}
	if len(rest) > 0 {
		return nil, targetError(trav.SourceRange(), "a module instance address has only module.NAME steps")
	}
	return mod, nil
}

// parseModuleInstancePrefix consumes leading module.NAME[KEY] steps. The
// rest may start with a TraverseAttr; callers read it with StepName.
func parseModuleInstancePrefix(trav hcl.Traversal) (ModuleInstance, hcl.Traversal, hcl.Diagnostics) {
	var mod ModuleInstance
	for len(trav) > 0 {
		if n, ok := StepName(trav[0]); !ok || n != "module" {
			break
		}
		if len(trav) < 2 {
			return nil, nil, targetError(trav.SourceRange(), "module must be followed by a module name")
		}
		name, ok := trav[1].(hcl.TraverseAttr)
		if !ok {
			return nil, nil, targetError(trav.SourceRange(), "module must be followed by a dot and a module name")
		}
		trav = trav[2:]
		var key InstanceKey = NoKey
		if len(trav) > 0 {
			if idx, ok := trav[0].(hcl.TraverseIndex); ok {
				k, err := ParseInstanceKey(idx.Key)
				if err != nil {
					return nil, nil, targetError(idx.SourceRange(), err.Error())
				}
				key = k
				trav = trav[1:]
			}
		}
		mod = mod.Child(name.Name, key)
	}
	return mod, trav, nil
}

// StepName is the name of a traversal's root or attribute step; false for
// an index or splat step.
func StepName(s hcl.Traverser) (string, bool) {
	switch s := s.(type) {
	case hcl.TraverseRoot:
		return s.Name, true
	case hcl.TraverseAttr:
		return s.Name, true
	}
	return "", false
}

func targetError(rng hcl.Range, why string) hcl.Diagnostics {
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid address", Detail: why + ".", Subject: &rng}}
}
