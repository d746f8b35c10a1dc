package e2etest

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"
)

// TestTwoStepWorkflow is the CI recipe: plan with -out in one directory,
// apply the archive alone in another with -state, re-plan to no changes,
// refuse a stale plan and a plan for another state, compare and graph
// plans, destroy.
func TestTwoStepWorkflow(t *testing.T) {
	t.Parallel()
	work := fixture(t, "e2e-basic")
	elsewhere := t.TempDir()
	outDir := t.TempDir()
	state := filepath.Join(elsewhere, "prod.tfstate")
	dirs := []string{work, outDir, elsewhere}
	vars := func(extra ...string) []string {
		return append([]string{"-no-color", "-state=" + state, "-var", "out_dir=" + outDir}, extra...)
	}

	r := plan(t, work, vars("-out=first.tfplan", "-detailed-exitcode")...)
	must(t, r, 2, "first plan")
	golden(t, "basic-plan.txt", normalise(r.stdout, dirs...))

	show := plan(t, work, "show", "-no-color", "first.tfplan")
	must(t, show, 0, "plan show")
	if !strings.HasPrefix(r.stdout, show.stdout) || !strings.Contains(show.stdout, "Plan: 5 to add") {
		t.Errorf("plan show is not the plan's rendering:\n%s", show.stdout)
	}
	js := plan(t, work, "show", "-json", "first.tfplan")
	must(t, js, 0, "plan show -json")
	tp := readTFJSON(t, js.stdout)
	if len(tp.ResourceChanges) != 5 || tp.FormatVersion != "1.2" {
		t.Errorf("show -json: format %s, %d resource changes, want 1.2 and 5", tp.FormatVersion, len(tp.ResourceChanges))
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, []byte(js.stdout), "", "  "); err != nil {
		t.Fatal(err)
	}
	golden(t, "basic-show.json", normalise(pretty.String(), dirs...))

	// Only the archive travels; the apply directory has no configuration.
	copyFile(t, filepath.Join(work, "first.tfplan"), filepath.Join(elsewhere, "first.tfplan"))
	ap := apply(t, elsewhere, "-no-color", "-state=prod.tfstate", "first.tfplan")
	must(t, ap, 0, "apply")
	for _, addr := range []string{"local_file.out", "null_resource.each[0]", "null_resource.each[1]", "random_id.id", "terraform_data.combined"} {
		contains(t, ap.stdout, "apply output", addr+": Creating...\n")
		if !regexp.MustCompile(regexp.QuoteMeta(addr) + `: Creation complete after \d+s \[id=[^\]]+\]\n`).MatchString(ap.stdout) {
			t.Errorf("apply output lacks %s's completion:\n%s", addr, ap.stdout)
		}
	}
	golden(t, "basic-apply-summary.txt", normalise(ap.stdout[strings.Index(ap.stdout, "\nApply complete!"):], dirs...))
	if b, err := os.ReadFile(filepath.Join(outDir, "out.txt")); err != nil || string(b) != "a,b" {
		t.Errorf("local_file: %q, %v", b, err)
	}

	again := plan(t, work, vars("-detailed-exitcode")...)
	must(t, again, 0, "re-plan")
	contains(t, again.stdout, "re-plan", "No changes. Your infrastructure matches the configuration.")

	// Update in place, replace (forces replacement), destroy with a reason,
	// output changes.
	second := plan(t, work, vars("-out=second.tfplan", "-var", `names=["a"]`)...)
	must(t, second, 0, "second plan")
	golden(t, "basic-plan-update.txt", normalise(second.stdout, dirs...))
	must(t, plan(t, work, vars("-out=third.tfplan", "-var", `names=["a","b","c"]`)...), 0, "third plan")

	// plan diff compares two archives.
	d := plan(t, work, "diff", "-no-color", "second.tfplan", "third.tfplan")
	must(t, d, 2, "plan diff")
	golden(t, "basic-diff.txt", d.stdout)
	must(t, plan(t, work, "diff", "second.tfplan", "second.tfplan"), 0, "plan diff of a plan with itself")
	dj := plan(t, work, "diff", "-json", "second.tfplan", "third.tfplan")
	must(t, dj, 2, "plan diff -json")
	var diffDoc struct {
		Resources []struct{ Address, Status string } `json:"resources"`
	}
	if err := json.Unmarshal([]byte(dj.stdout), &diffDoc); err != nil || len(diffDoc.Resources) == 0 {
		t.Errorf("plan diff -json: %v\n%s", err, dj.stdout)
	}

	// plan graph reads an archive alone, or the working directory.
	g := plan(t, elsewhere, "graph", "-plan="+filepath.Join(work, "second.tfplan"))
	must(t, g, 0, "plan graph -plan")
	contains(t, g.stdout, "apply graph", "digraph {", `"local_file.out (destroy)"`, `"null_resource.each[1] (destroy)"`)
	g = plan(t, work, "graph", "-type=plan-destroy", "-state="+state)
	must(t, g, 0, "plan graph -type=plan-destroy")
	contains(t, g.stdout, "destroy graph", "digraph {", `"null_resource.each (destroy)" [label = "null_resource.each (destroy)"]`,
		`"local_file.out (destroy)"`, `"terraform_data.combined (destroy)" -> "null_resource.each (destroy)"`,
		`"terraform_data.combined (destroy)" -> "random_id.id (destroy)"`, `provider[\"registry.terraform.io/hashicorp/local\"]`)

	// third moves the state on: second is stale now, and refused before it
	// touches anything.
	must(t, apply(t, work, "-no-color", "-state="+state, "third.tfplan"), 0, "apply third")
	before, _ := os.ReadFile(state)
	stale := apply(t, work, "-no-color", "-state="+state, "second.tfplan")
	must(t, stale, 1, "stale apply")
	contains(t, stale.stderr, "stale apply", "Error: Saved plan is stale")
	if after, _ := os.ReadFile(state); !bytes.Equal(before, after) {
		t.Error("a refused stale apply changed the state file")
	}
	other := apply(t, work, "-no-color", "-state="+filepath.Join(t.TempDir(), "other.tfstate"), "third.tfplan")
	must(t, other, 1, "apply to another state")
	contains(t, other.stderr, "apply to another state", "Error: Saved plan is for a different state")

	ds := plan(t, work, vars("-destroy", "-out=destroy.tfplan")...)
	must(t, ds, 0, "destroy plan")
	golden(t, "basic-plan-destroy.txt", normalise(ds.stdout, dirs...))
	da := apply(t, work, "-no-color", "-state="+state, "destroy.tfplan")
	must(t, da, 0, "destroy apply")
	contains(t, da.stdout, "destroy apply", "Apply complete! Resources: 0 added, 0 changed, 6 destroyed.")
	if _, err := os.Stat(filepath.Join(outDir, "out.txt")); !os.IsNotExist(err) {
		t.Errorf("local_file still exists after destroy: %v", err)
	}
	empty := plan(t, work, vars("-detailed-exitcode", "-destroy")...)
	must(t, empty, 0, "destroy plan after destroy")
	contains(t, empty.stdout, "destroy plan after destroy", "No changes. No objects need to be destroyed.")
}

