package terraform

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/lang/marks"
	"github.com/plankit/plankit/internal/providers/providertest"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
	"github.com/plankit/plankit/states"
)

var otherProviderAddr = addrs.NewDefaultProvider("other")

// ephemeralProviders returns the test provider with the ephemeral
// resource type test_secret (name in, value out, sensitive), whose value
// is "s3cret-NAME", and the provider "other" with a token argument.
func ephemeralProviders() (*providertest.Provider, *providertest.Provider) {
	p := newTestProvider()
	p.Schema.EphemeralResourceTypes = map[string]providers.Schema{"test_secret": {Block: &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"name":  {Type: cty.String, Required: true},
		"value": {Type: cty.String, Computed: true, Sensitive: true},
	}}}}
	p.OpenEphemeralFn = func(req providers.OpenEphemeralResourceRequest) providers.OpenEphemeralResourceResponse {
		name := req.Config.GetAttr("name").AsString()
		return providers.OpenEphemeralResourceResponse{
			Result:  cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal(name), "value": cty.StringVal("s3cret-" + name)}),
			Private: []byte(name),
		}
	}
	other := providertest.New(map[string]*configschema.Block{"other_thing": thingSchema()})
	other.Schema.Provider.Block = &configschema.Block{Attributes: map[string]*configschema.Attribute{"token": {Type: cty.String, Optional: true}}}
	return p, other
}

func ephemeralContext(t *testing.T, p, other *providertest.Provider) *Context {
	t.Helper()
	c, diags := NewContext(&ContextOpts{
		Providers:   map[addrs.Provider]providers.Factory{testProviderAddr: p.Factory(), otherProviderAddr: other.Factory()},
		Parallelism: 4,
	})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	return c
}

var ephemeralLifecycle = []providertest.Method{providertest.OpenEphemeral, providertest.RenewEphemeral, providertest.CloseEphemeral}

