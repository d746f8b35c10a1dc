package configschema

import "github.com/zclconf/go-cty/cty"

// hasValueChecks reports whether validateValue has anything to report or
// descend into for the known, non-null object val: a required attribute
// that is null, a nested attribute, or a nested block type. Most resource
// schemas (terraform_data, null_resource) have none, and this check does
// not allocate, unlike the sorted walk. O(attributes).
func (b *Block) hasValueChecks(val cty.Value) bool {
	if len(b.BlockTypes) > 0 {
		return true
	}
	ty := val.Type()
	for name, a := range b.Attributes {
		if a.NestedType != nil {
			return true
		}
		if a.Required && (!ty.IsObjectType() || !ty.HasAttribute(name) || val.GetAttr(name).IsNull()) {
			return true
		}
	}
	return false
}
