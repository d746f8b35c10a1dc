package configschema

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"
)

// DecoderSpec returns an hcldec.Spec that decodes a configuration body into
// a value of b.ImpliedType(). Decoding reports, with source ranges:
// arguments and blocks the schema does not know ("Unsupported argument"),
// missing required arguments, values of the wrong type, block counts outside
// MinItems/MaxItems, and arguments that are computed-only (the provider sets
// them; configuration may not). Unset computed-only attributes decode as
// null. Building the spec is O(size of the schema); keep it when decoding
// many bodies.
func (b *Block) DecoderSpec() hcldec.Spec {
	ret := hcldec.ObjectSpec{}
	if b == nil {
		return ret
	}
	for name, a := range b.Attributes {
		ret[name] = a.decoderSpec(name)
	}
	for name, nb := range b.BlockTypes {
		ret[name] = nb.decoderSpec(name)
	}
	return ret
}

func (a *Attribute) decoderSpec(name string) hcldec.Spec {
	if a.NestedType != nil {
		return a.nestedDecoderSpec(name)
	}
	spec := &hcldec.AttrSpec{Name: name, Type: a.Type, Required: a.Required}
	if !a.ComputedOnly() {
		return spec
	}
	return &hcldec.ValidateSpec{
		Wrapped: spec,
		Func: func(v cty.Value) hcl.Diagnostics {
			if v.IsNull() {
				return nil
			}
			return hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Value for unconfigurable attribute",
				Detail:   fmt.Sprintf("Can't configure a value for %q: its value will be decided automatically by the provider. Remove this argument.", name),
			}}
		},
	}
}

func (nb *NestedBlock) decoderSpec(name string) hcldec.Spec {
	child := nb.Block.DecoderSpec()
	dynamic := nb.Block.ImpliedType().HasDynamicTypes()
	switch nb.Nesting {
	case NestingSingle:
		return &hcldec.BlockSpec{TypeName: name, Nested: child, Required: nb.MinItems >= 1}
	case NestingGroup:
		return &hcldec.DefaultSpec{
			Primary: &hcldec.BlockSpec{TypeName: name, Nested: child},
			Default: &hcldec.LiteralSpec{Value: nb.Block.EmptyValue()},
		}
	case NestingList:
		if dynamic {
			return &hcldec.BlockTupleSpec{TypeName: name, Nested: child, MinItems: nb.MinItems, MaxItems: nb.MaxItems}
		}
		return &hcldec.BlockListSpec{TypeName: name, Nested: child, MinItems: nb.MinItems, MaxItems: nb.MaxItems}
	case NestingSet:
		return &hcldec.BlockSetSpec{TypeName: name, Nested: child, MinItems: nb.MinItems, MaxItems: nb.MaxItems}
	case NestingMap:
		if dynamic {
			return &hcldec.BlockObjectSpec{TypeName: name, Nested: child, LabelNames: []string{"key"}}
		}
		return &hcldec.BlockMapSpec{TypeName: name, Nested: child, LabelNames: []string{"key"}}
	default:
		// An invalid nesting mode is a provider bug caught by
		// InternalValidate; decode nothing rather than panic.
		return &hcldec.LiteralSpec{Value: cty.NullVal(cty.DynamicPseudoType)}
	}
}

// Decode decodes body against the schema in ctx: a convenience for
// hcldec.Decode(body, b.DecoderSpec(), ctx).
func (b *Block) Decode(body hcl.Body, ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	return hcldec.Decode(body, b.DecoderSpec(), ctx)
}
