package configschema

import (
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/tfdiags"
)

// ValidateValue checks that val conforms to the schema: it has the implied
// type (or converts to it losslessly where only dynamic parts differ), every
// required attribute of a present block is set (unknown counts as set), and
// known collections of nested blocks respect MinItems/MaxItems. Each problem
// is one error diagnostic carrying its attribute path (tfdiags.WithPath).
// Use it on values that did not come through DecoderSpec, such as a
// provider's responses. O(size of val).
func (b *Block) ValidateValue(val cty.Value) hcl.Diagnostics {
	return b.ValidateValueOf(val, b.ImpliedType())
}

// ValidateValueOf is ValidateValue with the block's implied type (want)
// computed once by the caller: a provider validating many values of one
// schema saves building the type for each.
func (b *Block) ValidateValueOf(val cty.Value, want cty.Type) hcl.Diagnostics {
	if errs := ConformanceErrors(val.Type(), want); len(errs) > 0 {
		var diags hcl.Diagnostics
		for _, err := range errs {
			diags = append(diags, tfdiags.WithPath(
				tfdiags.Errorf("Value does not conform to schema", "%s", errorText(err)),
				pathOfError(err)))
		}
		return diags
	}
	var diags hcl.Diagnostics
	b.validateValue(val, nil, &diags)
	return diags
}

func (b *Block) validateValue(val cty.Value, path cty.Path, diags *hcl.Diagnostics) {
	if b == nil || val.IsNull() || !val.IsKnown() || validateFast && !b.hasValueChecks(val) {
		return
	}
	for _, name := range slices.Sorted(maps.Keys(b.Attributes)) {
		a := b.Attributes[name]
		if a.Required && val.GetAttr(name).IsNull() {
			p := append(path.Copy(), cty.GetAttrStep{Name: name})
			*diags = append(*diags, tfdiags.WithPath(
				tfdiags.Errorf("Missing required argument", "The argument %q is required, but no definition was found.", name), p))
		}
		if a.NestedType != nil {
			a.NestedType.validateValue(val.GetAttr(name), append(path.Copy(), cty.GetAttrStep{Name: name}), diags)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(b.BlockTypes)) {
		nb := b.BlockTypes[name]
		bv := val.GetAttr(name)
		p := append(path.Copy(), cty.GetAttrStep{Name: name})
		switch nb.Nesting {
		case NestingSingle, NestingGroup:
			if bv.IsNull() && nb.MinItems > 0 {
				*diags = append(*diags, tfdiags.WithPath(
					tfdiags.Errorf("Missing required block", "A %q block is required.", name), p))
			}
			nb.Block.validateValue(bv, p, diags)
		default:
			if bv.IsNull() || !bv.IsKnown() || !bv.CanIterateElements() {
				continue
			}
			n := bv.LengthInt()
			if nb.MinItems > 0 && n < nb.MinItems {
				*diags = append(*diags, tfdiags.WithPath(
					tfdiags.Errorf("Insufficient "+name+" blocks", "At least %d %q blocks are required; found %d.", nb.MinItems, name, n), p))
			}
			if nb.MaxItems > 0 && n > nb.MaxItems {
				*diags = append(*diags, tfdiags.WithPath(
					tfdiags.Errorf("Too many "+name+" blocks", "No more than %d %q blocks are allowed; found %d.", nb.MaxItems, name, n), p))
			}
			for it := bv.ElementIterator(); it.Next(); {
				k, ev := it.Element()
				nb.Block.validateValue(ev, append(p.Copy(), cty.IndexStep{Key: k}), diags)
			}
		}
	}
}

func pathOfError(err error) cty.Path {
	if pe, ok := err.(cty.PathError); ok {
		return pe.Path
	}
	return nil
}

func errorText(err error) string {
	if pe, ok := err.(cty.PathError); ok && len(pe.Path) > 0 {
		return fmt.Sprintf("%s: %s", FormatPath(pe.Path), pe.Error())
	}
	return err.Error()
}

// FormatPath renders a cty.Path the way users write references:
// a.b[0]["k"] (tfdiags.FormatPath).
func FormatPath(path cty.Path) string { return tfdiags.FormatPath(path) }

var validName = regexp.MustCompile(`^[a-z0-9_]+$`)

// InternalValidate checks the schema itself for provider bugs: names must
// be lower-case identifiers, each attribute exactly one of required,
// optional, computed or optional+computed, with a type; attribute and block
// names must not collide; nesting modes must be valid and item bounds
// consistent. It returns nil for a sound schema.
func (b *Block) InternalValidate() error {
	var errs []error
	b.internalValidate("", &errs)
	if len(errs) == 0 {
		return nil
	}
	return fmt.Errorf("invalid schema: %w", errors.Join(errs...))
}

func (b *Block) internalValidate(prefix string, errs *[]error) {
	if b == nil {
		return
	}
	for _, name := range slices.Sorted(maps.Keys(b.Attributes)) {
		a := b.Attributes[name]
		full := prefix + name
		switch {
		case !validName.MatchString(name):
			*errs = append(*errs, fmt.Errorf("%s: invalid name", full))
		case a == nil:
			*errs = append(*errs, fmt.Errorf("%s: nil attribute", full))
		case a.Type == cty.NilType && a.NestedType == nil:
			*errs = append(*errs, fmt.Errorf("%s: attribute has no type", full))
		case a.NestedType != nil && a.Type != cty.NilType && !a.Type.Equals(a.NestedType.ImpliedType()):
			*errs = append(*errs, fmt.Errorf("%s: Type contradicts NestedType", full))
		case a.Required && (a.Optional || a.Computed):
			*errs = append(*errs, fmt.Errorf("%s: required attribute cannot also be optional or computed", full))
		case !a.Required && !a.Optional && !a.Computed:
			*errs = append(*errs, fmt.Errorf("%s: attribute must be required, optional or computed", full))
		case a.NestedType != nil:
			a.NestedType.internalValidate(full, errs)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(b.BlockTypes)) {
		nb := b.BlockTypes[name]
		full := prefix + name
		if _, dup := b.Attributes[name]; dup {
			*errs = append(*errs, fmt.Errorf("%s: name used by both an attribute and a block type", full))
		}
		if !validName.MatchString(name) {
			*errs = append(*errs, fmt.Errorf("%s: invalid name", full))
		}
		if nb == nil {
			*errs = append(*errs, fmt.Errorf("%s: nil block type", full))
			continue
		}
		switch nb.Nesting {
		case NestingSingle, NestingGroup:
			if nb.MinItems > 1 || nb.MaxItems > 1 {
				*errs = append(*errs, fmt.Errorf("%s: single/group nesting allows MinItems and MaxItems of 0 or 1 only", full))
			}
		case NestingList, NestingSet, NestingMap:
			if nb.MinItems < 0 || nb.MaxItems < 0 || (nb.MaxItems > 0 && nb.MinItems > nb.MaxItems) {
				*errs = append(*errs, fmt.Errorf("%s: inconsistent MinItems/MaxItems", full))
			}
		default:
			*errs = append(*errs, fmt.Errorf("%s: invalid nesting mode %s", full, nb.Nesting))
		}
		nb.Block.internalValidate(full+".", errs)
	}
}
