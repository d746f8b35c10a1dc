package command

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/command/views"
	"github.com/plankit/plankit/states"
)

const stateListUsage = `Usage: plan state list [options] [ADDRESS...]

  Lists the resource instances in the state, one address a line, in
  address order. With ADDRESS arguments (resources, instances or
  modules), only the instances they contain.

Options:
  -state=PATH   State file (default terraform.tfstate, or the local
                backend's path).
  -backend-config=KV
                A backend setting KEY=VALUE, or a file of them
                (repeatable), as plan takes.
  -id=ID        Only the instances whose "id" attribute is ID.
`

// StateList is `plan state list [-state=PATH] [-id=ID] [ADDRESS...]`.
func StateList(m *Meta, chdir string, args []string) int {
	fs := newSubFlagSet("plan state list", stateListUsage, chdir)
	var f stateFlags
	f.register(fs, false)
	id := fs.String("id", "", "only the instances with this id")
	if code, ok := fs.parse(m, args); !ok {
		return code
	}
	u := stateUI(m, f.noColor)
	wd := m.workDir(fs.chdir)
	var filters []addrs.Targetable
	var diags hcl.Diagnostics
	for _, a := range fs.Args() {
		t, ds := parseStateAddr(a)
		diags = append(diags, ds...)
		filters = append(filters, t)
	}
	if diags.HasErrors() {
		u.diags(diags, views.Sources{})
		return ExitError
	}
	st, src, diags := readStateOnly(m, wd, &f)
	if diags.HasErrors() {
		u.diags(diags, src)
		return ExitError
	}
	if len(filters) == 0 {
		filters = []addrs.Targetable{nil}
	}
	seen := map[string]bool{}
	for _, t := range filters {
		for _, a := range matchingInstances(st, t) {
			if seen[a.String()] || (*id != "" && instanceID(st, a) != *id) {
				continue
			}
			seen[a.String()] = true
			fmt.Fprintln(m.Stdout, a)
		}
	}
	return ExitOK
}

// instanceID is the "id" attribute of a's current object, or "".
func instanceID(st *states.State, a addrs.AbsResourceInstance) string {
	obj := st.ResourceInstanceObject(a, addrs.NotDeposed)
	if obj == nil {
		return ""
	}
	v, err := decodeAttrs(obj)
	if err != nil || !v.Type().IsObjectType() || !v.Type().HasAttribute("id") {
		return ""
	}
	idv := v.GetAttr("id")
	if idv.IsNull() || !idv.IsKnown() || !idv.Type().Equals(ctyString) {
		return ""
	}
	return idv.AsString()
}
