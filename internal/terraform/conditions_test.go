package terraform

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/internal/providers/providertest"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
)

// diagLines renders diagnostics as "severity file:line: summary: detail",
// one per line, for comparing whole lists.
func diagLines(diags hcl.Diagnostics) []string {
	var out []string
	for _, d := range diags {
		sev := "error"
		if d.Severity == hcl.DiagWarning {
			sev = "warning"
		}
		where := ""
		if d.Subject != nil {
			where = fmt.Sprintf(" %s:%d", d.Subject.Filename, d.Subject.Start.Line)
		}
		out = append(out, fmt.Sprintf("%s%s: %s: %s", sev, where, d.Summary, d.Detail))
	}
	return out
}

// checkLines renders check results as "kind module|name status" plus one
// line per object "  addr status [messages]".
func checkLines(cs []*plans.CheckResult) []string {
	var out []string
	for _, c := range cs {
		out = append(out, fmt.Sprintf("%s %s|%s %s", c.Kind, c.Module, c.Name, c.Status))
		for _, o := range c.Objects {
			line := fmt.Sprintf("  %s %s", o.Addr, o.Status)
			if o.Addr == "" {
				line = fmt.Sprintf("  module %q %s", o.Module, o.Status)
			}
			if len(o.FailureMessages) > 0 {
				line += " " + strings.Join(o.FailureMessages, "; ")
			}
			out = append(out, line)
		}
	}
	return out
}

