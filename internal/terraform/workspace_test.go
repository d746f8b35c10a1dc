package terraform

import (
	"context"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/internal/providers/builtin"
)

// TestTerraformWorkspace: terraform.workspace is the context's workspace
// ("default" when none is set), at plan and at apply.
func TestTerraformWorkspace(t *testing.T) {
	cfg := loadConfig(t, map[string]string{"main.tf": `
resource "terraform_data" "x" {
  input = "name-${terraform.workspace}"
}
output "ws" { value = terraform.workspace }
output "x" { value = terraform_data.x.output }
`})
	for ws, want := range map[string]string{"": "default", "staging": "staging"} {
		c, diags := NewContext(&ContextOpts{Providers: builtin.Factories(), Workspace: ws})
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		st, diags := c.Apply(context.Background(), mustPlan(t, c, cfg, nil, &PlanOpts{}), cfg, nil)
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		outs := st.RootOutputValues()
		if got := outs["ws"].Value; !got.RawEquals(cty.StringVal(want)) {
			t.Errorf("workspace %q: terraform.workspace = %#v, want %q", ws, got, want)
		}
		if got := outs["x"].Value; !got.RawEquals(cty.StringVal("name-" + want)) {
			t.Errorf("workspace %q: x = %#v", ws, got)
		}
	}
}
