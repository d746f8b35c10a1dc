// Package marks holds the cty value marks plankit attaches to values, and
// helpers to move marks between a marked value and the path lists that state
// and plan files record.
//
// Sensitive: a value carries it when it came from a sensitive variable or
// output, a sensitive provider attribute, or the sensitive() function.
// Ephemeral: a value carries it when it came from an ephemeral resource, an
// ephemeral variable or output, or terraform.applying; such a value may be
// used only where it is never stored (plan, state, archive). go-cty
// functions carry marks from arguments to results, so a mark follows the
// value through expressions.
package marks

import (
	"github.com/zclconf/go-cty/cty"
)

// valueMark is unexported so no other package can mint a mark that compares
// equal to ours by accident; callers use the exported constants.
type valueMark string

// GoString makes marks readable in test diffs and %#v output.
func (m valueMark) GoString() string {
	return "marks." + string(m)
}

// Sensitive marks a value whose content must not be shown in plan output,
// logs or diagnostics. It compares equal only to itself.
const Sensitive = valueMark("Sensitive")

// Ephemeral marks a value that must never be written to a plan, a state, an
// archive or a log: it may flow only into provider configuration,
// provisioners, locals, write-only arguments, ephemeral blocks and ephemeral
// variables and outputs. It compares equal only to itself.
const Ephemeral = valueMark("Ephemeral")

// Has reports whether v itself (not a nested element) carries mark m. O(1).
func Has(v cty.Value, m any) bool {
	return v.HasMark(m)
}

// Contains reports whether v or any value nested inside it carries mark m.
// It walks v until the first value carrying m, building no unmarked copy:
// O(size of v) at worst.
func Contains(v cty.Value, m any) bool {
	return v.HasMarkDeep(m)
}

// UnmarkPaths removes every mark from v, however deep, and returns the
// unmarked value with the marks it carried and where. The paths come in
// cty's walk order, which is deterministic (object attributes and map keys
// sorted). O(size of v).
func UnmarkPaths(v cty.Value) (cty.Value, []cty.PathValueMarks) {
	return v.UnmarkDeepWithPaths()
}

// MarkPaths applies marks recorded by UnmarkPaths (or read back from state)
// to v. Paths that do not exist in v are ignored, so marks recorded against
// an older value shape cannot make this fail. O(size of v).
func MarkPaths(v cty.Value, pvms []cty.PathValueMarks) cty.Value {
	if len(pvms) == 0 {
		return v
	}
	return v.MarkWithPaths(pvms)
}

// SensitivePaths returns the paths within v that carry the Sensitive mark,
// in walk order, and v with all marks removed. It is the shape state and
// plan files store ("sensitive_attributes"). O(size of v).
func SensitivePaths(v cty.Value) (cty.Value, []cty.Path) {
	unmarked, pvms := UnmarkDeepWithPaths(v)
	var paths []cty.Path
	for _, pvm := range pvms {
		if _, ok := pvm.Marks[Sensitive]; ok {
			paths = append(paths, pvm.Path)
		}
	}
	return unmarked, paths
}

// MarkSensitivePaths marks the value at each of paths within v as
// Sensitive; the inverse of SensitivePaths. O(size of v).
func MarkSensitivePaths(v cty.Value, paths []cty.Path) cty.Value {
	if len(paths) == 0 {
		return v
	}
	pvms := make([]cty.PathValueMarks, len(paths))
	for i, p := range paths {
		pvms[i] = cty.PathValueMarks{Path: p, Marks: cty.NewValueMarks(Sensitive)}
	}
	return v.MarkWithPaths(pvms)
}

// RemoveDeep returns v with mark m removed everywhere it appears, leaving
// other marks in place. O(size of v).
func RemoveDeep(v cty.Value, m any) cty.Value {
	if !v.ContainsMarked() {
		return v
	}
	unmarked, pvms := v.UnmarkDeepWithPaths()
	kept := pvms[:0:0]
	for _, pvm := range pvms {
		if _, ok := pvm.Marks[m]; !ok {
			kept = append(kept, pvm)
			continue
		}
		rest := make(cty.ValueMarks, len(pvm.Marks))
		for k := range pvm.Marks {
			if k != m {
				rest[k] = struct{}{}
			}
		}
		if len(rest) > 0 {
			kept = append(kept, cty.PathValueMarks{Path: pvm.Path, Marks: rest})
		}
	}
	return MarkPaths(unmarked, kept)
}
