package terraform

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/internal/providers/providertest"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
	"github.com/plankit/plankit/states"
)

// ephemeralProvider is the test provider with a provider argument (token)
// and test_wo, whose password_wo is write-only.
func ephemeralProvider() *providertest.Provider {
	p := newTestProvider()
	p.Schema.Provider = providers.Schema{Block: &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"token": {Type: cty.String, Optional: true},
	}}}
	p.Schema.ResourceTypes["test_wo"] = providers.Schema{Block: &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"id":          {Type: cty.String, Computed: true},
		"name":        {Type: cty.String, Optional: true},
		"password_wo": {Type: cty.String, Optional: true, WriteOnly: true},
	}}}
	return p
}

const ephemeralVar = `
variable "secret" {
  type      = string
  ephemeral = true
}
`

func secretVars() *PlanOpts {
	return &PlanOpts{SetVariables: InputValues{"secret": {Value: cty.StringVal("s3cr3t"), SourceType: ValueFromCLIArg}}}
}

// diagPlaces renders error and warning diagnostics as "SEVERITY file:line:
// summary", the place they name.
func diagPlaces(diags hcl.Diagnostics) []string {
	var out []string
	for _, d := range diags {
		sev := "error"
		if d.Severity == hcl.DiagWarning {
			sev = "warning"
		}
		place := "-"
		if d.Subject != nil {
			place = d.Subject.Filename + ":" + itoa(d.Subject.Start.Line)
		}
		out = append(out, sev+" "+place+": "+d.Summary)
	}
	return out
}

func itoa(i int) string { return cty.NumberIntVal(int64(i)).AsBigFloat().String() }

// Where an ephemeral value may go, and the error naming the place where it
// may not, in a plan and in validate.
func TestEphemeralFlowRules(t *testing.T) {
	child := map[string]string{
		"c/main.tf": `
variable "in" {
  ephemeral = true
}
variable "plain" {
  default = null
}
output "o" {
  value     = "${var.in}-c"
  ephemeral = true
}
`,
	}
	tests := []struct {
		name string
		main string
		// want are the diagnostics of the plan (and of validate, unless
		// planOnly); wantDetail is a part of the first one's detail.
		want       []string
		wantDetail string
		planOnly   bool
	}{
		{name: "allowed: local, provider configuration, write-only argument, ephemeral child variable and output, ephemeralasnull",
			main: `
locals { l = "${var.secret}-x" }
provider "test" { token = local.l }
resource "test_wo" "w" {
  name        = "w"
  password_wo = local.l
}
module "c" {
  source = "./c"
  in     = local.l
}
resource "test_wo" "v" { password_wo = module.c.o }
resource "test_thing" "t" { name = ephemeralasnull(local.l) }
output "n" { value = ephemeralasnull({ a = local.l, b = "keep" }) }
`},
		{name: "managed resource argument", main: `
resource "test_thing" "t" {
  name = "${var.secret}-x"
}`, want: []string{"error main.tf:8: Ephemeral value in a resource argument"}, wantDetail: "argument name of test_thing.t"},
		{name: "not the write-only one", main: `
resource "test_wo" "w" {
  password_wo = var.secret
  name        = var.secret
}`, want: []string{"error main.tf:9: Ephemeral value in a resource argument"}, wantDetail: "argument name of test_wo.w"},
		{name: "data source argument", main: `
data "test_data" "d" {
  input = var.secret
}`, want: []string{"error main.tf:8: Ephemeral value in a resource argument"}, wantDetail: "argument input of data.test_data.d"},
		{name: "count", main: `
resource "test_thing" "t" {
  count = length(var.secret)
}`, want: []string{"error main.tf:8: Invalid count argument"}, wantDetail: `"count" argument may not use ephemeral values`},
		{name: "for_each", main: `
resource "test_thing" "t" {
  for_each = toset([var.secret])
}`, want: []string{"error main.tf:8: Invalid for_each argument"}, wantDetail: `"for_each" argument may not use ephemeral values`},
		{name: "module count", main: `
module "c" {
  source = "./c"
  count  = length(var.secret)
  in     = "x"
}`, want: []string{"error main.tf:9: Invalid count argument"}},
		{name: "output that is not ephemeral", main: `
output "o" {
  value = sensitive(var.secret)
}`, want: []string{"error main.tf:8: Ephemeral value in an output that is not ephemeral"}},
		{name: "child variable that is not ephemeral", main: `
module "c" {
  source = "./c"
  in     = "x"
  plain  = var.secret
}`, want: []string{"error main.tf:10: Ephemeral value for a variable that is not ephemeral"}, wantDetail: `variable "plain"`},
		{name: "terraform.applying is ephemeral", main: `
resource "test_thing" "t" {
  name = tostring(terraform.applying)
}`, want: []string{"error main.tf:8: Ephemeral value in a resource argument"}},
		{name: "error message of a failing check is not shown", main: `
check "c" {
  assert {
    condition     = var.secret == "other"
    error_message = "got ${var.secret}"
  }
}`, want: []string{"warning main.tf:10: Error message refers to ephemeral values", "warning main.tf:9: Check block assertion failed"}, planOnly: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{"main.tf": ephemeralVar + tc.main}
			for k, v := range child {
				files[k] = v
			}
			cfg := loadConfig(t, files)
			p := ephemeralProvider()
			c := testContext(t, p, 4)
			plan, diags := c.Plan(context.Background(), cfg, states.NewState(), secretVars())
			if diff := cmp.Diff(tc.want, diagPlaces(diags)); diff != "" {
				t.Fatalf("plan diagnostics (-want +got):\n%s\n%s", diff, diagsString(diags))
			}
			if tc.wantDetail != "" && !strings.Contains(diags[0].Detail, tc.wantDetail) {
				t.Errorf("detail %q does not name %q", diags[0].Detail, tc.wantDetail)
			}
			if strings.Contains(diagsString(diags), "s3cr3t") {
				t.Errorf("diagnostics show the secret: %s", diagsString(diags))
			}
			if !diags.HasErrors() {
				if enc, err := plans.Marshal(plan, "test"); err != nil {
					t.Fatal(err)
				} else if strings.Contains(string(enc), "s3cr3t") {
					t.Error("the encoded plan holds the secret")
				}
			}
			if tc.planOnly {
				return
			}
			vdiags := testContext(t, ephemeralProvider(), 4).Validate(cfg)
			if diff := cmp.Diff(tc.want, diagPlaces(vdiags)); diff != "" {
				t.Errorf("validate diagnostics (-want +got):\n%s\n%s", diff, diagsString(vdiags))
			}
		})
	}
}

