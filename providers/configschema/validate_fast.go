package configschema

import "github.com/zclconf/go-cty/cty"

// validateFast turns the shortcuts of this file on (off for
// BenchmarkValidateValueOf's general path).
var validateFast = true

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

// Conforms reports whether a value of type given conforms to want, as
// given.TestConformance(want) returning no errors does, without building
// the path of each nested type (TestConformance allocates for every
// attribute of an object that is not exactly the wanted type, as when the
// schema has dynamic attributes). Callers run TestConformance for the
// errors when it returns false. O(size of the types).
func Conforms(given, want cty.Type) bool {
	if want.Equals(cty.DynamicPseudoType) || given.Equals(want) {
		return true
	}
	switch {
	case given.IsObjectType() && want.IsObjectType():
		ga, wa := given.AttributeTypes(), want.AttributeTypes()
		if len(ga) != len(wa) {
			return false
		}
		for k, wt := range wa {
			gt, ok := ga[k]
			if !ok || !Conforms(gt, wt) {
				return false
			}
		}
		return true
	case given.IsTupleType() && want.IsTupleType():
		ge, we := given.TupleElementTypes(), want.TupleElementTypes()
		if len(ge) != len(we) {
			return false
		}
		for i := range we {
			if !Conforms(ge[i], we[i]) {
				return false
			}
		}
		return true
	case given.IsListType() && want.IsListType(),
		given.IsMapType() && want.IsMapType(),
		given.IsSetType() && want.IsSetType():
		return Conforms(given.ElementType(), want.ElementType())
	}
	return false
}

// ConformanceErrors is given.TestConformance(want), without its
// allocations when the types conform (Conforms).
func ConformanceErrors(given, want cty.Type) []error {
	if validateFast && Conforms(given, want) {
		return nil
	}
	return given.TestConformance(want)
}
