package configs

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestConditionBlockErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{
			"condition without references",
			map[string]string{"main.tf": "data \"a\" \"b\" {\n  lifecycle {\n    postcondition {\n      condition = 1 == 1\n      error_message = \"x\"\n    }\n  }\n}"},
			[]string{"main.tf:4: Invalid postcondition expression"},
		},
		{
			"condition referring to its own resource",
			map[string]string{"main.tf": "resource \"a\" \"b\" {\n  lifecycle {\n    postcondition {\n      condition = a.b.id != \"\"\n      error_message = \"x\"\n    }\n  }\n}"},
			[]string{"main.tf:4: Invalid reference in postcondition"},
		},
		{
			"condition missing error_message",
			map[string]string{"main.tf": "output \"o\" {\n  value = 1\n  precondition {\n    condition = var.x\n  }\n}\nvariable \"x\" {}"},
			[]string{"main.tf:3: Missing required argument"},
		},
		{
			"precondition in an override file",
			map[string]string{
				"main.tf":     "resource \"a\" \"b\" {}\nvariable \"x\" {}",
				"override.tf": "resource \"a\" \"b\" {\n  lifecycle {\n    precondition {\n      condition = var.x\n      error_message = \"x\"\n    }\n  }\n}",
			},
			[]string{"override.tf:3: Can't override precondition blocks"},
		},
		{
			"check without assertions",
			map[string]string{"main.tf": "check \"c\" {\n  data \"a\" \"b\" {}\n}"},
			[]string{"main.tf:1: Zero assert blocks"},
		},
		{
			"check with two data blocks",
			map[string]string{"main.tf": "check \"c\" {\n  data \"a\" \"b\" {}\n  data \"a\" \"c\" {}\n  assert {\n    condition = data.a.b.x\n    error_message = \"x\"\n  }\n}"},
			[]string{"main.tf:3: Multiple data resource blocks"},
		},
		{
			"nested data block with count, for_each and lifecycle",
			map[string]string{"main.tf": "check \"c\" {\n  data \"a\" \"b\" {\n    count = 1\n    lifecycle {}\n  }\n  assert {\n    condition = data.a.b.x\n    error_message = \"x\"\n  }\n}\ncheck \"d\" {\n  data \"a\" \"d\" {\n    for_each = {}\n  }\n  assert {\n    condition = data.a.d.x\n    error_message = \"x\"\n  }\n}"},
			[]string{`main.tf:3: Invalid "count" attribute`, "main.tf:4: Invalid lifecycle block", `main.tf:13: Invalid "for_each" attribute`},
		},
		{
			"connection and provisioner blocks in data blocks",
			map[string]string{"main.tf": "data \"a\" \"b\" {\n  connection {}\n}\ncheck \"c\" {\n  data \"a\" \"c\" {\n    provisioner \"local-exec\" {}\n  }\n  assert {\n    condition = data.a.c.x\n    error_message = \"x\"\n  }\n}"},
			[]string{"main.tf:2: Invalid connection block", "main.tf:6: Invalid provisioner block"},
		},
		{
			"duplicate check blocks",
			map[string]string{
				"a.tf": "check \"c\" {\n  assert {\n    condition = var.x\n    error_message = \"x\"\n  }\n}\nvariable \"x\" {}",
				"b.tf": "\ncheck \"c\" {\n  assert {\n    condition = var.x\n    error_message = \"x\"\n  }\n}",
			},
			[]string{`b.tf:2: Duplicate check "c" configuration`},
		},
		{
			"scoped data source named like a module data source",
			map[string]string{"main.tf": "data \"a\" \"b\" {}\ncheck \"c\" {\n  data \"a\" \"b\" {}\n  assert {\n    condition = data.a.b.x\n    error_message = \"x\"\n  }\n}"},
			[]string{`main.tf:3: Duplicate data "a" configuration`},
		},
		{
			"check block in an override file",
			map[string]string{
				"main.tf":     "variable \"x\" {}",
				"override.tf": "check \"c\" {\n  assert {\n    condition = var.x\n    error_message = \"x\"\n  }\n}",
			},
			[]string{"override.tf:1: Can't override check blocks"},
		},
		{
			"invalid check name",
			map[string]string{"main.tf": "check \"1c\" {\n  assert {\n    condition = var.x\n    error_message = \"x\"\n  }\n}\nvariable \"x\" {}"},
			[]string{"main.tf:1: Invalid check block name"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := loadInline(t, tc.files)
			if diff := cmp.Diff(tc.want, diagSummaries(diags)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s\n%s", diff, diags.Error())
			}
		})
	}
}

func TestConditionBlocksDecoded(t *testing.T) {
	cfg, diags := loadInline(t, map[string]string{"main.tf": `
variable "x" {}
resource "a" "r" {
  lifecycle {
    create_before_destroy = true
    precondition {
      condition     = var.x != ""
      error_message = "one"
    }
    postcondition {
      condition     = self.id != ""
      error_message = "two"
    }
  }
}
data "a" "d" {
  lifecycle {
    postcondition {
      condition     = self.id != ""
      error_message = "three"
    }
  }
}
output "o" {
  value = 1
  precondition {
    condition     = var.x != ""
    error_message = "four"
  }
}
check "c" {
  data "a" "scoped" {}
  assert {
    condition     = data.a.scoped.id != ""
    error_message = "five"
  }
}`})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	m := cfg.Module
	r := m.ManagedResources["a.r"]
	got := []int{len(r.Preconditions), len(r.Postconditions), len(m.DataResources["data.a.d"].Postconditions), len(m.Outputs["o"].Preconditions), len(m.Checks["c"].Asserts)}
	if diff := cmp.Diff([]int{1, 1, 1, 1, 1}, got); diff != "" {
		t.Errorf("condition counts (-want +got):\n%s", diff)
	}
	if !r.Managed.CreateBeforeDestroy {
		t.Errorf("lifecycle arguments beside conditions were lost")
	}
	scoped := m.DataResources["data.a.scoped"]
	if scoped == nil || scoped.Check != "c" || m.Checks["c"].DataResource != scoped {
		t.Errorf("scoped data source not registered with its check: %+v", scoped)
	}
	if m.DataResources["data.a.d"].Check != "" {
		t.Errorf("module data source marked as scoped")
	}
}

func TestConditionBlocksJSON(t *testing.T) {
	cfg, diags := loadInline(t, map[string]string{"main.tf.json": `{
  "variable": {"x": {}},
  "resource": {"a": {"r": {"lifecycle": {"precondition": [{"condition": "${var.x != \"\"}", "error_message": "one"}]}}}},
  "output": {"o": {"value": 1, "precondition": {"condition": "${var.x != \"\"}", "error_message": "two"}}},
  "check": {"c": {"assert": [{"condition": "${var.x != \"\"}", "error_message": "three"}]}}
}`})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	m := cfg.Module
	got := []int{len(m.ManagedResources["a.r"].Preconditions), len(m.Outputs["o"].Preconditions), len(m.Checks["c"].Asserts)}
	if diff := cmp.Diff([]int{1, 1, 1}, got); diff != "" {
		t.Errorf("condition counts (-want +got):\n%s", diff)
	}
}