// A write-only argument's value reaches the provider at plan and at apply
// (re-evaluated: the plan holds null, and terraform.applying differs), but
// the plan, its changes and the state hold null; the ephemeral variable is
// left out of the plan and given to the apply again.
func TestWriteOnlyAndApplyTimeVariables(t *testing.T) {
	cfg := loadConfig(t, map[string]string{"main.tf": ephemeralVar + `
provider "test" { token = var.secret }
resource "test_wo" "w" {
  name        = "w"
  password_wo = "${var.secret}/${terraform.applying}"
}
`})
	p := ephemeralProvider()
	c := testContext(t, p, 4)
	plan := mustPlan(t, c, cfg, states.NewState(), secretVars())
	if diff := cmp.Diff([]string{"secret"}, plan.ApplyTimeVariables); diff != "" {
		t.Errorf("apply-time variables (-want +got):\n%s", diff)
	}
	if _, ok := plan.VariableValues["secret"]; ok {
		t.Errorf("the plan holds the ephemeral variable: %#v", plan.VariableValues)
	}
	if got := p.Configured().GetAttr("token"); got != cty.StringVal("s3cr3t") {
		t.Errorf("provider configured with token %#v", got)
	}
	woConfig := func(m providertest.Method) []string {
		var out []string
		for _, call := range p.CallsOf(m) {
			var cfg cty.Value
			switch r := call.Request.(type) {
			case providers.PlanResourceChangeRequest:
				cfg = r.Config
			case providers.ApplyResourceChangeRequest:
				cfg = r.Config
			}
			out = append(out, cfg.GetAttr("password_wo").AsString())
		}
		return out
	}
	if diff := cmp.Diff([]string{"s3cr3t/false"}, woConfig(providertest.PlanResourceChange)); diff != "" {
		t.Errorf("PlanResourceChange config (-want +got):\n%s", diff)
	}
	if got := renderChanges(plan.Changes.Resources)["test_wo.w"].After; got != `{"id":"?","name":"w","password_wo":null}` {
		t.Errorf("planned after = %s", got)
	}
	enc, err := plans.Marshal(plan, "test")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(enc), "s3cr3t") {
		t.Error("the encoded plan holds the secret")
	}
	back, _, err := plans.Unmarshal(enc)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"secret"}, back.ApplyTimeVariables); diff != "" {
		t.Errorf("apply-time variables read back (-want +got):\n%s", diff)
	}

	p.ResetCalls()
	st, diags := testContext(t, p, 4).Apply(context.Background(), plan, cfg, &ApplyOpts{
		ApplyTimeVariables: InputValues{"secret": {Value: cty.StringVal("again"), SourceType: ValueFromCLIArg}},
	})
	if diags.HasErrors() {
		t.Fatal(diagsString(diags))
	}
	if diff := cmp.Diff([]string{"again/true"}, woConfig(providertest.ApplyResourceChange)); diff != "" {
		t.Errorf("ApplyResourceChange config (-want +got):\n%s", diff)
	}
	obj := st.ResourceInstance(mustInst(t, "test_wo.w")).Current
	if strings.Contains(string(obj.AttrsJSON), "again") || !strings.Contains(string(obj.AttrsJSON), `"password_wo":null`) {
		t.Errorf("state object %s", obj.AttrsJSON)
	}
}

