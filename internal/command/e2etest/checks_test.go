package e2etest

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	tfjson "github.com/hashicorp/terraform-json"
)

// TestConditionsAndChecks runs the custom conditions and check blocks of
// testdata/fixtures/e2e-checks through both binaries: unknown conditions
// deferred to apply, a check block whose scoped data source is read at
// apply, check failures as warnings that block nothing, and precondition
// failures as errors naming the condition's line.
func TestConditionsAndChecks(t *testing.T) {
	t.Parallel()
	work := fixture(t, "e2e-checks")
	elsewhere := t.TempDir()
	outDir := t.TempDir()
	state := filepath.Join(elsewhere, "checks.tfstate")
	dirs := []string{work, outDir, elsewhere}
	vars := func(extra ...string) []string {
		return append([]string{"-no-color", "-state=" + state, "-var", "out_dir=" + outDir}, extra...)
	}

	r := plan(t, work, vars("-out=first.tfplan", "-detailed-exitcode")...)
	must(t, r, 2, "first plan")
	golden(t, "checks-plan.txt", normalise(r.stdout, dirs...))

	js := plan(t, work, "show", "-json", "first.tfplan")
	must(t, js, 0, "plan show -json")
	tp := readTFJSON(t, js.stdout)
	got := map[string]tfjson.CheckStatus{}
	for _, c := range tp.Checks {
		got[string(c.Address.Kind)+" "+c.Address.ToDisplay] = c.Status
	}
	want := map[string]tfjson.CheckStatus{
		"check check.conf_file":    tfjson.CheckStatusUnknown,
		"check check.id_length":    tfjson.CheckStatusUnknown,
		"output_value output.url":  tfjson.CheckStatusPass,
		"resource local_file.conf": tfjson.CheckStatusPass,
		"resource random_id.id":    tfjson.CheckStatusUnknown,
	}
	if len(got) != len(want) {
		t.Errorf("checks: %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("check %s: %q, want %q", k, got[k], v)
		}
	}
	if len(tp.RelevantAttributes) == 0 {
		t.Errorf("no relevant_attributes for the conditions' references")
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, []byte(js.stdout), "", "  "); err != nil {
		t.Fatal(err)
	}
	golden(t, "checks-show.json", normalise(pretty.String(), dirs...))

	// Only the archive travels; the conditions are decided at apply.
	copyFile(t, filepath.Join(work, "first.tfplan"), filepath.Join(elsewhere, "first.tfplan"))
	ap := apply(t, elsewhere, "-no-color", "-state=checks.tfstate", "first.tfplan")
	must(t, ap, 0, "apply")
	contains(t, ap.stdout, "apply", "data.local_file.written: Read complete", "Apply complete! Resources: 2 added")
	if ap.stderr != "" {
		t.Errorf("apply warned or failed:\n%s", ap.stderr)
	}
	// The state records the apply's check results as Terraform does.
	var st struct {
		CheckResults []struct {
			ObjectKind string `json:"object_kind"`
			ConfigAddr string `json:"config_addr"`
			Status     string `json:"status"`
			Objects    []struct {
				ObjectAddr string `json:"object_addr"`
				Status     string `json:"status"`
			} `json:"objects"`
		} `json:"check_results"`
	}
	raw, err := os.ReadFile(state)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &st); err != nil {
		t.Fatal(err)
	}
	var results []string
	for _, c := range st.CheckResults {
		line := c.ObjectKind + " " + c.ConfigAddr + " " + c.Status
		for _, o := range c.Objects {
			line += " " + o.ObjectAddr + "=" + o.Status
		}
		results = append(results, line)
	}
	wantResults := []string{
		"check check.conf_file pass check.conf_file=pass",
		"check check.id_length pass check.id_length=pass",
		"output output.url pass output.url=pass",
		"resource local_file.conf pass local_file.conf=pass",
		"resource random_id.id pass random_id.id=pass",
	}
	if d := cmp.Diff(wantResults, results); d != "" {
		t.Errorf("state check_results (-want +got):\n%s", d)
	}

	// A failing assertion is a warning: the plan succeeds and reads the
	// scoped data source again at apply, which warns again.
	w := plan(t, work, vars("-out=warn.tfplan", "-var", "expect_port=80")...)
	must(t, w, 0, "plan with a failing check")
	golden(t, "checks-plan-warning.txt", normalise(w.stdout+w.stderr, dirs...))
	wj := plan(t, work, "show", "-json", "warn.tfplan")
	must(t, wj, 0, "show -json of the warning plan")
	for _, c := range readTFJSON(t, wj.stdout).Checks {
		if c.Address.ToDisplay != "check.conf_file" {
			continue
		}
		if c.Status != tfjson.CheckStatusFail || len(c.Instances) != 1 || len(c.Instances[0].Problems) != 1 ||
			c.Instances[0].Problems[0].Message != "conf.txt says port=443, want port=80." {
			t.Errorf("check.conf_file in show -json: %+v", c)
		}
	}
	copyFile(t, filepath.Join(work, "warn.tfplan"), filepath.Join(elsewhere, "warn.tfplan"))
	wa := apply(t, elsewhere, "-no-color", "-state=checks.tfstate", "warn.tfplan")
	must(t, wa, 0, "apply with a failing check")
	contains(t, wa.stdout+wa.stderr, "apply with a failing check", "Warning: Check block assertion failed", "conf.txt says port=443, want port=80.")

	// Failing preconditions are errors naming the condition.
	e := plan(t, work, vars("-var", "port=8080")...)
	must(t, e, 1, "plan with a failing output precondition")
	golden(t, "checks-plan-output-precondition.txt", normalise(e.stderr, dirs...))
	e = plan(t, work, vars("-var", "port=70000")...)
	must(t, e, 1, "plan with a failing resource precondition")
	contains(t, e.stderr, "resource precondition", "Error: Resource precondition failed", "on main.tf line 26, in resource \"local_file\" \"conf\":", "Port 70000 is out of range.")

	// A postcondition unknown when planning fails at apply: an error, and
	// the object it checked stays in the state.
	fresh := filepath.Join(elsewhere, "fresh.tfstate")
	f := plan(t, work, "-no-color", "-state="+fresh, "-var", "out_dir="+t.TempDir(), "-var", "hex_len=6", "-out=post.tfplan")
	must(t, f, 0, "plan with a postcondition decided at apply")
	copyFile(t, filepath.Join(work, "post.tfplan"), filepath.Join(elsewhere, "post.tfplan"))
	pa := apply(t, elsewhere, "-no-color", "-state=fresh.tfstate", "post.tfplan")
	must(t, pa, 1, "apply with a failing postcondition")
	golden(t, "checks-apply-postcondition.txt", normalise(pa.stderr, dirs...))
	l := plan(t, elsewhere, "state", "list", "-state=fresh.tfstate")
	must(t, l, 0, "state list")
	contains(t, l.stdout, "state after a failed postcondition", "random_id.id")
}

// TestVariableValidationWithReferences: a validation rule referring to
// another variable and a local (Terraform 1.9) through the plan binary.
func TestVariableValidationWithReferences(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), `variable "min" {
  type    = number
  default = 2
}

variable "replicas" {
  type    = number
  default = 3
  validation {
    condition     = var.replicas >= var.min && var.replicas <= local.max
    error_message = "replicas must be between ${var.min} and ${local.max}, not ${var.replicas}."
  }
}

locals {
  max = var.min * 2
}
`)
	must(t, plan(t, dir, "-no-color", "-detailed-exitcode"), 0, "valid replicas")
	r := plan(t, dir, "-no-color", "-var", "replicas=5")
	must(t, r, 1, "too many replicas")
	contains(t, r.stderr, "too many replicas", "Error: Invalid value for variable", `on main.tf line 6, in variable "replicas":`,
		"replicas must be between 2 and 4, not 5.", "This was checked by the validation rule at main.tf:9,3-13.")
}
