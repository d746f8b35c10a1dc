package addrs

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
)

// Reference is a reference from an expression to something referenceable,
// with the range it was written at and the attribute traversal after it
// (e.g. ".id" in aws_instance.a.id).
type Reference struct {
	Subject     Referenceable
	SourceRange hcl.Range
	Remaining   hcl.Traversal
}

// String returns the subject's address.
func (r *Reference) String() string { return r.Subject.String() }

// ParseRef interprets an absolute traversal (as hcl's Variables() returns
// them) as a reference. Errors name the traversal's source range.
func ParseRef(trav hcl.Traversal) (*Reference, hcl.Diagnostics) {
	root := trav.RootName()
	rootRange := trav[0].SourceRange()
	switch root {
	case "count":
		return parseSingleAttrRef(trav, func(n string) Referenceable { return CountAttr{Name: n} }, "count.index", "index")
	case "each":
		return parseSingleAttrRef(trav, func(n string) Referenceable { return ForEachAttr{Name: n} }, "each.key or each.value", "key", "value")
	case "path":
		return parseSingleAttrRef(trav, func(n string) Referenceable { return PathAttr{Name: n} }, "path.module, path.root or path.cwd", "module", "root", "cwd")
	case "terraform":
		return parseSingleAttrRef(trav, func(n string) Referenceable { return TerraformAttr{Name: n} }, "terraform.workspace or terraform.applying", "workspace", "applying")
	case "var":
		return parseNamedRef(trav, "an input variable", func(n string) Referenceable { return InputVariable{Name: n} })
	case "local":
		return parseNamedRef(trav, "a local value", func(n string) Referenceable { return LocalValue{Name: n} })
	case "self":
		return &Reference{Subject: Self, SourceRange: rootRange, Remaining: trav[1:]}, nil
	case "module":
		return parseModuleRef(trav)
	case "data":
		if len(trav) < 3 {
			return nil, refError(trav, "Invalid reference",
				`The "data" object must be followed by two attribute names: the data source type and the resource name.`)
		}
		return parseResourceRef(DataResourceMode, trav[1:], trav)
	case "ephemeral":
		if len(trav) < 3 {
			return nil, refError(trav, "Invalid reference",
				`The "ephemeral" object must be followed by two attribute names: the ephemeral resource type and the resource name.`)
		}
		return parseResourceRef(EphemeralResourceMode, trav[1:], trav)
	case "resource", "template", "lazy", "arg", "provider":
		return nil, refError(trav, "Reserved symbol name",
			fmt.Sprintf("The symbol name %q is reserved for use in a future version; it cannot be referenced here.", root))
	default:
		return parseResourceRef(ManagedResourceMode, trav, trav)
	}
}

// parseSingleAttrRef parses ROOT.ATTR where ATTR must be one of allowed.
func parseSingleAttrRef(trav hcl.Traversal, mk func(string) Referenceable, want string, allowed ...string) (*Reference, hcl.Diagnostics) {
	root := trav.RootName()
	if len(trav) < 2 {
		return nil, refError(trav, "Invalid reference",
			fmt.Sprintf("The %q object cannot be accessed directly. Instead, access one of its attributes: %s.", root, want))
	}
	attr, ok := trav[1].(hcl.TraverseAttr)
	if !ok {
		return nil, refError(trav, "Invalid reference",
			fmt.Sprintf("The %q object does not support this operation; use %s.", root, want))
	}
	for _, a := range allowed {
		if attr.Name == a {
			return &Reference{Subject: mk(attr.Name), SourceRange: hcl.RangeBetween(trav[0].SourceRange(), trav[1].SourceRange()), Remaining: trav[2:]}, nil
		}
	}
	return nil, refError(trav, "Invalid reference",
		fmt.Sprintf("The %q object does not have an attribute named %q. The only supported ones are %s.", root, attr.Name, want))
}

func parseNamedRef(trav hcl.Traversal, what string, mk func(string) Referenceable) (*Reference, hcl.Diagnostics) {
	root := trav.RootName()
	if len(trav) < 2 {
		return nil, refError(trav, "Invalid reference",
			fmt.Sprintf("The %q object cannot be accessed directly. Instead, access %s by name, like %s.NAME.", root, what, root))
	}
	attr, ok := trav[1].(hcl.TraverseAttr)
	if !ok {
		return nil, refError(trav, "Invalid reference",
			fmt.Sprintf("A reference to %s must give its name after a dot, like %s.NAME.", what, root))
	}
	return &Reference{Subject: mk(attr.Name), SourceRange: hcl.RangeBetween(trav[0].SourceRange(), trav[1].SourceRange()), Remaining: trav[2:]}, nil
}

