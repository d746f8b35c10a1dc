package plugin_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/internal/terraform"
	"github.com/plankit/plankit/states"
)

const importProviders = `
terraform {
  required_providers {
    fwtest  = { source = "plankit/fwtest" }
    sdktest = { source = "plankit/sdktest" }
  }
}
`

// TestCoreImportPluginProviders imports objects of both real plugin
// providers (framework over protocol 6, SDK v2 over protocol 5) with
// import blocks: the objects are created, forgotten (empty state), then
// imported by ID into configured resources (no changes), into an
// unconfigured one with generated configuration, and an unknown ID is the
// "non-existent remote object" error.
func TestCoreImportPluginProviders(t *testing.T) {
	f := newCoreFixture(t)
	created := importProviders + `
resource "fwtest_thing" "a" {
  name  = "a"
  value = "v1"
}
resource "sdktest_thing" "b" {
  name  = "b"
  value = "v2"
  tags  = { k = "t" }
}
`
	_, st := f.mustPlanApply(f.config(created), states.NewState())
	ids := map[string]string{}
	for _, rs := range st.AllResources() {
		for k, ri := range rs.Instances {
			obj := string(ri.Current.AttrsJSON)
			i := strings.Index(obj, `"id":"`)
			if i < 0 {
				t.Fatalf("%s has no id: %s", rs.Addr.Instance(k), obj)
			}
			rest := obj[i+len(`"id":"`):]
			ids[rs.Addr.Resource.Type] = rest[:strings.Index(rest, `"`)]
		}
	}

	imported := importProviders + `
import {
  to = fwtest_thing.x
  id = "` + ids["fwtest_thing"] + `"
}
resource "fwtest_thing" "x" {
  name  = "a"
  value = "v1"
}
import {
  to = sdktest_thing.y
  id = "` + ids["sdktest_thing"] + `"
}
resource "sdktest_thing" "y" {
  name  = "b"
  value = "v2"
  tags  = { k = "t" }
}
`
	p, next := f.mustPlanApply(f.config(imported), states.NewState())
	got := map[string]string{}
	for _, rc := range p.Changes.Resources {
		if rc.Importing == nil {
			t.Errorf("%s: not importing", rc.Addr)
			continue
		}
		got[rc.Addr.String()] = rc.Action.String() + " " + rc.Importing.ID
	}
	want := map[string]string{"fwtest_thing.x": "NoOp " + ids["fwtest_thing"], "sdktest_thing.y": "NoOp " + ids["sdktest_thing"]}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("import changes (-want +got):\n%s", diff)
	}
	if n := len(next.AllResources()); n != 2 {
		t.Errorf("state after apply has %d resources, want 2", n)
	}

	// Generated configuration from the framework provider's schema.
	gen := importProviders + `
import {
  to = fwtest_thing.g
  id = "` + ids["fwtest_thing"] + `"
}
`
	gp, diags := f.ctx.Plan(context.Background(), f.config(gen), states.NewState(), &terraform.PlanOpts{GenerateConfig: true})
	if diags.HasErrors() {
		t.Fatalf("plan with generated config: %s", diags.Error())
	}
	if len(gp.Changes.Resources) != 1 || gp.Changes.Resources[0].GeneratedConfig == "" {
		t.Fatalf("no generated configuration: %+v", gp.Changes.Resources)
	}
	text := gp.Changes.Resources[0].GeneratedConfig
	wantText := `resource "fwtest_thing" "g" {
  crash       = null
  dyn         = null
  list        = null
  name        = "a"
  password_wo = null # sensitive
  secret      = null # sensitive
  set         = null
  single      = null
  value       = "v1"
}`
	if diff := cmp.Diff(wantText, text); diff != "" {
		t.Errorf("generated configuration (-want +got):\n%s", diff)
	}
	if a := gp.Changes.Resources[0].Action.String(); a != "NoOp" {
		t.Errorf("generated configuration plans %s, want NoOp", a)
	}

	missing := importProviders + `
import {
  to = sdktest_thing.z
  id = "no-such-thing"
}
resource "sdktest_thing" "z" {
  name = "z"
}
`
	_, diags = f.plan(f.config(missing), states.NewState())
	if !diags.HasErrors() || !strings.Contains(diags.Error(), "Cannot import non-existent remote object") || !strings.Contains(diags.Error(), "main.tf:") {
		t.Errorf("importing a missing ID: %v", diags)
	}
}
