package marks

import "github.com/zclconf/go-cty/cty"

// HasMarksDeep reports whether v or any value nested in it carries a mark.
// Unlike cty's ContainsMarked it does not build a path for each nested
// value, so an unmarked object (the common case for resource values) is
// checked without allocating. O(size of v).
func HasMarksDeep(v cty.Value) bool {
	if v.IsMarked() {
		return true
	}
	if v.IsNull() || !v.IsKnown() {
		return false
	}
	ty := v.Type()
	switch {
	case ty.IsObjectType():
		for name := range ty.AttributeTypes() {
			if HasMarksDeep(v.GetAttr(name)) {
				return true
			}
		}
	case ty.IsListType(), ty.IsSetType(), ty.IsMapType(), ty.IsTupleType():
		for it := v.ElementIterator(); it.Next(); {
			_, ev := it.Element()
			if HasMarksDeep(ev) {
				return true
			}
		}
	}
	return false
}

// UnmarkDeepWithPaths is v.UnmarkDeepWithPaths() that returns v itself and
// no paths, without copying it, when nothing in v is marked.
func UnmarkDeepWithPaths(v cty.Value) (cty.Value, []cty.PathValueMarks) {
	if !HasMarksDeep(v) {
		return v, nil
	}
	return v.UnmarkDeepWithPaths()
}
