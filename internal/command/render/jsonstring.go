// This file renders strings that hold a JSON object or array as
// jsonencode(...) with the decoded structure, as Terraform does, so a
// policy document's change shows which field changed.

package render

import (
	"encoding/json"
	"strings"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// jsonValue decodes s when it is a JSON object or array; ok is false for
// anything else (plain strings, JSON scalars, invalid JSON).
// O(len(s)).
func jsonValue(s string) (cty.Value, bool) {
	t := strings.TrimSpace(s)
	if t == "" || (t[0] != '{' && t[0] != '[') || !json.Valid([]byte(t)) {
		return cty.NilVal, false
	}
	ty, err := ctyjson.ImpliedType([]byte(t))
	if err != nil {
		return cty.NilVal, false
	}
	v, err := ctyjson.Unmarshal([]byte(t), ty)
	if err != nil {
		return cty.NilVal, false
	}
	return v, true
}

// jsonWhole renders a JSON string created or destroyed whole (every line
// carrying sym) as jsonencode(...).
func (d *differ) jsonWhole(v cty.Value, indent int, sym string) string {
	var b strings.Builder
	b.WriteString("jsonencode(\n" + d.prefix(indent+4, symNone))
	d.whole(&b, v, indent+4, sym, nil)
	b.WriteString("\n" + strings.Repeat(" ", indent+4) + ")")
	return b.String()
}

// jsonDiff renders a change between two JSON strings as jsonencode(...)
// around the structural difference of their decoded values.
func (d *differ) jsonDiff(b *strings.Builder, bv, av cty.Value, indent int, path cty.Path) {
	b.WriteString("jsonencode(" + d.forces(path) + "\n" + d.prefix(indent+4, action(bv, av)))
	d.value(b, bv, av, indent+4, nil)
	b.WriteString("\n" + strings.Repeat(" ", indent+4) + ")")
}
