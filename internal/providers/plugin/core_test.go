package plugin_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/command/render"
	"github.com/plankit/plankit/internal/providers/builtin"
	"github.com/plankit/plankit/internal/providers/plugin"
	"github.com/plankit/plankit/internal/providers/plugin/plugintest"
	"github.com/plankit/plankit/internal/terraform"
	"github.com/plankit/plankit/jsonplan"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
	"github.com/plankit/plankit/states"
)

// coreFixture is a working directory, a state directory for the test
// providers, and a Context whose factories start the real plugins.
type coreFixture struct {
	t        testing.TB
	dir      string
	stateDir string
	ctx      *terraform.Context
	// factories are ctx's providers: the built-ins and the test plugins.
	factories map[addrs.Provider]providers.Factory
}

func newCoreFixture(t testing.TB) *coreFixture {
	t.Helper()
	bins := plugintest.Build(t)
	f := &coreFixture{t: t, dir: t.TempDir(), stateDir: t.TempDir()}
	env := []string{"FWTEST_STATE_DIR=" + f.stateDir, "SDKTEST_STATE_DIR=" + f.stateDir}
	fw, _ := addrs.ParseProviderSourceString(plugintest.FWAddress)
	sdk, _ := addrs.ParseProviderSourceString(plugintest.SDKAddress)
	raw, _ := addrs.ParseProviderSourceString(plugintest.RawAddress)
	factories := builtin.Factories()
	factories[fw] = plugin.Factory(plugin.Meta{Provider: fw, Version: "1.0.0", Executable: bins.FW}, plugin.Options{Env: env})
	factories[sdk] = plugin.Factory(plugin.Meta{Provider: sdk, Version: "1.0.0", Executable: bins.SDK}, plugin.Options{Env: env})
	factories[raw] = plugin.Factory(plugin.Meta{Provider: raw, Version: "1.0.0", Executable: bins.Raw}, plugin.Options{})
	f.factories = factories
	f.ctx = f.newContext()
	t.Cleanup(plugin.CleanupClients)
	return f
}

// newContext returns a fresh Context on the fixture's providers (as a
// separate plan or apply command has: no schemas cached).
func (f *coreFixture) newContext() *terraform.Context {
	f.t.Helper()
	c, diags := terraform.NewContext(&terraform.ContextOpts{Providers: f.factories, WorkingDir: f.dir})
	if diags.HasErrors() {
		f.t.Fatal(diags.Error())
	}
	return c
}

func (f *coreFixture) config(src string) *configs.Config {
	f.t.Helper()
	if err := os.WriteFile(filepath.Join(f.dir, "main.tf"), []byte(src), 0o644); err != nil {
		f.t.Fatal(err)
	}
	cfg, diags := configs.LoadConfigDir(f.dir)
	if diags.HasErrors() {
		f.t.Fatalf("loading config: %s", diags.Error())
	}
	return cfg
}

func (f *coreFixture) plan(cfg *configs.Config, st *states.State) (*plans.Plan, hcl.Diagnostics) {
	return f.ctx.Plan(context.Background(), cfg, st, &terraform.PlanOpts{})
}

func (f *coreFixture) mustPlanApply(cfg *configs.Config, st *states.State) (*plans.Plan, *states.State) {
	f.t.Helper()
	p, diags := f.plan(cfg, st)
	if diags.HasErrors() {
		f.t.Fatalf("plan: %s", diags.Error())
	}
	next, diags := f.ctx.Apply(context.Background(), p, cfg, nil)
	if diags.HasErrors() {
		f.t.Fatalf("apply: %s", diags.Error())
	}
	return p, next
}

func actions(p *plans.Plan) map[string]string {
	out := map[string]string{}
	for _, ch := range p.Changes.Resources {
		out[ch.Addr.String()] = ch.Action.String()
	}
	return out
}

