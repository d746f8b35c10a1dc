package plugin_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/states"
)

const movedProviders = `
terraform {
  required_providers {
    fwtest  = { source = "plankit/fwtest" }
    sdktest = { source = "plankit/sdktest" }
  }
}
`

// TestCoreMoveAcrossTypes moves a fwtest_legacy object to fwtest_thing
// with a moved block, through the real provider's MoveResourceState over
// protocol 6: the plan keeps the same real object at the new address
// (with its previous address), and apply records it under the new type.
// A provider without MoveResourceState (SDK v2, protocol 5) gives an
// error naming the moved block.
func TestCoreMoveAcrossTypes(t *testing.T) {
	f := newCoreFixture(t)
	_, st := f.mustPlanApply(f.config(movedProviders+`
resource "fwtest_legacy" "x" {
  name  = "moved"
  value = "mv"
}
`), states.NewState())
	oldID := movedAttr(t, st, "fwtest_legacy.x", "id")

	cfg := f.config(movedProviders + `
resource "fwtest_thing" "y" {
  name  = "moved"
  value = "mv"
}
moved {
  from = fwtest_legacy.x
  to   = fwtest_thing.y
}
`)
	p, diags := f.plan(cfg, st)
	if diags.HasErrors() {
		t.Fatalf("plan: %s", diagsDetail(diags))
	}
	if len(p.Changes.Resources) != 1 {
		t.Fatalf("changes: %v", actions(p))
	}
	rc := p.Changes.Resources[0]
	if rc.Addr.String() != "fwtest_thing.y" || rc.PrevRunAddr.String() != "fwtest_legacy.x" || rc.Action.String() == "Create" || rc.Action.IsReplace() {
		t.Fatalf("change %s (prev %s) %s, want the moved object kept", rc.Addr, rc.PrevRunAddr, rc.Action)
	}
	if id := rc.Before.GetAttr("id").AsString(); id != oldID {
		t.Errorf("moved object id %q, want %q", id, oldID)
	}
	_, st2 := f.mustPlanApply(cfg, st)
	if st2.Resource(mustAbsResource(t, "fwtest_legacy.x")) != nil {
		t.Errorf("fwtest_legacy.x still in the state")
	}
	if got := movedAttr(t, st2, "fwtest_thing.y", "id"); got != oldID {
		t.Errorf("fwtest_thing.y id %q, want %q", got, oldID)
	}

	// The SDK provider has no MoveResourceState.
	_, diags = f.plan(f.config(movedProviders+`
resource "sdktest_thing" "z" {
  name = "z"
}
moved {
  from = fwtest_thing.y
  to   = sdktest_thing.z
}
`), st2)
	if !diags.HasErrors() || !strings.Contains(diagsDetail(diags), "The moved block at main.tf:12 moves fwtest_thing.y to sdktest_thing.z") {
		t.Errorf("diagnostics %s, want the unsupported move naming main.tf:12", diagsDetail(diags))
	}
}

func movedAttr(t *testing.T, st *states.State, addr, attr string) string {
	t.Helper()
	rs := st.Resource(mustAbsResource(t, addr))
	if rs == nil || rs.Instances[addrs.NoKey] == nil {
		t.Fatalf("no %s in the state", addr)
	}
	var m map[string]any
	if err := json.Unmarshal(rs.Instances[addrs.NoKey].Current.AttrsJSON, &m); err != nil {
		t.Fatal(err)
	}
	s, _ := m[attr].(string)
	return s
}
