package jsonplan

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	tfjson "github.com/hashicorp/terraform-json"

	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/plans"
)

// TestChecksShape: every kind of check result in the format 1.2 shape,
// compared with what terraform-json reads back.
func TestChecksShape(t *testing.T) {
	p := testPlan(t)
	p.Checks = []*plans.CheckResult{
		{Kind: "resource", Module: "module.m", Name: "test_thing.a", Status: plans.CheckFail, Objects: []plans.CheckObject{
			{Module: "module.m[0]", Addr: "module.m[0].test_thing.a[0]", Status: plans.CheckPass},
			{Module: "module.m[0]", Addr: `module.m[0].test_thing.a[1]`, Status: plans.CheckFail, FailureMessages: []string{"one", "two"}},
		}},
		{Kind: "resource", Name: "data.test_data.d", Status: plans.CheckUnknown, Objects: []plans.CheckObject{
			{Addr: `data.test_data.d["k"]`, Status: plans.CheckUnknown},
		}},
		{Kind: "output", Name: "url", Status: plans.CheckPass, Objects: []plans.CheckObject{{Addr: "output.url", Status: plans.CheckPass}}},
		{Kind: "check", Module: "module.m", Name: "health", Status: plans.CheckFail, Objects: []plans.CheckObject{
			{Module: "module.m[0]", Addr: "module.m[0].check.health", Status: plans.CheckFail, FailureMessages: []string{"down"}},
		}},
		{Kind: "check", Name: "never", Status: plans.CheckUnknown},
	}
	raw, err := Marshal(p, Options{Version: "0.1.0"})
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Checks []map[string]any `json:"checks"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	want := []map[string]any{
		{
			"address": map[string]any{"to_display": "module.m.test_thing.a", "kind": "resource", "module": "module.m", "mode": "managed", "type": "test_thing", "name": "a"},
			"status":  "fail",
			"instances": []any{
				map[string]any{"address": map[string]any{"to_display": "module.m[0].test_thing.a[0]", "module": "module.m[0]", "instance_key": float64(0)}, "status": "pass"},
				map[string]any{"address": map[string]any{"to_display": "module.m[0].test_thing.a[1]", "module": "module.m[0]", "instance_key": float64(1)}, "status": "fail",
					"problems": []any{map[string]any{"message": "one"}, map[string]any{"message": "two"}}},
			},
		},
		{
			"address": map[string]any{"to_display": "data.test_data.d", "kind": "resource", "mode": "data", "type": "test_data", "name": "d"},
			"status":  "unknown",
			"instances": []any{
				map[string]any{"address": map[string]any{"to_display": `data.test_data.d["k"]`, "instance_key": "k"}, "status": "unknown"},
			},
		},
		{
			"address":   map[string]any{"to_display": "output.url", "kind": "output_value", "name": "url"},
			"status":    "pass",
			"instances": []any{map[string]any{"address": map[string]any{"to_display": "output.url"}, "status": "pass"}},
		},
		{
			"address": map[string]any{"to_display": "module.m.check.health", "kind": "check", "module": "module.m", "name": "health"},
			"status":  "fail",
			"instances": []any{map[string]any{"address": map[string]any{"to_display": "module.m[0].check.health", "module": "module.m[0]"}, "status": "fail",
				"problems": []any{map[string]any{"message": "down"}}}},
		},
		{
			"address": map[string]any{"to_display": "check.never", "kind": "check", "name": "never"},
			"status":  "unknown",
		},
	}
	if d := cmp.Diff(want, doc.Checks); d != "" {
		t.Errorf("checks (-want +got):\n%s", d)
	}

	var tp tfjson.Plan
	if err := json.Unmarshal(raw, &tp); err != nil {
		t.Fatal(err)
	}
	if err := tp.Validate(); err != nil {
		t.Fatal(err)
	}
	got := tp.Checks[0]
	if got.Address.Kind != tfjson.CheckKindResource || got.Address.Mode != tfjson.ManagedResourceMode || got.Address.Type != "test_thing" ||
		got.Instances[1].Address.InstanceKey != float64(1) || got.Instances[1].Problems[1].Message != "two" {
		t.Errorf("terraform-json reads the resource check as %+v", got)
	}
	if tp.Checks[1].Address.Mode != tfjson.DataResourceMode || tp.Checks[2].Address.Kind != tfjson.CheckKindOutputValue ||
		tp.Checks[3].Address.Kind != tfjson.CheckKindCheckBlock || tp.Checks[3].Status != tfjson.CheckStatusFail {
		t.Errorf("terraform-json reads the checks as %+v", tp.Checks)
	}
	back, err := json.Marshal(tp.Checks)
	if err != nil {
		t.Fatal(err)
	}
	var again []map[string]any
	if err := json.Unmarshal(back, &again); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, again); d != "" {
		t.Errorf("terraform-json drops or changes check keys (-ours +theirs):\n%s", d)
	}
}

// conditionsConfig is a configuration whose custom conditions and check
// assertion refer to attributes of other resources, directly and
// through a resource's own arguments.
func conditionsConfig(t *testing.T) *configs.Config {
	t.Helper()
	dir := t.TempDir()
	src := `
resource "test_thing" "a" {
  name = "a"
  lifecycle {
    postcondition {
      condition     = self.id != test_thing.b.name
      error_message = "${test_thing.b.tags["k"]}"
    }
  }
}
resource "test_thing" "b" { name = test_thing.c.id }
resource "test_thing" "c" {}
output "o" {
  value = 1
  precondition {
    condition     = test_thing.c.list[0] != ""
    error_message = "x"
  }
}
check "k" {
  data "test_data" "d" {}
  assert {
    condition     = data.test_data.d.out == "x"
    error_message = "x"
  }
}`
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, diags := configs.LoadConfigDir(dir)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	return cfg
}
