package command

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/command/views"
	"github.com/plankit/plankit/internal/lang/marks"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/tfdiags"
)

const stateShowUsage = `Usage: plan state show [options] ADDRESS

  Shows the attributes of one resource instance in the state, sensitive
  ones as (sensitive value).

Options:
  -state=PATH   State file (default terraform.tfstate, or the local
                backend's path).
  -backend-config=KV
                A backend setting KEY=VALUE, or a file of them
                (repeatable), as plan takes.
  -no-color     No colour.
`

var ctyString = cty.String

// StateShow is `plan state show [-state=PATH] ADDRESS`.
func StateShow(m *Meta, chdir string, args []string) int {
	fs := newSubFlagSet("plan state show", stateShowUsage, chdir)
	var f stateFlags
	f.register(fs, false)
	if code, ok := fs.parse(m, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		return usageError(m, "plan state show needs exactly one address")
	}
	u := stateUI(m, f.noColor)
	t, diags := parseStateAddr(fs.Arg(0))
	if diags.HasErrors() {
		u.diags(diags, views.Sources{})
		return ExitError
	}
	st, src, diags := readStateOnly(m, m.workDir(fs.chdir), &f)
	if diags.HasErrors() {
		u.diags(diags, src)
		return ExitError
	}
	if _, ok := t.(addrs.ModuleInstance); ok {
		u.diags(hcl.Diagnostics{tfdiags.Errorf("Invalid address", "%s is a module; state show shows one resource instance. List them with: plan state list %s", t, t)}, src)
		return ExitError
	}
	found := matchingInstances(st, t)
	switch {
	case len(found) == 0:
		u.diags(hcl.Diagnostics{tfdiags.Errorf("No instance found for the given address!",
			"There is no resource instance %s in the state. List the instances with: plan state list", t)}, src)
		return ExitError
	case len(found) > 1:
		u.diags(hcl.Diagnostics{tfdiags.Errorf("Multiple instances found for the given pattern!",
			"%s has %d instances (%s, ...); name one of them, with its key.", t, len(found), found[0])}, src)
		return ExitError
	}
	out, err := showInstance(st, found[0])
	if err != nil {
		u.diags(hcl.Diagnostics{tfdiags.Errorf("Failed to read the instance", "%s: %s", found[0], err)}, src)
		return ExitError
	}
	fmt.Fprint(m.Stdout, out)
	return ExitOK
}

// decodeAttrs decodes an object's attributes without a schema (their
// type is implied by the JSON), with its sensitive paths marked.
func decodeAttrs(obj *states.ResourceInstanceObjectSrc) (cty.Value, error) {
	ty, err := ctyjson.ImpliedType(obj.AttrsJSON)
	if err != nil {
		return cty.NilVal, err
	}
	v, err := ctyjson.Unmarshal(obj.AttrsJSON, ty)
	if err != nil {
		return cty.NilVal, err
	}
	return marks.MarkSensitivePaths(v, obj.AttrSensitivePaths), nil
}

// showInstance renders a's current object (and any deposed ones) as
// Terraform's state show does: a resource block with its non-null
// attributes, names aligned, in name order.
func showInstance(st *states.State, a addrs.AbsResourceInstance) (string, error) {
	ri := st.ResourceInstance(a)
	var b strings.Builder
	keys := []addrs.DeposedKey{addrs.NotDeposed}
	var deposed []string
	for k := range ri.Deposed {
		deposed = append(deposed, string(k))
	}
	sort.Strings(deposed)
	for _, k := range deposed {
		keys = append(keys, addrs.DeposedKey(k))
	}
	for _, k := range keys {
		obj := ri.Object(k)
		if obj == nil {
			continue
		}
		v, err := decodeAttrs(obj)
		if err != nil {
			return "", err
		}
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		if k == addrs.NotDeposed {
			fmt.Fprintf(&b, "# %s:\n", a)
		} else {
			fmt.Fprintf(&b, "# %s: (deposed object %s)\n", a, k)
		}
		r := a.Resource.Resource
		kw := "resource"
		if r.Mode == addrs.DataResourceMode {
			kw = "data"
		}
		fmt.Fprintf(&b, "%s %q %q {\n", kw, r.Type, r.Name)
		writeAttrs(&b, v)
		b.WriteString("}\n")
	}
	return b.String(), nil
}

// writeAttrs writes obj's non-null attributes at four spaces, with the
// "=" signs aligned.
func writeAttrs(b *strings.Builder, obj cty.Value) {
	obj, _ = obj.Unmark()
	if !obj.Type().IsObjectType() || obj.IsNull() {
		return
	}
	var names []string
	width := 0
	for name := range obj.Type().AttributeTypes() {
		if v := obj.GetAttr(name); v.IsNull() {
			continue
		}
		names = append(names, name)
		width = max(width, len(name))
	}
	sort.Strings(names)
	for _, name := range names {
		fmt.Fprintf(b, "    %-*s = %s\n", width, name, stateValue(obj.GetAttr(name), 4))
	}
}

// stateValue renders v as state show does, four spaces a level: strings
// quoted (multi-line ones as heredocs), lists one element a line, maps
// and objects with their keys quoted and aligned, sensitive values as
// (sensitive value). O(size of v).
func stateValue(v cty.Value, indent int) string {
	if v.HasMark(marks.Sensitive) {
		return "(sensitive value)"
	}
	v, _ = v.Unmark()
	ty := v.Type()
	switch {
	case v.IsNull() || !v.IsKnown() || ty.IsPrimitiveType():
		return views.FormatValue(v, indent)
	case v.LengthInt() == 0 && (ty.IsMapType() || ty.IsObjectType()):
		return "{}"
	case v.LengthInt() == 0:
		return "[]"
	}
	pad := strings.Repeat(" ", indent)
	var b strings.Builder
	if ty.IsMapType() || ty.IsObjectType() {
		var keys []string
		width := 0
		for it := v.ElementIterator(); it.Next(); {
			k, _ := it.Element()
			keys = append(keys, k.AsString())
			width = max(width, len(fmt.Sprintf("%q", k.AsString())))
		}
		sort.Strings(keys)
		b.WriteString("{\n")
		for _, k := range keys {
			var ev cty.Value
			if ty.IsObjectType() {
				ev = v.GetAttr(k)
			} else {
				ev = v.Index(cty.StringVal(k))
			}
			fmt.Fprintf(&b, "%s    %-*s = %s\n", pad, width, fmt.Sprintf("%q", k), stateValue(ev, indent+4))
		}
		return b.String() + pad + "}"
	}
	b.WriteString("[\n")
	for it := v.ElementIterator(); it.Next(); {
		_, ev := it.Element()
		fmt.Fprintf(&b, "%s    %s,\n", pad, stateValue(ev, indent+4))
	}
	return b.String() + pad + "]"
}