// readTFJSON unmarshals show -json output into terraform-json's Plan, as
// policy and cost tools do, and validates it.
func readTFJSON(t *testing.T, s string) *tfjson.Plan {
	t.Helper()
	var tp tfjson.Plan
	if err := json.Unmarshal([]byte(s), &tp); err != nil {
		t.Fatalf("terraform-json cannot read show -json: %v", err)
	}
	if err := tp.Validate(); err != nil {
		t.Fatalf("terraform-json rejects show -json: %v", err)
	}
	return &tp
}

// TestQuickstart runs the README's quick start commands as written, from
// the repository root: the go build line must be there, and every bin/
// command of the section (the plan and apply, then the follow-up show,
// output, no-change plan and destroy) runs with the binaries TestMain
// built, with the /tmp paths moved to a temporary directory.
func TestQuickstart(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile(filepath.Join("..", "..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	section := string(readme)
	if i := strings.Index(section, "## Quick start"); i >= 0 {
		section = section[i:]
	}
	if i := strings.Index(section[1:], "\n## "); i >= 0 {
		section = section[:i+1]
	}
	if !strings.Contains(section, "\ngo build -o bin/ ./cmd/...\n") {
		t.Fatalf("the README's quick start does not build the binaries with go build -o bin/ ./cmd/...")
	}
	var cmds []string
	for _, line := range strings.Split(section, "\n") {
		if strings.HasPrefix(line, "bin/plan ") || strings.HasPrefix(line, "bin/apply ") {
			cmds = append(cmds, line)
		}
	}
	if len(cmds) < 2 || !strings.HasPrefix(cmds[0], "bin/plan ") || !strings.HasPrefix(cmds[1], "bin/apply ") {
		t.Fatalf("the README's quick start does not start with a bin/plan and a bin/apply command: %q", cmds)
	}
	tmp := t.TempDir()
	outDir := filepath.Join(tmp, "out")
	root, _ := filepath.Abs(filepath.Join("..", "..", ".."))
	for i, line := range cmds {
		if j := strings.Index(line, "#"); j >= 0 {
			line = line[:j]
		}
		fields := strings.Fields(strings.ReplaceAll(line, "/tmp/", tmp+"/"))
		bin := strings.TrimPrefix(fields[0], "bin/")
		r := run(t, root, bin, []string{"TF_VAR_out_dir=" + outDir}, fields[1:]...)
		must(t, r, 0, "quick start command "+line)
		switch i {
		case 0:
			contains(t, r.stdout, "quick start plan", "apply -chdir=testdata/fixtures/quickstart -state="+tmp+"/quickstart.tfstate")
		case 1:
			contains(t, r.stdout, "quick start apply", "Apply complete! Resources: 4 added, 0 changed, 0 destroyed.", "password = <sensitive>", "pet = ")
			b, err := os.ReadFile(filepath.Join(outDir, "greeting.txt"))
			if err != nil || !regexp.MustCompile(`^Hello, [a-z]+-[a-z]+!\n$`).Match(b) {
				t.Errorf("greeting.txt = %q, %v", b, err)
			}
		}
	}
	if last := cmds[len(cmds)-1]; !strings.Contains(last, "destroy.tfplan") {
		t.Errorf("the quick start does not end with the destroy: %s", last)
	}
	if entries, _ := os.ReadDir(filepath.Join(root, "testdata", "fixtures", "quickstart")); len(entries) != 2 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		sort.Strings(names)
		t.Errorf("the quick start left files in the fixture directory: %v", names)
	}
}
