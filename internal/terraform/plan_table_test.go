package terraform

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
)

const (
	nullThing = `{"ami":null,"id":"?","name":null,"secret":null,"tags":null,"value":null}`
)

// thing renders a test_thing object JSON with the given id and name.
func thing(id, name string) string {
	q := func(s string) string {
		if s == "" {
			return "null"
		}
		return `"` + s + `"`
	}
	return `{"ami":null,"id":` + q(id) + `,"name":` + q(name) + `,"secret":null,"tags":null,"value":null}`
}

func TestPlanTable(t *testing.T) {
	tests := []struct {
		name    string
		files   map[string]string
		state   map[string]string
		opts    *PlanOpts
		want    map[string]change
		wantErr string
		check   func(t *testing.T, p *plans.Plan)
	}{
		{
			name:  "noop and update",
			files: map[string]string{"main.tf": `resource "test_thing" "a" { name = "a" }` + "\n" + `resource "test_thing" "b" { name = "new" }`},
			state: map[string]string{"test_thing.a": thing("A", "a"), "test_thing.b": thing("B", "old")},
			want: map[string]change{
				"test_thing.a": {Action: "NoOp", Before: thing("A", "a"), After: thing("A", "a"), Sensitive: "secret"},
				"test_thing.b": {Action: "Update", Before: thing("B", "old"), After: thing("B", "new"), Sensitive: "secret"},
			},
		},
		{
			name:  "replace because cannot update",
			files: map[string]string{"main.tf": `resource "test_thing" "a" { ami = "new" }`},
			state: map[string]string{"test_thing.a": `{"id":"A","ami":"old"}`},
			want: map[string]change{"test_thing.a": {Action: "DeleteThenCreate", Reason: "ReplaceBecauseCannotUpdate",
				Before: `{"ami":"old","id":"A","name":null,"secret":null,"tags":null,"value":null}`,
				After:  `{"ami":"new","id":"?","name":null,"secret":null,"tags":null,"value":null}`, Sensitive: "secret"}},
		},
		{
			name:  "replace tainted",
			files: map[string]string{"main.tf": `resource "test_thing" "a" { name = "a" }`},
			state: map[string]string{"test_thing.a tainted": thing("A", "a")},
			want:  map[string]change{"test_thing.a": {Action: "DeleteThenCreate", Reason: "ReplaceBecauseTainted", Before: thing("A", "a"), After: strings.Replace(nullThing, `"name":null`, `"name":"a"`, 1), Sensitive: "secret"}},
		},
		{
			name:  "replace by request with create_before_destroy",
			files: map[string]string{"main.tf": `resource "test_thing" "a" {` + "\n" + `name = "a"` + "\n" + `lifecycle { create_before_destroy = true }` + "\n}"},
			state: map[string]string{"test_thing.a": thing("A", "a")},
			opts:  &PlanOpts{ForceReplace: []addrs.AbsResourceInstance{mustInst(t, "test_thing.a")}},
			want:  map[string]change{"test_thing.a": {Action: "CreateThenDelete", Reason: "ReplaceByRequest", Before: thing("A", "a"), After: strings.Replace(nullThing, `"name":null`, `"name":"a"`, 1), Sensitive: "secret", CBD: true}},
		},
		{
			name: "replace_triggered_by",
			files: map[string]string{"main.tf": `
resource "test_thing" "a" { ami = "new" }
resource "test_thing" "b" {
  name = "b"
  lifecycle { replace_triggered_by = [test_thing.a] }
}`},
			state: map[string]string{"test_thing.a": `{"id":"A","ami":"old"}`, "test_thing.b": thing("B", "b")},
			check: func(t *testing.T, p *plans.Plan) {
				got := renderChanges(p.Changes.Resources)
				if got["test_thing.b"].Reason != "ReplaceByTriggers" || got["test_thing.b"].Action != "DeleteThenCreate" {
					t.Errorf("b = %+v, want a replacement by triggers", got["test_thing.b"])
				}
			},
		},
		{
			name:  "orphans: removed block, shrunk count, removed for_each key",
			files: map[string]string{"main.tf": `resource "test_thing" "c" { count = 1 }` + "\n" + `resource "test_thing" "e" {` + "\n" + `for_each = toset(["x"])` + "\n" + `name = each.key` + "\n}"},
			state: map[string]string{"test_thing.gone": thing("G", ""), "test_thing.c[0]": thing("C0", ""), "test_thing.c[1]": thing("C1", ""),
				`test_thing.e["x"]`: thing("EX", "x"), `test_thing.e["y"]`: thing("EY", "y")},
			want: map[string]change{
				"test_thing.gone":   {Action: "Delete", Reason: "DeleteBecauseNoResourceConfig", Before: thing("G", ""), After: "null", CBD: false},
				"test_thing.c[0]":   {Action: "NoOp", Before: thing("C0", ""), After: thing("C0", ""), Sensitive: "secret"},
				"test_thing.c[1]":   {Action: "Delete", Reason: "DeleteBecauseCountIndex", Before: thing("C1", ""), After: "null"},
				`test_thing.e["x"]`: {Action: "NoOp", Before: thing("EX", "x"), After: thing("EX", "x"), Sensitive: "secret"},
				`test_thing.e["y"]`: {Action: "Delete", Reason: "DeleteBecauseEachKey", Before: thing("EY", "y"), After: "null"},
			},
		},
		{
			name:  "count growth and wrong repetition",
			files: map[string]string{"main.tf": `resource "test_thing" "c" {` + "\n" + `count = 2` + "\n" + `name = "n${count.index}"` + "\n}"},
			// (A key-less instance would move to [0]: see TestPlanMoves.)
			state: map[string]string{`test_thing.c["k"]`: thing("C", "")},
			want: map[string]change{
				`test_thing.c["k"]`: {Action: "Delete", Reason: "DeleteBecauseWrongRepetition", Before: thing("C", ""), After: "null"},
				"test_thing.c[0]":   {Action: "Create", Before: "null", After: strings.Replace(nullThing, `"name":null`, `"name":"n0"`, 1), Sensitive: "secret"},
				"test_thing.c[1]":   {Action: "Create", Before: "null", After: strings.Replace(nullThing, `"name":null`, `"name":"n1"`, 1), Sensitive: "secret"},
			},
		},
		{
			name: "modules with count and for_each, outputs, module removed",
			files: map[string]string{
				"main.tf": `
module "m" {
  source = "./mod"
  count  = 2
  n      = "c${count.index}"
}
module "f" {
  source   = "./mod"
  for_each = { k = "v" }
  n        = each.value
}
resource "test_thing" "top" { name = module.f["k"].id_name }
`,
				"mod/main.tf": `
variable "n" { type = string }
resource "test_thing" "r" { name = var.n }
output "id_name" { value = "${test_thing.r.name}-x" }
`},
			state: map[string]string{`module.old.test_thing.r`: thing("O", "")},
			check: func(t *testing.T, p *plans.Plan) {
				got := renderChanges(p.Changes.Resources)
				for _, a := range []string{`module.m[0].test_thing.r`, `module.m[1].test_thing.r`, `module.f["k"].test_thing.r`} {
					if got[a].Action != "Create" {
						t.Errorf("%s = %+v, want Create", a, got[a])
					}
				}
				if !strings.Contains(got[`module.m[1].test_thing.r`].After, `"name":"c1"`) {
					t.Errorf("module variable not evaluated per instance: %s", got[`module.m[1].test_thing.r`].After)
				}
				if !strings.Contains(got["test_thing.top"].After, `"name":"v-x"`) {
					t.Errorf("module output not passed: %s", got["test_thing.top"].After)
				}
				if c := got["module.old.test_thing.r"]; c.Action != "Delete" || c.Reason != "DeleteBecauseNoModule" {
					t.Errorf("orphaned module resource = %+v", c)
				}
			},
		},
		{
			name: "data sources known and unknown",
			files: map[string]string{"main.tf": `
data "test_data" "known" { input = "k" }
resource "test_thing" "a" { name = data.test_data.known.out }
data "test_data" "unknown" { input = test_thing.a.id }
`},
			check: func(t *testing.T, p *plans.Plan) {
				got := renderChanges(p.Changes.Resources)
				if _, ok := got["data.test_data.known"]; ok {
					t.Errorf("known data source planned as a change: %+v", got["data.test_data.known"])
				}
				if c := got["data.test_data.unknown"]; c.Action != "Read" || c.Reason != "ReadBecauseConfigUnknown" {
					t.Errorf("unknown data source = %+v", c)
				}
				if !strings.Contains(got["test_thing.a"].After, `"name":"test_data-`) {
					t.Errorf("data source value not used: %s", got["test_thing.a"].After)
				}
				if p.PriorState.ResourceInstance(mustInst(t, "data.test_data.known")) == nil {
					t.Errorf("data source read not in the prior state")
				}
			},
		},
		{
			name: "data source depending on a pending change",
			files: map[string]string{"main.tf": `
resource "test_thing" "a" { name = "new" }
data "test_data" "d" {
  input      = "x"
  depends_on = [test_thing.a]
}`},
			state: map[string]string{"test_thing.a": thing("A", "old")},
			check: func(t *testing.T, p *plans.Plan) {
				if c := renderChanges(p.Changes.Resources)["data.test_data.d"]; c.Action != "Read" || c.Reason != "ReadBecauseDependencyPending" {
					t.Errorf("data source = %+v", c)
				}
			},
		},
		{
			name:  "targets keep dependencies only",
			files: map[string]string{"main.tf": `resource "test_thing" "a" {}` + "\n" + `resource "test_thing" "b" { name = test_thing.a.id }` + "\n" + `resource "test_thing" "c" {}`},
			opts:  &PlanOpts{Targets: []addrs.Targetable{mustInst(t, "test_thing.b").ContainingResource()}},
			check: func(t *testing.T, p *plans.Plan) {
				got := renderChanges(p.Changes.Resources)
				if _, ok := got["test_thing.c"]; ok || len(got) != 2 {
					t.Errorf("targeted plan has %v", keys(got))
				}
			},
		},
		{
			name: "prevent_destroy",
			files: map[string]string{"main.tf": `resource "test_thing" "a" {
  ami = "new"
  lifecycle { prevent_destroy = true }
}`},
			state:   map[string]string{"test_thing.a": `{"id":"A","ami":"old"}`},
			wantErr: "Resource test_thing.a has lifecycle.prevent_destroy set",
		},
		{
			name: "ignore_changes",
			files: map[string]string{"main.tf": `resource "test_thing" "a" {
  name  = "new"
  value = "new"
  lifecycle { ignore_changes = [name] }
}
resource "test_thing" "b" {
  name = "new"
  lifecycle { ignore_changes = all }
}`},
			state: map[string]string{"test_thing.a": `{"id":"A","name":"old","value":"new"}`, "test_thing.b": thing("B", "old")},
			check: func(t *testing.T, p *plans.Plan) {
				got := renderChanges(p.Changes.Resources)
				if got["test_thing.a"].Action != "NoOp" || got["test_thing.b"].Action != "NoOp" {
					t.Errorf("ignore_changes not honoured: %+v", got)
				}
			},
		},
		{
			name: "sensitive propagation",
			files: map[string]string{"main.tf": `
variable "pw" {
  type      = string
  sensitive = true
  default   = "hunter2"
}
locals { tagged = { t = var.pw } }
resource "test_thing" "a" {
  name = "x"
  tags = local.tagged
}
output "o" {
  value     = test_thing.a.tags
  sensitive = true
}`},
			check: func(t *testing.T, p *plans.Plan) {
				c := renderChanges(p.Changes.Resources)["test_thing.a"]
				if c.Sensitive != `secret,tags["t"]` && c.Sensitive != "secret,tags" {
					t.Errorf("sensitive paths = %q", c.Sensitive)
				}
				if !p.VariableSensitive["pw"] {
					t.Errorf("variable pw not recorded sensitive")
				}
				if len(p.Changes.Outputs) != 1 || !p.Changes.Outputs[0].Sensitive {
					t.Errorf("output changes = %+v", p.Changes.Outputs)
				}
			},
		},
		{
			name: "sensitive output not declared",
			files: map[string]string{"main.tf": `
variable "pw" {
  sensitive = true
  default   = "x"
}
output "o" { value = var.pw }`},
			wantErr: "Output refers to sensitive values",
		},
		{
			name:    "unknown count",
			files:   map[string]string{"main.tf": `resource "test_thing" "a" {}` + "\n" + `resource "test_thing" "b" { count = length(test_thing.a.id) }`},
			wantErr: "use the -target argument",
		},
		{
			name:    "cycle lists addresses in order",
			files:   map[string]string{"main.tf": `resource "test_thing" "a" { name = test_thing.b.id }` + "\n" + `resource "test_thing" "b" { name = test_thing.a.id }`},
			wantErr: "Cycle: test_thing.a, test_thing.b, test_thing.a",
		},
		{
			name: "variables: default, conversion, optional attrs",
			files: map[string]string{"main.tf": `
variable "n" { default = 3 }
variable "o" {
  type = object({ a = string, b = optional(string, "dflt") })
}
resource "test_thing" "a" { name = "${var.n}-${var.o.a}-${var.o.b}" }`},
			opts: &PlanOpts{SetVariables: InputValues{"o": {Value: cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("A")}), SourceType: ValueFromCLIArg}}},
			check: func(t *testing.T, p *plans.Plan) {
				if c := renderChanges(p.Changes.Resources)["test_thing.a"]; !strings.Contains(c.After, `"name":"3-A-dflt"`) {
					t.Errorf("after = %s", c.After)
				}
			},
		},
		{
			name: "variable validation failure",
			files: map[string]string{"main.tf": `
variable "n" {
  type = number
  validation {
    condition     = var.n > 5
    error_message = "The n value must be greater than five."
  }
}`},
			opts:    &PlanOpts{SetVariables: InputValues{"n": {Value: cty.NumberIntVal(2), SourceType: ValueFromCLIArg}}},
			wantErr: "The n value must be greater than five.",
		},
		{
			name:    "missing required variable",
			files:   map[string]string{"main.tf": `variable "req" { type = string }`},
			wantErr: `No value for required variable: The root module input variable "req" is not set`,
		},
		{
			name:    "undeclared variable from -var",
			files:   map[string]string{"main.tf": `resource "test_thing" "a" {}`},
			opts:    &PlanOpts{SetVariables: InputValues{"nope": {Value: cty.StringVal("x"), SourceType: ValueFromCLIArg}}},
			wantErr: `A variable named "nope" was assigned a value`,
		},
		{
			name:  "destroy mode",
			files: map[string]string{"main.tf": `resource "test_thing" "a" {}` + "\n" + `resource "test_thing" "b" { name = test_thing.a.id }` + "\n" + `output "o" { value = test_thing.b.id }`},
			state: map[string]string{"test_thing.a": thing("A", ""), "test_thing.b": thing("B", "A")},
			opts:  &PlanOpts{Mode: plans.DestroyMode},
			want: map[string]change{
				"test_thing.a": {Action: "Delete", Before: thing("A", ""), After: "null"},
				"test_thing.b": {Action: "Delete", Before: thing("B", "A"), After: "null"},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := loadConfig(t, tc.files)
			c := testContext(t, newTestProvider(), 4)
			st := thingState(t, tc.state)
			plan, diags := c.Plan(context.Background(), cfg, st, tc.opts)
			if tc.wantErr != "" {
				if !strings.Contains(diagsString(diags), tc.wantErr) {
					t.Fatalf("diagnostics %q do not contain %q", diagsString(diags), tc.wantErr)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatalf("plan: %s", diagsString(diags))
			}
			if tc.want != nil {
				if d := cmp.Diff(tc.want, renderChanges(plan.Changes.Resources)); d != "" {
					t.Errorf("changes (-want +got):\n%s", d)
				}
			}
			if tc.check != nil {
				tc.check(t, plan)
			}
		})
	}
}