const coreConfig = `
terraform {
  required_providers {
    fwtest  = { source = "plankit/fwtest" }
    sdktest = { source = "plankit/sdktest" }
  }
}

resource "fwtest_thing" "a" {
  name        = "a"
  value       = "v1"
  secret      = "s3cret"
  password_wo = "pw"
  single      = { a = "x", s = "hidden" }
  list        = [{ a = "l0", n = 1 }]
  set         = [{ a = "s0" }]
  map         = { k = { a = "low" } }
  dyn         = { n = 1 }
  block {
    x = "bx"
  }
}

resource "sdktest_thing" "b" {
  name  = "b"
  value = fwtest_thing.a.id
  tags  = { from = fwtest_thing.a.name }
  nested {
    a = "n"
  }
  timeouts {
    create = "1m"
  }
}

data "fwtest_thing" "d" {
  id = fwtest_thing.a.id
}

output "rev" { value = data.fwtest_thing.d.revision }
`

func TestCorePlanApply(t *testing.T) {
	f := newCoreFixture(t)
	cfg := f.config(coreConfig)
	p, st := f.mustPlanApply(cfg, states.NewState())
	want := map[string]string{"fwtest_thing.a": "Create", "sdktest_thing.b": "Create", "data.fwtest_thing.d": "Read"}
	for k, v := range want {
		if actions(p)[k] != v {
			t.Errorf("first plan: %s = %q, want %q (all: %v)", k, actions(p)[k], v, actions(p))
		}
	}
	checkSensitiveRendering(t, p)
	for _, ch := range p.Changes.Resources {
		if len(ch.RequiredReplace) > 0 {
			t.Errorf("%s (%s) lists paths forcing replacement: %#v", ch.Addr, ch.Action, ch.RequiredReplace)
		}
	}

	// The objects exist, wired together.
	a := st.Resource(mustAbsResource(t, "fwtest_thing.a"))
	if a == nil {
		t.Fatalf("no fwtest_thing.a in state")
	}
	var attrs map[string]any
	if err := json.Unmarshal(a.Instances[addrs.NoKey].Current.AttrsJSON, &attrs); err != nil {
		t.Fatal(err)
	}
	id, _ := attrs["id"].(string)
	var private map[string][]byte
	if err := json.Unmarshal(a.Instances[addrs.NoKey].Current.Private, &private); err != nil || string(private["fwtest"]) != `{"created":"a"}` {
		t.Errorf("private data in state = %q (%v)", a.Instances[addrs.NoKey].Current.Private, err)
	}
	if attrs["password_wo"] != nil {
		t.Errorf("write-only value in state: %v", attrs["password_wo"])
	}
	if ov := st.RootOutputValues()["rev"]; ov == nil || ov.Value.AsBigFloat().String() != "1" {
		t.Errorf("output rev = %v", ov)
	}
	if _, err := os.Stat(filepath.Join(f.stateDir, "thing", id+".json")); err != nil {
		t.Errorf("fwtest object: %v", err)
	}

	// Nothing changed: an empty plan.
	p2, diags := f.plan(cfg, st)
	if diags.HasErrors() {
		t.Fatalf("second plan: %s", diags.Error())
	}
	// The framework warns about the deprecated "map" argument, and the
	// warning points at it.
	warned := false
	for _, d := range diags {
		if strings.Contains(d.Detail, "Use list instead.") && d.Subject != nil && d.Subject.Start.Line == 17 {
			warned = true
		}
	}
	if !warned {
		t.Errorf("no deprecation warning at main.tf:17: %s", diagsDetail(diags))
	}
	for k, v := range actions(p2) {
		if v != "NoOp" && v != "Read" {
			t.Errorf("second plan: %s %s", k, v)
		}
	}

	// In-place update and replacement.
	cfg3 := f.config(strings.Replace(strings.Replace(coreConfig, `value       = "v1"`, `value       = "v2"`, 1), `name  = "b"`, `name  = "b2"`, 1))
	p3, st3 := f.mustPlanApply(cfg3, st)
	if got := actions(p3); got["fwtest_thing.a"] != "Update" || got["sdktest_thing.b"] != "DeleteThenCreate" {
		t.Errorf("third plan: %v", got)
	}
	// The update received the private data the create stored in state.
	var obj map[string]any
	if b, err := os.ReadFile(filepath.Join(f.stateDir, "thing", id+".json")); err != nil || json.Unmarshal(b, &obj) != nil {
		t.Fatalf("reading the updated object: %v", err)
	}
	if obj["value"] != "v2" || obj["private"] != `{"created":"a"}` {
		t.Errorf("updated object = %v", obj)
	}
	for _, ch := range p3.Changes.Resources {
		var got []string
		for _, rp := range ch.RequiredReplace {
			got = append(got, configschema.FormatPath(rp))
		}
		want := map[string]string{"sdktest_thing.b": "name"}[ch.Addr.String()]
		if strings.Join(got, ",") != want {
			t.Errorf("%s: paths forcing replacement %v, want %q", ch.Addr, got, want)
		}
	}

	// Destroy everything.
	cfg4 := f.config(`terraform {
  required_providers {
    fwtest  = { source = "plankit/fwtest" }
    sdktest = { source = "plankit/sdktest" }
  }
}
`)
	p4, st4 := f.mustPlanApply(cfg4, st3)
	if got := actions(p4); got["fwtest_thing.a"] != "Delete" || got["sdktest_thing.b"] != "Delete" {
		t.Errorf("destroy plan: %v", got)
	}
	if n := len(st4.AllResourceInstances()); n != 0 {
		t.Errorf("%d objects left in state", n)
	}
	if _, err := os.Stat(filepath.Join(f.stateDir, "thing", id+".json")); !os.IsNotExist(err) {
		t.Errorf("fwtest object not deleted: %v", err)
	}
}