// TestEphemeralResourcePlanApply: an ephemeral resource is opened and
// closed in the plan and again in the apply, its value configures
// another provider, and neither the plan nor the state holds anything
// of it.
func TestEphemeralResourcePlanApply(t *testing.T) {
	p, other := ephemeralProviders()
	cfg := loadConfig(t, map[string]string{"main.tf": `
ephemeral "test_secret" "s" {
  count = 2
  name  = "db${count.index}"
}
provider "other" {
  token = ephemeral.test_secret.s[1].value
}
resource "other_thing" "a" { name = "a" }
resource "test_thing" "b" { name = "b" }
`})
	c := ephemeralContext(t, p, other)
	plan := mustPlan(t, c, cfg, nil, nil)
	if d := cmp.Diff([]string{"OpenEphemeralResource test_secret.db0", "OpenEphemeralResource test_secret.db1",
		"CloseEphemeralResource test_secret.db0", "CloseEphemeralResource test_secret.db1"}, sortedCalls(p, ephemeralLifecycle...)); d != "" {
		t.Errorf("plan's ephemeral calls (-want +got):\n%s", d)
	}
	if got := other.Configured(); got == cty.NilVal || !got.GetAttr("token").RawEquals(cty.StringVal("s3cret-db1")) {
		t.Errorf("other configured with %#v", got)
	}
	var planned []string
	for _, rc := range plan.Changes.Resources {
		planned = append(planned, rc.Addr.String()+" "+rc.Action.String())
	}
	if d := cmp.Diff([]string{"other_thing.a Create", "test_thing.b Create"}, planned); d != "" {
		t.Errorf("planned changes (-want +got):\n%s", d)
	}

	p.ResetCalls()
	st, diags := c.Apply(context.Background(), plan, cfg, &ApplyOpts{Persist: func(*states.State) error { return nil }})
	if diags.HasErrors() {
		t.Fatalf("apply: %s", diags.Error())
	}
	if d := cmp.Diff([]string{"OpenEphemeralResource test_secret.db0", "OpenEphemeralResource test_secret.db1",
		"CloseEphemeralResource test_secret.db0", "CloseEphemeralResource test_secret.db1"}, sortedCalls(p, ephemeralLifecycle...)); d != "" {
		t.Errorf("apply's ephemeral calls (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"other_thing.a", "test_thing.b"}, stateNames(st)); d != "" {
		t.Errorf("state (-want +got):\n%s", d)
	}
	if got := other.Configured().GetAttr("token"); !got.RawEquals(cty.StringVal("s3cret-db1")) {
		t.Errorf("other configured at apply with %#v", got)
	}
}

func sortedCalls(p *providertest.Provider, methods ...providertest.Method) []string {
	calls := p.CallStrings(methods...)
	// Instances open in parallel: order by method (open before close,
	// checked by the sequence), then by key.
	out := append([]string(nil), calls...)
	rank := func(s string) int {
		for i, m := range methods {
			if strings.HasPrefix(s, string(m)+" ") {
				return i
			}
		}
		return len(methods)
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && (rank(out[j]) < rank(out[j-1]) || rank(out[j]) == rank(out[j-1]) && out[j] < out[j-1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// TestEphemeralResourceClosedAfterDependents: the close comes after every
// resource that uses the value, and before the provider is closed.
func TestEphemeralResourceClosedAfterDependents(t *testing.T) {
	p, other := ephemeralProviders()
	cfg := loadConfig(t, map[string]string{"main.tf": `
ephemeral "test_secret" "s" { name = "db" }
locals { n = length(ephemeral.test_secret.s.value) }
resource "test_thing" "b" { name = "b" }
resource "test_thing" "c" {
  name       = "c"
  depends_on = [ephemeral.test_secret.s]
}
`})
	c := ephemeralContext(t, p, other)
	mustPlan(t, c, cfg, nil, nil)
	calls := p.CallStrings(providertest.OpenEphemeral, providertest.CloseEphemeral, providertest.PlanResourceChange, providertest.Close)
	pos := map[string]int{}
	for i, s := range calls {
		pos[s] = i
	}
	open, closing := pos["OpenEphemeralResource test_secret.db"], pos["CloseEphemeralResource test_secret.db"]
	planC, closeP := pos["PlanResourceChange create test_thing.c"], pos["Close"]
	if !(open < planC && planC < closing && closing < closeP) {
		t.Errorf("calls in the wrong order: %v", calls)
	}
}

// TestEphemeralResourceUnknownConfig: an ephemeral resource whose
// configuration is known only after apply is not opened by the plan; its
// value is unknown and ephemeral. The apply opens it.
func TestEphemeralResourceUnknownConfig(t *testing.T) {
	p, other := ephemeralProviders()
	p.ApplyFn = func(req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
		m := req.PlannedState.AsValueMap()
		m["id"] = cty.StringVal("id-" + m["name"].AsString())
		return providers.ApplyResourceChangeResponse{NewState: cty.ObjectVal(m)}
	}
	cfg := loadConfig(t, map[string]string{"main.tf": `
resource "test_thing" "b" { name = "b" }
ephemeral "test_secret" "s" { name = test_thing.b.id }
provider "other" { token = ephemeral.test_secret.s.value }
resource "other_thing" "a" { name = "a" }
`})
	c := ephemeralContext(t, p, other)
	plan := mustPlan(t, c, cfg, nil, nil)
	if calls := p.CallStrings(ephemeralLifecycle...); len(calls) != 0 {
		t.Errorf("plan made ephemeral calls: %v", calls)
	}
	if tok := other.Configured().GetAttr("token"); tok.IsKnown() {
		t.Errorf("token at plan = %#v, want unknown", tok)
	}
	p.ResetCalls()
	_, diags := c.Apply(context.Background(), plan, cfg, &ApplyOpts{Persist: func(*states.State) error { return nil }})
	if diags.HasErrors() {
		t.Fatalf("apply: %s", diags.Error())
	}
	if d := cmp.Diff([]string{"OpenEphemeralResource test_secret.id-b", "CloseEphemeralResource test_secret.id-b"}, p.CallStrings(ephemeralLifecycle...)); d != "" {
		t.Errorf("apply's ephemeral calls (-want +got):\n%s", d)
	}
	if got := other.Configured().GetAttr("token"); !got.RawEquals(cty.StringVal("s3cret-id-b")) {
		t.Errorf("other configured at apply with %#v", got)
	}
}

// TestEphemeralResourceClosedOnError: a failing apply still closes what
// it opened, though the close node never runs.
func TestEphemeralResourceClosedOnError(t *testing.T) {
	p, other := ephemeralProviders()
	p.Inject(&providertest.Fault{Method: providertest.ApplyResourceChange, Key: "c", Err: errors.New("boom")})
	cfg := loadConfig(t, map[string]string{"main.tf": `
ephemeral "test_secret" "s" { name = "db" }
resource "test_thing" "c" {
  name       = "c"
  depends_on = [ephemeral.test_secret.s]
}
resource "test_thing" "d" {
  name       = "d"
  depends_on = [test_thing.c]
}
`})
	c := ephemeralContext(t, p, other)
	plan := mustPlan(t, c, cfg, nil, nil)
	p.ResetCalls()
	_, diags := c.Apply(context.Background(), plan, cfg, &ApplyOpts{Persist: func(*states.State) error { return nil }})
	if !strings.Contains(diagsString(diags), "boom") {
		t.Fatalf("diagnostics %q lack the failure", diagsString(diags))
	}
	if d := cmp.Diff([]string{"OpenEphemeralResource test_secret.db", "CloseEphemeralResource test_secret.db"}, p.CallStrings(ephemeralLifecycle...)); d != "" {
		t.Errorf("ephemeral calls (-want +got):\n%s", d)
	}
}

// TestEphemeralResourceValue: what expressions read is marked ephemeral
// all the way down, keeping the sensitive marks.
func TestEphemeralResourceValue(t *testing.T) {
	v := markEphemeral(cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("db"), "value": cty.StringVal("x").Mark(marks.Sensitive)}))
	if !marks.Has(v, marks.Ephemeral) || !marks.Has(v.GetAttr("name"), marks.Ephemeral) {
		t.Errorf("not marked throughout: %#v", v)
	}
	if !marks.Has(v.GetAttr("value"), marks.Sensitive) || !marks.Has(v.GetAttr("value"), marks.Ephemeral) {
		t.Errorf("marks lost: %#v", v)
	}
}

// TestEphemeralResourceRenewed: an instance still in use when its renew_at
// passes is renewed, with the private data its Open returned.
func TestEphemeralResourceRenewed(t *testing.T) {
	p, other := ephemeralProviders()
	open := p.OpenEphemeralFn
	p.OpenEphemeralFn = func(req providers.OpenEphemeralResourceRequest) providers.OpenEphemeralResourceResponse {
		resp := open(req)
		resp.RenewAt = time.Now().Add(20 * time.Millisecond)
		return resp
	}
	renewed := make(chan providertest.Call, 10)
	gate := make(chan struct{})
	p.Inject(&providertest.Fault{Method: providertest.RenewEphemeral, Entered: renewed})
	p.Inject(&providertest.Fault{Method: providertest.PlanResourceChange, Key: "c", Gate: gate})
	go func() {
		<-renewed
		close(gate)
	}()
	cfg := loadConfig(t, map[string]string{"main.tf": `
ephemeral "test_secret" "s" { name = "db" }
resource "test_thing" "c" {
  name       = "c"
  depends_on = [ephemeral.test_secret.s]
}
`})
	c := ephemeralContext(t, p, other)
	mustPlan(t, c, cfg, nil, nil)
	calls := p.CallStrings(ephemeralLifecycle...)
	if len(calls) < 3 || calls[0] != "OpenEphemeralResource test_secret.db" || calls[1] != "RenewEphemeralResource test_secret.db" || calls[len(calls)-1] != "CloseEphemeralResource test_secret.db" {
		t.Errorf("ephemeral calls = %v, want open, renew..., close", calls)
	}
}

// TestEphemeralResourceConditions: a failing precondition stops the open;
// a failing postcondition (self is the value opened) is an error, and the
// instance is still closed.
func TestEphemeralResourceConditions(t *testing.T) {
	tests := []struct {
		name, cond, want string
		calls            []string
	}{
		{"precondition", `precondition {
      condition     = var.ok
      error_message = "not ok"
    }`, "not ok", nil},
		{"postcondition", `postcondition {
      condition     = self.value == "s3cret-other"
      error_message = "wrong secret"
    }`, "wrong secret", []string{"OpenEphemeralResource test_secret.db", "CloseEphemeralResource test_secret.db"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, other := ephemeralProviders()
			cfg := loadConfig(t, map[string]string{"main.tf": `
variable "ok" { default = false }
ephemeral "test_secret" "s" {
  name = "db"
  lifecycle {
    ` + tt.cond + `
  }
}
`})
			_, diags := ephemeralContext(t, p, other).Plan(context.Background(), cfg, nil, nil)
			if !strings.Contains(diagsString(diags), tt.want) {
				t.Errorf("diagnostics %q lack %q", diagsString(diags), tt.want)
			}
			if d := cmp.Diff(tt.calls, p.CallStrings(ephemeralLifecycle...)); d != "" {
				t.Errorf("ephemeral calls (-want +got):\n%s", d)
			}
		})
	}
}

// TestEphemeralResourceDestroyAndProviderInstances: a destroy plan opens
// the ephemeral resources its providers need; an ephemeral resource may
// use an instance of a provider for_each.
func TestEphemeralResourceDestroyAndProviderInstances(t *testing.T) {
	p, other := ephemeralProviders()
	cfg := loadConfig(t, map[string]string{"main.tf": `
provider "test" {
  alias    = "by"
  for_each = toset(["x", "y"])
}
ephemeral "test_secret" "s" {
  for_each = toset(["x", "y"])
  provider = test.by[each.key]
  name     = each.key
}
provider "other" { token = ephemeral.test_secret.s["y"].value }
resource "other_thing" "a" { name = "a" }
`})
	c := ephemeralContext(t, p, other)
	st := states.NewState()
	st.SetResourceInstanceCurrent(mustInst(t, "other_thing.a"), &states.ResourceInstanceObjectSrc{AttrsJSON: []byte(`{"id":"A","name":"a"}`), Status: states.ObjectReady},
		addrs.AbsProviderConfig{Provider: otherProviderAddr})
	plan := mustPlan(t, c, cfg, st, &PlanOpts{Mode: plans.DestroyMode})
	if d := cmp.Diff([]string{"OpenEphemeralResource test_secret.x", "OpenEphemeralResource test_secret.y",
		"CloseEphemeralResource test_secret.x", "CloseEphemeralResource test_secret.y"}, sortedCalls(p, ephemeralLifecycle...)); d != "" {
		t.Errorf("destroy plan's ephemeral calls (-want +got):\n%s", d)
	}
	if got := other.Configured().GetAttr("token"); !got.RawEquals(cty.StringVal("s3cret-y")) {
		t.Errorf("other configured with %#v", got)
	}
	if d := cmp.Diff(map[string]string{"other_thing.a": "Delete"}, actionsByAddr(plan)); d != "" {
		t.Errorf("destroy plan (-want +got):\n%s", d)
	}
}

func actionsByAddr(p *plans.Plan) map[string]string {
	out := map[string]string{}
	for _, rc := range p.Changes.Resources {
		out[rc.Addr.String()] = rc.Action.String()
	}
	return out
}

// TestEphemeralResourceStateDependencies: the state records no dependency
// on an ephemeral resource, but keeps those reached through it.
func TestEphemeralResourceStateDependencies(t *testing.T) {
	p, other := ephemeralProviders()
	cfg := loadConfig(t, map[string]string{"main.tf": `
resource "test_thing" "a" { name = "a" }
ephemeral "test_secret" "s" { name = test_thing.a.name }
resource "test_thing" "b" {
  name       = "b"
  depends_on = [ephemeral.test_secret.s]
}
`})
	c := ephemeralContext(t, p, other)
	plan := mustPlan(t, c, cfg, nil, nil)
	st, diags := c.Apply(context.Background(), plan, cfg, &ApplyOpts{Persist: func(*states.State) error { return nil }})
	if diags.HasErrors() {
		t.Fatalf("apply: %s", diags.Error())
	}
	obj := st.ResourceInstance(mustInst(t, "test_thing.b")).Current
	var deps []string
	for _, d := range obj.Dependencies {
		deps = append(deps, d.String())
	}
	if d := cmp.Diff([]string{"test_thing.a"}, deps); d != "" {
		t.Errorf("test_thing.b's dependencies (-want +got):\n%s", d)
	}
}

// TestEphemeralResourceInModules: ephemeral blocks in module instances
// open and close per instance.
func TestEphemeralResourceInModules(t *testing.T) {
	p, other := ephemeralProviders()
	cfg := loadConfig(t, map[string]string{
		"main.tf": `
module "m" {
  source = "./mod"
  count  = 2
  n      = count.index
}
`,
		"mod/main.tf": `
variable "n" {}
ephemeral "test_secret" "s" { name = "m${var.n}" }
locals { l = length(ephemeral.test_secret.s.value) }
resource "test_thing" "t" {
  name       = "t${var.n}"
  depends_on = [ephemeral.test_secret.s]
}
`})
	c := ephemeralContext(t, p, other)
	plan := mustPlan(t, c, cfg, nil, nil)
	if d := cmp.Diff([]string{"OpenEphemeralResource test_secret.m0", "OpenEphemeralResource test_secret.m1",
		"CloseEphemeralResource test_secret.m0", "CloseEphemeralResource test_secret.m1"}, sortedCalls(p, ephemeralLifecycle...)); d != "" {
		t.Errorf("ephemeral calls (-want +got):\n%s", d)
	}
	if d := cmp.Diff(map[string]string{"module.m[0].test_thing.t": "Create", "module.m[1].test_thing.t": "Create"}, actionsByAddr(plan)); d != "" {
		t.Errorf("plan (-want +got):\n%s", d)
	}
}

// TestEphemeralResourceTargeted: -target keeps the ephemeral resources
// the targets need (through their provider here), and only those.
func TestEphemeralResourceTargeted(t *testing.T) {
	p, other := ephemeralProviders()
	cfg := loadConfig(t, map[string]string{"main.tf": `
ephemeral "test_secret" "s" { name = "db" }
ephemeral "test_secret" "unused" { name = "unused" }
provider "other" { token = ephemeral.test_secret.s.value }
resource "other_thing" "a" { name = "a" }
resource "test_thing" "b" {
  name       = "b"
  depends_on = [ephemeral.test_secret.unused]
}
`})
	c := ephemeralContext(t, p, other)
	plan := mustPlan(t, c, cfg, nil, &PlanOpts{Targets: []addrs.Targetable{mustInst(t, "other_thing.a")}})
	if d := cmp.Diff([]string{"OpenEphemeralResource test_secret.db", "CloseEphemeralResource test_secret.db"}, p.CallStrings(ephemeralLifecycle...)); d != "" {
		t.Errorf("ephemeral calls (-want +got):\n%s", d)
	}
	if d := cmp.Diff(map[string]string{"other_thing.a": "Create"}, actionsByAddr(plan)); d != "" {
		t.Errorf("plan (-want +got):\n%s", d)
	}
}