func parseModuleRef(trav hcl.Traversal) (*Reference, hcl.Diagnostics) {
	if len(trav) < 2 {
		return nil, refError(trav, "Invalid reference",
			`The "module" object cannot be accessed directly. Instead, access a module call by name, like module.NAME.`)
	}
	nameStep, ok := trav[1].(hcl.TraverseAttr)
	if !ok {
		return nil, refError(trav, "Invalid reference", "A module call name must follow module and a dot, like module.NAME.")
	}
	call := ModuleCall{Name: nameStep.Name}
	rng := hcl.RangeBetween(trav[0].SourceRange(), trav[1].SourceRange())
	rest := trav[2:]
	if len(rest) == 0 {
		return &Reference{Subject: call, SourceRange: rng}, nil
	}
	inst := ModuleCallInstance{Call: call, Key: NoKey}
	keyed := false
	if idx, ok := rest[0].(hcl.TraverseIndex); ok {
		key, err := ParseInstanceKey(idx.Key)
		if err != nil {
			return nil, refError(trav, "Invalid index", fmt.Sprintf("Invalid module instance key: %s.", err))
		}
		inst.Key = key
		keyed = true
		rng = hcl.RangeBetween(rng, idx.SourceRange())
		rest = rest[1:]
	}
	if len(rest) == 0 {
		return &Reference{Subject: inst, SourceRange: rng}, nil
	}
	out, ok := rest[0].(hcl.TraverseAttr)
	if !ok {
		if keyed {
			return nil, refError(trav, "Invalid reference", "A module instance can be followed only by the name of one of its outputs.")
		}
		return &Reference{Subject: call, SourceRange: rng, Remaining: rest}, nil
	}
	return &Reference{
		Subject:     ModuleCallInstanceOutput{Call: inst, Name: out.Name},
		SourceRange: hcl.RangeBetween(rng, out.SourceRange()),
		Remaining:   rest[1:],
	}, nil
}

// parseResourceRef parses TYPE.NAME[KEY]... from trav (which starts at the
// type); whole is the complete traversal, for error ranges.
func parseResourceRef(mode ResourceMode, trav, whole hcl.Traversal) (*Reference, hcl.Diagnostics) {
	var typeName string
	switch t := trav[0].(type) {
	case hcl.TraverseRoot:
		typeName = t.Name
	case hcl.TraverseAttr:
		typeName = t.Name
	default:
		return nil, refError(whole, "Invalid reference", "A resource reference must start with the resource type.")
	}
	if len(trav) < 2 {
		return nil, refError(whole, "Invalid reference",
			fmt.Sprintf("A reference to a resource type must be followed by at least one attribute access, specifying the resource name, like %s.NAME. If %q is meant to be a variable, write var.%s.", typeName, typeName, typeName))
	}
	nameStep, ok := trav[1].(hcl.TraverseAttr)
	if !ok {
		return nil, refError(whole, "Invalid reference", "A resource type must be followed by a dot and the resource name.")
	}
	res := Resource{Mode: mode, Type: typeName, Name: nameStep.Name}
	rng := hcl.RangeBetween(whole[0].SourceRange(), nameStep.SourceRange())
	rest := trav[2:]
	if len(rest) > 0 {
		if idx, ok := rest[0].(hcl.TraverseIndex); ok {
			key, err := ParseInstanceKey(idx.Key)
			if err != nil {
				return nil, refError(whole, "Invalid index", fmt.Sprintf("Invalid resource instance key: %s.", err))
			}
			return &Reference{
				Subject:     res.Instance(key),
				SourceRange: hcl.RangeBetween(rng, idx.SourceRange()),
				Remaining:   rest[1:],
			}, nil
		}
	}
	return &Reference{Subject: res, SourceRange: rng, Remaining: rest}, nil
}

func refError(trav hcl.Traversal, summary, detail string) hcl.Diagnostics {
	rng := trav.SourceRange()
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: &rng}}
}