func mustAbsResource(t testing.TB, s string) addrs.AbsResource {
	t.Helper()
	typ, name, _ := strings.Cut(s, ".")
	return addrs.AbsResource{Resource: addrs.Resource{Mode: addrs.ManagedResourceMode, Type: typ, Name: name}}
}

// checkSensitiveRendering renders the first plan as text and as JSON: the
// values of sensitive attributes (top-level and inside nested attributes)
// never reach the text, and the JSON marks them in after_sensitive.
func checkSensitiveRendering(t *testing.T, p *plans.Plan) {
	t.Helper()
	var buf bytes.Buffer
	if err := render.Plan(&buf, p, false); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	for _, secret := range []string{"s3cret", "hidden", `"pw"`} {
		if strings.Contains(text, secret) {
			t.Errorf("rendered plan shows %s:\n%s", secret, text)
		}
	}
	if !strings.Contains(text, "(sensitive value)") || !strings.Contains(text, `"l0"`) {
		t.Errorf("rendered plan lacks the redaction or the nested values:\n%s", text)
	}
	js, err := jsonplan.Marshal(p, jsonplan.Options{Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		ResourceChanges []struct {
			Address string `json:"address"`
			Change  struct {
				AfterSensitive map[string]any `json:"after_sensitive"`
			} `json:"change"`
		} `json:"resource_changes"`
	}
	if err := json.Unmarshal(js, &doc); err != nil {
		t.Fatal(err)
	}
	for _, rc := range doc.ResourceChanges {
		if rc.Address != "fwtest_thing.a" {
			continue
		}
		as := rc.Change.AfterSensitive
		single, _ := as["single"].(map[string]any)
		if as["secret"] != true || single["s"] != true {
			t.Errorf("after_sensitive = %v", as)
		}
		return
	}
	t.Errorf("no fwtest_thing.a in the JSON plan")
}

// TestCoreCrashMidApply: a provider that panics while creating the second
// of two dependent resources. The apply fails with an error quoting the
// panic, and the state keeps the first object.
func TestCoreCrashMidApply(t *testing.T) {
	f := newCoreFixture(t)
	cfg := f.config(`
terraform {
  required_providers {
    fwtest = { source = "plankit/fwtest" }
  }
}
resource "fwtest_thing" "ok" {
  name = "ok"
}
resource "fwtest_thing" "boom" {
  name  = "boom"
  value = fwtest_thing.ok.id
  crash = true
}
`)
	p, diags := f.plan(cfg, states.NewState())
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	st, diags := f.ctx.Apply(context.Background(), p, cfg, nil)
	if !diags.HasErrors() {
		t.Fatal("apply succeeded")
	}
	msg := diagsDetail(diags)
	for _, want := range []string{"Provider crashed", "registry.terraform.io/plankit/fwtest", `panic: fwtest: crash requested while creating "boom"`} {
		if !strings.Contains(msg, want) {
			t.Errorf("diagnostics do not mention %q:\n%s", want, msg)
		}
	}
	if st == nil {
		t.Fatal("no state after the failed apply")
	}
	ok := st.Resource(mustAbsResource(t, "fwtest_thing.ok"))
	if ok == nil || ok.Instances[addrs.NoKey] == nil || ok.Instances[addrs.NoKey].Current == nil {
		t.Fatalf("state lost fwtest_thing.ok: %v", st.AllResourceInstances())
	}
	if b := st.Resource(mustAbsResource(t, "fwtest_thing.boom")); b != nil && b.Instances[addrs.NoKey] != nil && b.Instances[addrs.NoKey].Current != nil {
		t.Errorf("fwtest_thing.boom in state after its crash")
	}
}

func ctyString(s string) cty.Value { return cty.StringVal(s) }

func diagsDetail(diags hcl.Diagnostics) string {
	var b strings.Builder
	for _, d := range diags {
		b.WriteString(d.Summary + ": " + d.Detail + "\n")
	}
	return b.String()
}

// TestCoreProviderFunctions calls provider::fwtest::reverse in a resource
// argument and an output, under a local name other than the type, and
// checks a refused argument's error.
func TestCoreProviderFunctions(t *testing.T) {
	f := newCoreFixture(t)
	cfg := f.config(`
terraform {
  required_providers {
    fw = { source = "plankit/fwtest" }
  }
}
resource "fwtest_thing" "a" {
  provider = fw
  name     = provider::fw::reverse("olleh")
}
output "r" { value = provider::fw::reverse(fwtest_thing.a.name) }
`)
	_, st := f.mustPlanApply(cfg, states.NewState())
	if ov := st.RootOutputValues()["r"]; ov == nil || !ov.Value.RawEquals(ctyString("olleh")) {
		t.Errorf("output r = %v", ov)
	}
	bad := f.config(`
terraform {
  required_providers {
    fw = { source = "plankit/fwtest" }
  }
}
output "r" { value = provider::fw::reverse("error") }
`)
	_, diags := f.plan(bad, states.NewState())
	if !diags.HasErrors() || !strings.Contains(diagsDetail(diags), `the input "error" is refused`) {
		t.Errorf("diagnostics: %s", diagsDetail(diags))
	} else if d := diags[0]; d.Subject == nil || d.Subject.Start.Line != 7 {
		t.Errorf("diagnostic subject %v, want main.tf line 7", d.Subject)
	}
}

// TestCoreDiagnosticRanges: provider diagnostics with attribute paths
// point at the argument in the configuration, nested values included.
func TestCoreDiagnosticRanges(t *testing.T) {
	f := newCoreFixture(t)
	cfg := f.config(`terraform {
  required_providers {
    fwtest = { source = "plankit/fwtest" }
  }
}
resource "fwtest_thing" "a" {
  name  = "a"
  value = "invalid"
  list = [
    { a = "ok" },
    { a = "invalid" },
  ]
}
`)
	_, diags := f.plan(cfg, states.NewState())
	got := map[string]string{}
	for _, d := range diags {
		if d.Subject != nil {
			got[d.Summary] = fmt.Sprintf("%s:%d,%d", filepath.Base(d.Subject.Filename), d.Subject.Start.Line, d.Subject.Start.Column)
		}
	}
	want := map[string]string{"Invalid value": "main.tf:8,11", "Invalid nested value": "main.tf:11,11"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s at %q, want %q (all: %v)", k, got[k], v, got)
		}
	}
}