func mustInst(t testing.TB, s string) addrs.AbsResourceInstance {
	a, diags := addrs.ParseAbsResourceInstanceStr(s)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	return a
}

func keys[V any](m map[string]V) []string { return sortedNames(m) }

func TestPlanRefreshOnlyDrift(t *testing.T) {
	cfg := loadConfig(t, map[string]string{"main.tf": `resource "test_thing" "a" { name = "a" }` + "\n" + `resource "test_thing" "gone" {}`})
	p := newTestProvider()
	p.Drift = func(req providers.ReadResourceRequest) cty.Value {
		if req.PriorState.GetAttr("id").AsString() == "G" {
			return cty.NullVal(req.PriorState.Type())
		}
		m := req.PriorState.AsValueMap()
		m["name"] = cty.StringVal("drifted")
		return cty.ObjectVal(m)
	}
	st := thingState(t, map[string]string{"test_thing.a": thing("A", "a"), "test_thing.gone": thing("G", "")})
	plan := mustPlan(t, testContext(t, p, 2), cfg, st, &PlanOpts{Mode: plans.RefreshOnlyMode})
	if len(plan.Changes.Resources) != 0 {
		t.Errorf("refresh-only plan has changes: %v", keys(renderChanges(plan.Changes.Resources)))
	}
	want := map[string]change{
		"test_thing.a":    {Action: "Update", Before: thing("A", "a"), After: thing("A", "drifted"), Sensitive: "secret"},
		"test_thing.gone": {Action: "Delete", Before: thing("G", ""), After: "null"},
	}
	if d := cmp.Diff(want, renderChanges(plan.DriftedResources)); d != "" {
		t.Errorf("drift (-want +got):\n%s", d)
	}
	if plan.PriorState.ResourceInstance(mustInst(t, "test_thing.gone")) != nil {
		t.Errorf("object gone in reality still in the prior state")
	}
	if plan.PrevRunState.ResourceInstance(mustInst(t, "test_thing.gone")) == nil {
		t.Errorf("previous run state was modified")
	}
	if !plan.Applyable {
		t.Errorf("refresh-only plan with drift not applyable")
	}
}