func TestConditionsPlanAndApply(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		state map[string]string
		setup func(p *providertest.Provider)
		// plan expectations
		planDiags  []string
		planChecks []string
		changes    map[string]string // address -> action/reason
		// apply expectations (when applyDiags or applyChecks is set)
		applyDiags  []string
		applyChecks []string
		applyState  []string
	}{
		{
			name: "precondition passes",
			files: map[string]string{"main.tf": `variable "n" { default = "ok" }
resource "test_thing" "a" {
  name = var.n
  lifecycle {
    precondition {
      condition     = var.n != ""
      error_message = "n must be set"
    }
  }
}`},
			planChecks:  []string{"resource |test_thing.a pass", "  test_thing.a pass"},
			changes:     map[string]string{"test_thing.a": "Create"},
			applyChecks: []string{"resource |test_thing.a pass", "  test_thing.a pass"},
			applyState:  []string{"test_thing.a"},
		},
		{
			name: "precondition fails before planning the instance",
			files: map[string]string{"main.tf": `variable "n" { default = "" }
resource "test_thing" "a" {
  count = 2
  name  = "x${count.index}"
  lifecycle {
    precondition {
      condition     = var.n != "" || count.index == 0
      error_message = "Instance ${count.index} needs n, got \"${var.n}\"."
    }
  }
}`},
			planDiags: []string{`error main.tf:7: Resource precondition failed: Instance 1 needs n, got "".`},
			planChecks: []string{"resource |test_thing.a fail",
				"  test_thing.a[0] pass", `  test_thing.a[1] fail Instance 1 needs n, got "".`},
			changes: map[string]string{"test_thing.a[0]": "Create"},
		},
		{
			name: "postcondition sees the planned object as self",
			files: map[string]string{"main.tf": `resource "test_thing" "a" {
  name = "short"
  lifecycle {
    postcondition {
      condition     = length(self.name) > 10
      error_message = "Name ${self.name} is too short."
    }
  }
}`},
			planDiags:  []string{"error main.tf:5: Resource postcondition failed: Name short is too short."},
			planChecks: []string{"resource |test_thing.a fail", "  test_thing.a fail Name short is too short."},
			changes:    map[string]string{"test_thing.a": "Create"},
		},
		{
			name: "postcondition unknown at plan is decided at apply and fails there",
			files: map[string]string{"main.tf": `resource "test_thing" "a" {
  name = "a"
  lifecycle {
    postcondition {
      condition     = self.id == "wanted"
      error_message = "Got id ${self.id}."
    }
  }
}`},
			planChecks:  []string{"resource |test_thing.a unknown", "  test_thing.a unknown"},
			changes:     map[string]string{"test_thing.a": "Create"},
			applyDiags:  []string{"error main.tf:5: Resource postcondition failed: Got id test_thing-1."},
			applyChecks: []string{"resource |test_thing.a fail", "  test_thing.a fail Got id test_thing-1."},
			// The object exists: it stays in the state.
			applyState: []string{"test_thing.a"},
		},
		{
			name: "postcondition unknown at plan passes at apply",
			files: map[string]string{"main.tf": `resource "test_thing" "a" {
  name = "a"
  lifecycle {
    postcondition {
      condition     = startswith(self.id, "test_thing-")
      error_message = "bad id"
    }
  }
}
resource "test_thing" "b" {
  name = test_thing.a.id
  lifecycle {
    precondition {
      condition     = test_thing.a.id != ""
      error_message = "a needs an id"
    }
  }
}`},
			planChecks: []string{"resource |test_thing.a unknown", "  test_thing.a unknown",
				"resource |test_thing.b unknown", "  test_thing.b unknown"},
			changes: map[string]string{"test_thing.a": "Create", "test_thing.b": "Create"},
			applyChecks: []string{"resource |test_thing.a pass", "  test_thing.a pass",
				"resource |test_thing.b pass", "  test_thing.b pass"},
			applyState: []string{"test_thing.a", "test_thing.b"},
		},
		{
			name: "precondition unknown at plan fails at apply: the instance is not applied",
			files: map[string]string{"main.tf": `resource "test_thing" "a" { name = "a" }
resource "test_thing" "b" {
  name = "b"
  lifecycle {
    precondition {
      condition     = test_thing.a.id == "expected"
      error_message = "a has id ${test_thing.a.id}."
    }
  }
}
output "o" {
  value = test_thing.a.id
  precondition {
    condition     = test_thing.a.id == "expected"
    error_message = "Output sees ${test_thing.a.id}."
  }
}`},
			planChecks: []string{"output |o unknown", "  output.o unknown",
				"resource |test_thing.b unknown", "  test_thing.b unknown"},
			changes: map[string]string{"test_thing.a": "Create", "test_thing.b": "Create"},
			applyDiags: []string{
				"error main.tf:14: Module output value precondition failed: Output sees test_thing-1.",
				"error main.tf:6: Resource precondition failed: a has id test_thing-1.",
			},
			applyChecks: []string{"output |o fail", "  output.o fail Output sees test_thing-1.",
				"resource |test_thing.b fail", "  test_thing.b fail a has id test_thing-1."},
			applyState: []string{"test_thing.a"},
		},
		{
			name:  "conditions of unchanged instances are evaluated again at apply",
			state: map[string]string{"test_thing.a": thing("A", "a")},
			files: map[string]string{"main.tf": `resource "test_thing" "a" {
  name = "a"
  lifecycle {
    postcondition {
      condition     = self.id == "A"
      error_message = "wrong object"
    }
  }
}
resource "test_thing" "b" { name = "b" }`},
			planChecks:  []string{"resource |test_thing.a pass", "  test_thing.a pass"},
			changes:     map[string]string{"test_thing.a": "NoOp", "test_thing.b": "Create"},
			applyChecks: []string{"resource |test_thing.a pass", "  test_thing.a pass"},
			applyState:  []string{"test_thing.a", "test_thing.b"},
		},
		{
			name: "data source precondition and postcondition",
			files: map[string]string{"main.tf": `data "test_data" "d" {
  input = "in"
  lifecycle {
    precondition {
      condition     = true && length("x") == 1 && data.test_data.other.out != ""
      error_message = "never"
    }
    postcondition {
      condition     = self.out == "expected"
      error_message = "Data source returned ${self.out}."
    }
  }
}
data "test_data" "other" { input = "o" }`},
			planDiags:  []string{"error main.tf:9: Resource postcondition failed: Data source returned test_data-2."},
			planChecks: []string{"resource |data.test_data.d fail", "  data.test_data.d fail Data source returned test_data-2."},
		},
		{
			name: "data source postcondition deferred with its read fails at apply",
			files: map[string]string{"main.tf": `resource "test_thing" "a" { name = "a" }
data "test_data" "d" {
  input = test_thing.a.name
  lifecycle {
    postcondition {
      condition     = self.out == "x"
      error_message = "out is ${self.out}."
    }
  }
}`},
			planChecks:  []string{"resource |data.test_data.d unknown", "  data.test_data.d unknown"},
			changes:     map[string]string{"test_thing.a": "Create", "data.test_data.d": "Read/ReadBecauseDependencyPending"},
			applyDiags:  []string{"error main.tf:6: Resource postcondition failed: out is test_data-2."},
			applyChecks: []string{"resource |data.test_data.d fail", "  data.test_data.d fail out is test_data-2."},
			applyState:  []string{"data.test_data.d", "test_thing.a"},
		},
		{
			name: "error message with a sensitive value is not shown",
			files: map[string]string{"main.tf": `variable "s" {
  default   = "hush"
  sensitive = true
}
resource "test_thing" "a" {
  lifecycle {
    precondition {
      condition     = var.s == "other"
      error_message = "Secret is ${var.s}."
    }
  }
}`},
			planDiags: []string{
				"warning main.tf:9: Error message refers to sensitive values: The error expression used to explain this condition refers to sensitive values, so plankit will not display the resulting message.\n\nYou can correct this by removing references to sensitive values, or by carefully using the nonsensitive() function if the expression will not reveal the sensitive data.",
				"error main.tf:8: Resource precondition failed: This check failed, but has an invalid error message as described in the other accompanying messages.",
			},
			planChecks: []string{"resource |test_thing.a fail", "  test_thing.a fail "},
		},
		{
			name: "condition must be a boolean",
			files: map[string]string{"main.tf": `variable "n" { default = null }
resource "test_thing" "a" {
  lifecycle {
    precondition {
      condition     = var.n
      error_message = "x"
    }
  }
}`},
			planDiags:  []string{"error main.tf:5: Invalid condition result: Condition expression must return either true or false, not null."},
			planChecks: []string{"resource |test_thing.a error", "  test_thing.a error"},
		},
		{
			name: "output precondition fails",
			files: map[string]string{"main.tf": `variable "port" { default = 80 }
output "url" {
  value = "http://x:${var.port}"
  precondition {
    condition     = var.port == 443
    error_message = "Port ${var.port} is not TLS."
  }
}`},
			planDiags:  []string{"error main.tf:5: Module output value precondition failed: Port 80 is not TLS."},
			planChecks: []string{"output |url fail", "  output.url fail Port 80 is not TLS."},
		},
		{
			name: "output precondition in a module instance, deferred to apply",
			files: map[string]string{
				"main.tf": `module "m" {
  source = "./m"
  count  = 1
}`,
				"m/main.tf": `resource "test_thing" "a" { name = "a" }
output "id" {
  value = test_thing.a.id
  precondition {
    condition     = test_thing.a.id != "nope"
    error_message = "bad"
  }
}`},
			planChecks:  []string{"output module.m|id unknown", "  module.m[0].output.id unknown"},
			changes:     map[string]string{"module.m[0].test_thing.a": "Create"},
			applyChecks: []string{"output module.m|id pass", "  module.m[0].output.id pass"},
			applyState:  []string{"module.m[0].test_thing.a"},
		},
		{
			name: "check assertion failure is a warning and does not block",
			files: map[string]string{"main.tf": `resource "test_thing" "a" { name = "a" }
check "name" {
  assert {
    condition     = test_thing.a.name == "b"
    error_message = "Name is ${test_thing.a.name}, want b."
  }
  assert {
    condition     = test_thing.a.name == "a"
    error_message = "never"
  }
}`},
			planDiags:   []string{"warning main.tf:4: Check block assertion failed: Name is a, want b."},
			planChecks:  []string{"check |name fail", "  check.name fail Name is a, want b."},
			changes:     map[string]string{"test_thing.a": "Create"},
			applyDiags:  []string{"warning main.tf:4: Check block assertion failed: Name is a, want b."},
			applyChecks: []string{"check |name fail", "  check.name fail Name is a, want b."},
			applyState:  []string{"test_thing.a"},
		},
		{
			name: "check assertion unknown at plan warns and is decided at apply",
			files: map[string]string{"main.tf": `resource "test_thing" "a" { name = "a" }
check "id" {
  assert {
    condition     = test_thing.a.id != ""
    error_message = "no id"
  }
}`},
			planDiags:   []string{"warning main.tf:4: Check block assertion known after apply: The condition could not be evaluated at this time, a result will be known when this plan is applied."},
			planChecks:  []string{"check |id unknown", "  check.id unknown"},
			changes:     map[string]string{"test_thing.a": "Create"},
			applyChecks: []string{"check |id pass", "  check.id pass"},
			applyState:  []string{"test_thing.a"},
		},
		{
			name: "scoped data source is read when planning and again at apply",
			files: map[string]string{"main.tf": `check "health" {
  data "test_data" "probe" { input = "ping" }
  assert {
    condition     = data.test_data.probe.out == "pong"
    error_message = "Probe said ${data.test_data.probe.out}."
  }
}`},
			planDiags:  []string{"warning main.tf:4: Check block assertion failed: Probe said test_data-1."},
			planChecks: []string{"check |health fail", "  check.health fail Probe said test_data-1."},
			changes:    map[string]string{"data.test_data.probe": "Read/ReadBecauseCheckNested"},
			// Read again at apply: the provider answers anew.
			applyDiags:  []string{"warning main.tf:4: Check block assertion failed: Probe said test_data-2."},
			applyChecks: []string{"check |health fail", "  check.health fail Probe said test_data-2."},
			applyState:  []string{"data.test_data.probe"},
		},
		{
			name: "scoped data source error is a warning that fails the check",
			files: map[string]string{"main.tf": `check "health" {
  data "test_data" "probe" { input = "ping" }
  assert {
    condition     = data.test_data.probe.out == "pong"
    error_message = "never evaluated"
  }
}
resource "test_thing" "a" { name = "a" }`},
			setup: func(p *providertest.Provider) {
				p.ReadDataSourceFn = func(providers.ReadDataSourceRequest) providers.ReadDataSourceResponse {
					return providers.ReadDataSourceResponse{Diagnostics: hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Endpoint down", Detail: "connection refused"}}}
				}
			},
			planDiags:   []string{"warning main.tf:2: Endpoint down: connection refused\n\n(data.test_data.probe)"},
			planChecks:  []string{"check |health fail", "  check.health fail Endpoint down: connection refused\n\n(data.test_data.probe)"},
			changes:     map[string]string{"data.test_data.probe": "Read/ReadBecauseCheckNested", "test_thing.a": "Create"},
			applyDiags:  []string{"warning main.tf:2: Endpoint down: connection refused\n\n(data.test_data.probe)"},
			applyChecks: []string{"check |health fail", "  check.health fail Endpoint down: connection refused\n\n(data.test_data.probe)"},
			applyState:  []string{"test_thing.a"},
		},
		{
			name: "scoped data source depending on a pending change is read at apply",
			files: map[string]string{"main.tf": `resource "test_thing" "a" { name = "a" }
check "health" {
  data "test_data" "probe" { input = test_thing.a.name }
  assert {
    condition     = data.test_data.probe.input == "a"
    error_message = "bad"
  }
}`},
			planChecks:  []string{"check |health pass", "  check.health pass"},
			changes:     map[string]string{"data.test_data.probe": "Read/ReadBecauseDependencyPending", "test_thing.a": "Create"},
			applyChecks: []string{"check |health pass", "  check.health pass"},
			applyState:  []string{"data.test_data.probe", "test_thing.a"},
		},
		{
			name: "scoped data source is not referable from outside its check",
			files: map[string]string{"main.tf": `check "health" {
  data "test_data" "probe" { input = "ping" }
  assert {
    condition     = data.test_data.probe.out != ""
    error_message = "x"
  }
}
output "leak" { value = data.test_data.probe.out }`},
			planChecks: []string{"check |health pass", "  check.health pass"},
			planDiags:  []string{`error main.tf:8: Reference to scoped resource: The referenced data resource "test_data" "probe" is not available from this context: it is scoped to check block "health" and only that block's assertions can refer to it.`},
		},
		{
			name: "check in a module instance",
			files: map[string]string{
				"main.tf": `module "m" {
  source   = "./m"
  for_each = toset(["x", "y"])
  want     = each.key
}`,
				"m/main.tf": `variable "want" {}
check "c" {
  assert {
    condition     = var.want == "x"
    error_message = "want is ${var.want}"
  }
}`},
			planDiags:  []string{"warning m/main.tf:4: Check block assertion failed: want is y"},
			planChecks: []string{"check module.m|c fail", `  module.m["x"].check.c pass`, `  module.m["y"].check.c fail want is y`},
		},
		{
			name: "scoped data source in module instances",
			files: map[string]string{
				"main.tf": `module "m" {
  source = "./m"
  count  = 2
  in     = "i${count.index}"
}`,
				"m/main.tf": `variable "in" {}
check "c" {
  data "test_data" "d" { input = var.in }
  assert {
    condition     = data.test_data.d.input == "i0"
    error_message = "input is ${data.test_data.d.input}"
  }
}`},
			planDiags:  []string{"warning m/main.tf:5: Check block assertion failed: input is i1"},
			planChecks: []string{"check module.m|c fail", "  module.m[0].check.c pass", "  module.m[1].check.c fail input is i1"},
			changes: map[string]string{"module.m[0].data.test_data.d": "Read/ReadBecauseCheckNested",
				"module.m[1].data.test_data.d": "Read/ReadBecauseCheckNested"},
			applyDiags:  []string{"warning m/main.tf:5: Check block assertion failed: input is i1"},
			applyChecks: []string{"check module.m|c fail", "  module.m[0].check.c pass", "  module.m[1].check.c fail input is i1"},
			applyState:  []string{"module.m[0].data.test_data.d", "module.m[1].data.test_data.d"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := loadConfig(t, tc.files)
			p := newTestProvider()
			if tc.setup != nil {
				tc.setup(p)
			}
			c := testContext(t, p, 4)
			plan, diags := c.Plan(context.Background(), cfg, thingState(t, tc.state), nil)
			if d := cmp.Diff(tc.planDiags, diagLines(diags)); d != "" {
				t.Errorf("plan diagnostics (-want +got):\n%s", d)
			}
			if plan == nil {
				return
			}
			if d := cmp.Diff(tc.planChecks, checkLines(plan.Checks)); d != "" {
				t.Errorf("plan checks (-want +got):\n%s", d)
			}
			if tc.changes != nil {
				got := map[string]string{}
				for _, rc := range plan.Changes.Resources {
					s := rc.Action.String()
					if r := reasonString(rc.ActionReason); r != "" {
						s += "/" + r
					}
					got[rc.Addr.String()] = s
				}
				if d := cmp.Diff(tc.changes, got); d != "" {
					t.Errorf("changes (-want +got):\n%s", d)
				}
			}
			if tc.applyChecks == nil && tc.applyDiags == nil {
				return
			}
			if diags.HasErrors() {
				t.Fatalf("plan failed: %s", diagsString(diags))
			}
			// Round-trip through the archive's encoding, as apply reads it.
			var got []*plans.CheckResult
			st, adiags := c.Apply(context.Background(), roundTripPlan(t, plan), cfg, &ApplyOpts{Checks: func(cs []*plans.CheckResult) { got = cs }})
			gotDiags := diagLines(adiags)
			sort.Strings(gotDiags) // independent nodes finish in any order
			if d := cmp.Diff(tc.applyDiags, gotDiags); d != "" {
				t.Errorf("apply diagnostics (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.applyChecks, checkLines(got)); d != "" {
				t.Errorf("apply checks (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.applyState, stateNames(st)); d != "" {
				t.Errorf("state (-want +got):\n%s", d)
			}
		})
	}
}

// roundTripPlan encodes p as the archive does and decodes it again.
func roundTripPlan(t *testing.T, p *plans.Plan) *plans.Plan {
	t.Helper()
	b, err := plans.Marshal(p, "test")
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := plans.Unmarshal(b)
	if err != nil {
		t.Fatal(err)
	}
	out.PriorState, out.PrevRunState = p.PriorState, p.PrevRunState
	return out
}

var _ = cty.NilVal