// TestCoreStateUpgrade plans against a state written under fwtest_thing's
// schema version 0 ("val", since renamed "value"): the provider upgrades
// it and, the object matching the configuration, nothing changes.
func TestCoreStateUpgrade(t *testing.T) {
	f := newCoreFixture(t)
	obj := `{"id":"x1","name":"n","value":"old","revision":1}`
	if err := os.MkdirAll(filepath.Join(f.stateDir, "thing"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(f.stateDir, "thing", "x1.json"), []byte(obj), 0o644); err != nil {
		t.Fatal(err)
	}
	fw, _ := addrs.ParseProviderSourceString(plugintest.FWAddress)
	addr, diags := addrs.ParseAbsResourceInstanceStr("fwtest_thing.a")
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	st := states.NewState()
	st.SetResourceInstanceCurrent(addr, &states.ResourceInstanceObjectSrc{
		AttrsJSON: []byte(`{"id":"x1","name":"n","val":"old"}`), SchemaVersion: 0, Status: states.ObjectReady,
	}, addrs.AbsProviderConfig{Provider: fw})
	cfg := f.config(`terraform {
  required_providers {
    fwtest = { source = "plankit/fwtest" }
  }
}
resource "fwtest_thing" "a" {
  name  = "n"
  value = "old"
}
`)
	p, diags := f.plan(cfg, st)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if got := actions(p)["fwtest_thing.a"]; got != "NoOp" {
		t.Errorf("action %s, want NoOp", got)
	}
}

// TestCoreCreateBeforeDestroy replaces a fwtest_thing with
// create_before_destroy: the new object exists before the old one goes,
// and only the new one is left.
func TestCoreCreateBeforeDestroy(t *testing.T) {
	f := newCoreFixture(t)
	src := `terraform {
  required_providers {
    fwtest = { source = "plankit/fwtest" }
  }
}
resource "fwtest_thing" "a" {
  name = "NAME"
  lifecycle {
    create_before_destroy = true
  }
}
`
	_, st := f.mustPlanApply(f.config(strings.Replace(src, "NAME", "one", 1)), states.NewState())
	oldID := thingID(t, st, "fwtest_thing.a")
	p, st2 := f.mustPlanApply(f.config(strings.Replace(src, "NAME", "two", 1)), st)
	if got := actions(p)["fwtest_thing.a"]; got != "CreateThenDelete" {
		t.Errorf("action %s, want CreateThenDelete", got)
	}
	newID := thingID(t, st2, "fwtest_thing.a")
	if newID == oldID {
		t.Fatalf("object not replaced: id %s", newID)
	}
	if _, err := os.Stat(filepath.Join(f.stateDir, "thing", oldID+".json")); !os.IsNotExist(err) {
		t.Errorf("old object still exists: %v", err)
	}
	if _, err := os.Stat(filepath.Join(f.stateDir, "thing", newID+".json")); err != nil {
		t.Errorf("new object: %v", err)
	}
}

func thingID(t *testing.T, st *states.State, addr string) string {
	t.Helper()
	r := st.Resource(mustAbsResource(t, addr))
	if r == nil || r.Instances[addrs.NoKey] == nil || r.Instances[addrs.NoKey].Current == nil {
		t.Fatalf("%s not in state", addr)
	}
	var attrs map[string]any
	if err := json.Unmarshal(r.Instances[addrs.NoKey].Current.AttrsJSON, &attrs); err != nil {
		t.Fatal(err)
	}
	id, _ := attrs["id"].(string)
	return id
}
