package terraform

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/plans"
)

// TestNullRootOutputNotStored: as in Terraform, a root output whose value
// is null is not kept in the state; one that becomes null is planned as an
// update to null (a delete is for an output no longer declared), and the
// plan after that apply has no output change.
func TestNullRootOutputNotStored(t *testing.T) {
	cfg := loadConfig(t, map[string]string{"main.tf": `
variable "on" { type = bool }
resource "terraform_data" "x" {
  count = var.on ? 1 : 0
  input = "x"
}
output "x" { value = one(terraform_data.x[*].output) }
output "never" { value = null }
`})
	c := builtinContext(t)
	opts := func(on bool) *PlanOpts {
		return &PlanOpts{SetVariables: InputValues{"on": {Value: cty.BoolVal(on), SourceType: ValueFromCLIArg}}}
	}
	outputActions := func(p *plans.Plan) map[string]string {
		out := map[string]string{}
		for _, oc := range p.Changes.Outputs {
			out[oc.Addr.OutputValue.Name] = oc.Action.String()
		}
		return out
	}
	st, diags := c.Apply(context.Background(), mustPlan(t, c, cfg, nil, opts(true)), cfg, nil)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if _, ok := st.RootOutputValues()["never"]; ok {
		t.Errorf("null output stored: %v", st.RootOutputValues())
	}
	off := mustPlan(t, c, cfg, st, opts(false))
	if d := cmp.Diff(map[string]string{"x": "Update", "never": "NoOp"}, outputActions(off)); d != "" {
		t.Errorf("output actions when x becomes null (-want +got):\n%s", d)
	}
	st, diags = c.Apply(context.Background(), off, cfg, nil)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if outs := st.RootOutputValues(); len(outs) != 0 {
		t.Errorf("outputs after x became null: %v", outs)
	}
	again := mustPlan(t, c, cfg, st, opts(false))
	if d := cmp.Diff(map[string]string{"x": "NoOp", "never": "NoOp"}, outputActions(again)); d != "" {
		t.Errorf("output actions of the next plan (-want +got):\n%s", d)
	}
}
