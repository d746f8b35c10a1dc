package plugin_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers/builtin"
	"github.com/plankit/plankit/providers/plugin"
	"github.com/plankit/plankit/providers/plugin/plugintest"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/terraform"
)

// coreFixture is a working directory, a state directory for the test
// providers, and a Context whose factories start the real plugins.
type coreFixture struct {
	t        testing.TB
	dir      string
	stateDir string
	ctx      *terraform.Context
}

func newCoreFixture(t testing.TB) *coreFixture {
	t.Helper()
	bins := plugintest.Build(t)
	f := &coreFixture{t: t, dir: t.TempDir(), stateDir: t.TempDir()}
	env := []string{"FWTEST_STATE_DIR=" + f.stateDir, "SDKTEST_STATE_DIR=" + f.stateDir}
	fw, _ := addrs.ParseProviderSourceString(plugintest.FWAddress)
	sdk, _ := addrs.ParseProviderSourceString(plugintest.SDKAddress)
	factories := builtin.Factories()
	factories[fw] = plugin.Factory(plugin.Meta{Provider: fw, Version: "1.0.0", Executable: bins.FW}, plugin.Options{Env: env})
	factories[sdk] = plugin.Factory(plugin.Meta{Provider: sdk, Version: "1.0.0", Executable: bins.SDK}, plugin.Options{Env: env})
	c, diags := terraform.NewContext(&terraform.ContextOpts{Providers: factories, WorkingDir: f.dir})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	f.ctx = c
	t.Cleanup(plugin.CleanupClients)
	return f
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
