package e2etest

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const movedChild = `resource "terraform_data" "x" {
  input = "x"
}
`

// movedV1 is the configuration before the refactoring.
const movedV1 = `resource "null_resource" "old" {
  triggers = { v = "1" }
}
resource "terraform_data" "keep" {
  input = "k"
}
module "child" {
  source = "./child"
}
resource "terraform_data" "counted" {
  input = "c"
}
`

// movedV2 renames a resource, moves null_resource to terraform_data (the
// built-in converts it), renames a module call, and adds count (an
// implied move to [0]) together with a change.
const movedV2 = `resource "terraform_data" "new" {
  triggers_replace = { v = "1" }
}
moved {
  from = null_resource.old
  to   = terraform_data.new
}
resource "terraform_data" "renamed" {
  input = "k"
}
moved {
  from = terraform_data.keep
  to   = terraform_data.renamed
}
module "renamed_child" {
  source = "./child"
}
moved {
  from = module.child
  to   = module.renamed_child
}
resource "terraform_data" "counted" {
  count = 1
  input = "c2"
}
`

// TestMovedWorkflow plans a refactoring with moved blocks, shows it
// (human and show -json, read back with terraform-json), applies the
// archive from another directory, and plans again: the state has every
// object at its new address and nothing changes.
func TestMovedWorkflow(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	elsewhere := t.TempDir()
	if err := os.MkdirAll(filepath.Join(work, "child"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(work, "child", "main.tf"), movedChild)
	writeFile(t, filepath.Join(work, "main.tf"), movedV1)
	state := filepath.Join(elsewhere, "prod.tfstate")
	dirs := []string{work, elsewhere}

	must(t, plan(t, work, "-no-color", "-state="+state, "-out=first.tfplan"), 0, "first plan")
	copyFile(t, filepath.Join(work, "first.tfplan"), filepath.Join(elsewhere, "first.tfplan"))
	must(t, apply(t, elsewhere, "-no-color", "-state=prod.tfstate", "first.tfplan"), 0, "first apply")
	ids := stateIDs(t, state)

	writeFile(t, filepath.Join(work, "main.tf"), movedV2)
	r := plan(t, work, "-no-color", "-state="+state, "-out=moved.tfplan", "-detailed-exitcode")
	must(t, r, 2, "plan with moves")
	golden(t, "moved-plan.txt", normalise(r.stdout, dirs...))

	js := plan(t, work, "show", "-json", "moved.tfplan")
	must(t, js, 0, "show -json")
	tp := readTFJSON(t, js.stdout)
	prev := map[string]string{}
	for _, rc := range tp.ResourceChanges {
		prev[rc.Address] = rc.PreviousAddress
	}
	want := map[string]string{
		"terraform_data.new":                    "null_resource.old",
		"terraform_data.renamed":                "terraform_data.keep",
		"module.renamed_child.terraform_data.x": "module.child.terraform_data.x",
		"terraform_data.counted[0]":             "terraform_data.counted",
	}
	if d := cmp.Diff(want, prev); d != "" {
		t.Errorf("show -json previous_address (-want +got):\n%s", d)
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, []byte(js.stdout), "", "  "); err != nil {
		t.Fatal(err)
	}
	golden(t, "moved-show.json", normalise(pretty.String(), dirs...))

	// Only the archive travels.
	copyFile(t, filepath.Join(work, "moved.tfplan"), filepath.Join(elsewhere, "moved.tfplan"))
	ap := apply(t, elsewhere, "-no-color", "-state=prod.tfstate", "moved.tfplan")
	must(t, ap, 0, "apply with moves")
	contains(t, ap.stdout, "apply", "Apply complete! Resources: 0 added, 1 changed, 0 destroyed.")

	got := stateIDs(t, state)
	wantIDs := map[string]string{
		"terraform_data.new":                    ids["null_resource.old"],
		"terraform_data.renamed":                ids["terraform_data.keep"],
		"module.renamed_child.terraform_data.x": ids["module.child.terraform_data.x"],
		"terraform_data.counted[0]":             ids["terraform_data.counted"],
	}
	if d := cmp.Diff(wantIDs, got); d != "" {
		t.Errorf("objects after apply, by address (-want +got):\n%s", d)
	}
	raw, _ := os.ReadFile(state)
	contains(t, string(raw), "state", `"provider": "provider[\"terraform.io/builtin/terraform\"]"`)
	if strings.Contains(string(raw), "null_resource") {
		t.Errorf("state still has the null_resource:\n%s", raw)
	}

	again := plan(t, work, "-no-color", "-state="+state, "-detailed-exitcode")
	must(t, again, 0, "plan after apply")
	contains(t, again.stdout, "plan after apply", "No changes. Your infrastructure matches the configuration.")
}

// TestMovedPureMoveApply: a plan whose only changes are moves is shown
// ("has moved to", 0 to add/change/destroy), exits 2 with
// -detailed-exitcode, and applying it from another directory updates the
// state.
func TestMovedPureMoveApply(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	elsewhere := t.TempDir()
	state := filepath.Join(elsewhere, "s.tfstate")
	writeFile(t, filepath.Join(work, "main.tf"), `resource "terraform_data" "a" { input = 1 }`)
	must(t, plan(t, work, "-no-color", "-state="+state, "-out=p.tfplan"), 0, "plan")
	must(t, apply(t, work, "-no-color", "-state="+state, "p.tfplan"), 0, "apply")
	writeFile(t, filepath.Join(work, "main.tf"), "resource \"terraform_data\" \"b\" { input = 1 }\nmoved {\n  from = terraform_data.a\n  to   = terraform_data.b\n}\n")
	r := plan(t, work, "-no-color", "-state="+state, "-out=move.tfplan", "-detailed-exitcode")
	must(t, r, 2, "pure move plan")
	golden(t, "moved-pure-plan.txt", normalise(r.stdout, work, elsewhere))
	jr := plan(t, work, "-json", "-state="+state)
	must(t, jr, 0, "pure move plan -json")
	var sawMove, sawSummary bool
	for _, line := range strings.Split(strings.TrimSpace(jr.stdout), "\n") {
		var msg struct {
			Type    string `json:"type"`
			Message string `json:"@message"`
			Change  struct {
				Action   string `json:"action"`
				Resource struct {
					Addr string `json:"addr"`
				} `json:"resource"`
				Prev struct {
					Addr string `json:"addr"`
				} `json:"previous_resource"`
			} `json:"change"`
		}
		if err := json.Unmarshal([]byte(line), &msg); err != nil {
			t.Fatalf("-json line %q: %v", line, err)
		}
		switch msg.Type {
		case "planned_change":
			sawMove = msg.Change.Action == "move" && msg.Change.Resource.Addr == "terraform_data.b" && msg.Change.Prev.Addr == "terraform_data.a" &&
				msg.Message == "terraform_data.b: Plan to move"
		case "change_summary":
			sawSummary = msg.Message == "Plan: 0 to add, 0 to change, 0 to destroy."
		}
	}
	if !sawMove || !sawSummary {
		t.Errorf("-json stream lacks the move or its summary (move %v, summary %v):\n%s", sawMove, sawSummary, jr.stdout)
	}
	ro := plan(t, work, "-no-color", "-refresh-only", "-detailed-exitcode", "-state="+state)
	must(t, ro, 2, "refresh-only plan with a move")
	contains(t, ro.stdout, "refresh-only plan", "# terraform_data.a has moved to terraform_data.b", "This is a refresh-only plan")
	roj := plan(t, work, "-json", "-refresh-only", "-state="+state)
	must(t, roj, 0, "refresh-only plan -json")
	contains(t, roj.stdout, "refresh-only plan -json", `"@message":"terraform_data.b: Drift detected (move)"`, `"type":"resource_drift"`)
	copyFile(t, filepath.Join(work, "move.tfplan"), filepath.Join(elsewhere, "move.tfplan"))
	ap := apply(t, elsewhere, "-no-color", "-state=s.tfstate", "move.tfplan")
	must(t, ap, 0, "apply pure move")
	contains(t, ap.stdout, "apply", "Apply complete! Resources: 0 added, 0 changed, 0 destroyed.")
	ids := stateIDs(t, state)
	if _, ok := ids["terraform_data.b"]; !ok || len(ids) != 1 {
		t.Errorf("state after a pure move: %v", ids)
	}
}

// TestMovedErrors: invalid moved blocks stop the plan with an error that
// names the block (file and line) and the other block involved.
func TestMovedErrors(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	writeFile(t, filepath.Join(work, "main.tf"), `resource "terraform_data" "b" {}
resource "terraform_data" "c" {}
moved {
  from = terraform_data.a
  to   = terraform_data.b
}
moved {
  from = terraform_data.a
  to   = terraform_data.c
}
`)
	r := plan(t, work, "-no-color", "-state="+filepath.Join(work, "s.tfstate"))
	must(t, r, 1, "ambiguous moves")
	contains(t, r.stderr, "ambiguous moves", "Error: Ambiguous move statements", "on main.tf line 7", "The moved block at main.tf:3 moves terraform_data.a to")
}

// TestMovedTerraformState: a v4 state as Terraform 1.9 writes it after
// applying a move (the object at its new address) reads unchanged with
// the moved block still in the configuration: nothing moves, nothing
// changes.
func TestMovedTerraformState(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	writeFile(t, filepath.Join(work, "main.tf"), "resource \"terraform_data\" \"new\" {\n  triggers_replace = { v = \"1\" }\n}\nmoved {\n  from = null_resource.old\n  to   = terraform_data.new\n}\n")
	stateJSON := `{
  "version": 4,
  "terraform_version": "1.9.8",
  "serial": 3,
  "lineage": "9a8e4c0e-2b0f-4f6c-8d7a-1f2e3d4c5b6a",
  "outputs": {},
  "resources": [
    {
      "mode": "managed",
      "type": "terraform_data",
      "name": "new",
      "provider": "provider[\"terraform.io/builtin/terraform\"]",
      "instances": [
        {
          "schema_version": 0,
          "attributes": {
            "id": "5577006791947779410",
            "input": null,
            "output": null,
            "triggers_replace": {
              "value": {
                "v": "1"
              },
              "type": [
                "object",
                {
                  "v": "string"
                }
              ]
            }
          },
          "sensitive_attributes": [],
          "private": "bnVsbA=="
        }
      ]
    }
  ],
  "check_results": null
}
`
	writeFile(t, filepath.Join(work, "terraform.tfstate"), stateJSON)
	r := plan(t, work, "-no-color", "-detailed-exitcode")
	must(t, r, 0, "plan on Terraform's state after a move")
	contains(t, r.stdout, "plan", "No changes. Your infrastructure matches the configuration.")
	if b, _ := os.ReadFile(filepath.Join(work, "terraform.tfstate")); string(b) != stateJSON {
		t.Errorf("planning changed the state file")
	}
}

// stateIDs reads a state file and returns each instance's id by address.
func stateIDs(t *testing.T, path string) map[string]string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var sf struct {
		Resources []struct {
			Module, Mode, Type, Name string
			Instances                []struct {
				IndexKey   any `json:"index_key"`
				Attributes struct {
					ID string `json:"id"`
				} `json:"attributes"`
			} `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(raw, &sf); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, r := range sf.Resources {
		for _, in := range r.Instances {
			a := r.Type + "." + r.Name
			if r.Module != "" {
				a = r.Module + "." + a
			}
			switch k := in.IndexKey.(type) {
			case float64:
				a += "[" + strings.TrimSuffix(strings.TrimSuffix(jsonNum(k), ".0"), ".") + "]"
			case string:
				a += `["` + k + `"]`
			}
			out[a] = in.Attributes.ID
		}
	}
	return out
}

func jsonNum(f float64) string {
	b, _ := json.Marshal(f)
	return string(b)
}

// TestMovedApplyFailureKeepsMoves: when the apply fails on another
// resource, the state still records the moves (they are written before
// anything else), so the next plan does not try to move them again.
func TestMovedApplyFailureKeepsMoves(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	elsewhere := t.TempDir()
	state := filepath.Join(elsewhere, "s.tfstate")
	writeFile(t, filepath.Join(work, "main.tf"), `resource "terraform_data" "a" { input = 1 }`)
	must(t, plan(t, work, "-no-color", "-state="+state, "-out=p.tfplan"), 0, "plan")
	must(t, apply(t, work, "-no-color", "-state="+state, "p.tfplan"), 0, "apply")
	blocker := filepath.Join(work, "blocker")
	writeFile(t, blocker, "a file, so nothing can be created under it")
	writeFile(t, filepath.Join(work, "main.tf"), `resource "terraform_data" "b" { input = 1 }
moved {
  from = terraform_data.a
  to   = terraform_data.b
}
resource "local_file" "f" {
  filename = "`+filepath.ToSlash(filepath.Join(blocker, "x.txt"))+`"
  content  = "x"
}
`)
	must(t, plan(t, work, "-no-color", "-state="+state, "-out=move.tfplan"), 0, "plan")
	copyFile(t, filepath.Join(work, "move.tfplan"), filepath.Join(elsewhere, "move.tfplan"))
	ap := apply(t, elsewhere, "-no-color", "-state=s.tfstate", "move.tfplan")
	must(t, ap, 1, "failing apply")
	ids := stateIDs(t, state)
	if _, ok := ids["terraform_data.b"]; !ok || len(ids) != 1 {
		t.Errorf("state after the failed apply: %v, want only terraform_data.b", ids)
	}
}