// A failing validation of an ephemeral variable does not show a message
// that holds its value.
func TestEphemeralVariableValidationMessage(t *testing.T) {
	cfg := loadConfig(t, map[string]string{"main.tf": `
variable "secret" {
  type      = string
  ephemeral = true
  validation {
    condition     = length(var.secret) > 10
    error_message = "too short: ${var.secret}"
  }
}
`})
	_, diags := testContext(t, ephemeralProvider(), 4).Plan(context.Background(), cfg, states.NewState(), secretVars())
	if !diags.HasErrors() || !strings.Contains(diagsString(diags), "refers to ephemeral values") || strings.Contains(diagsString(diags), "s3cr3t") {
		t.Errorf("diagnostics: %s", diagsString(diags))
	}
}

// A provider that plans or returns a write-only value is refused, naming
// the attribute; the object it created is stored with the value null.
func TestWriteOnlyValueFromProvider(t *testing.T) {
	cfg := loadConfig(t, map[string]string{"main.tf": ephemeralVar + `
resource "test_wo" "w" {
  name        = "w"
  password_wo = var.secret
}
`})
	leak := func(v cty.Value) cty.Value {
		m := v.AsValueMap()
		m["password_wo"] = cty.StringVal("s3cr3t")
		return cty.ObjectVal(m)
	}
	t.Run("plan", func(t *testing.T) {
		p := ephemeralProvider()
		p.PlanFn = func(req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
			return providers.PlanResourceChangeResponse{PlannedState: leak(req.ProposedNewState)}
		}
		_, diags := testContext(t, p, 4).Plan(context.Background(), cfg, states.NewState(), secretVars())
		if got := diagsString(diags); !strings.Contains(got, "Provider produced invalid plan") || !strings.Contains(got, "write-only attribute password_wo of test_wo.w") {
			t.Errorf("diagnostics: %s", got)
		}
	})
	t.Run("apply", func(t *testing.T) {
		p := ephemeralProvider()
		plan := mustPlan(t, testContext(t, p, 4), cfg, states.NewState(), secretVars())
		p.ApplyFn = func(req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
			m := req.PlannedState.AsValueMap()
			m["id"] = cty.StringVal("W")
			return providers.ApplyResourceChangeResponse{NewState: leak(cty.ObjectVal(m))}
		}
		st, diags := testContext(t, p, 4).Apply(context.Background(), plan, cfg, &ApplyOpts{
			ApplyTimeVariables: InputValues{"secret": {Value: cty.StringVal("s3cr3t"), SourceType: ValueFromCLIArg}},
		})
		if got := diagsString(diags); !strings.Contains(got, "Provider produced invalid object") || !strings.Contains(got, "write-only attribute password_wo of test_wo.w") {
			t.Errorf("diagnostics: %s", got)
		}
		obj := st.ResourceInstance(mustInst(t, "test_wo.w")).Current
		if obj == nil || obj.Status != states.ObjectTainted || strings.Contains(string(obj.AttrsJSON), "s3cr3t") {
			t.Errorf("stored object %+v", obj)
		}
	})
}
