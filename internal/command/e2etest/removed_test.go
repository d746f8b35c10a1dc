package e2etest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	tfjson "github.com/hashicorp/terraform-json"
)

// removedBefore manages two files; removedAfter drops both resource
// blocks: keep is forgotten (the file must survive: the provider is never
// asked to delete it), drop is destroyed after its removed block's
// destroy-time provisioner wrote bye.txt.
const (
	removedBefore = `variable "out_dir" {
  type = string
}

resource "local_file" "keep" {
  filename = "${var.out_dir}/keep.txt"
  content  = "kept"
}

resource "local_file" "drop" {
  count    = 2
  filename = "${var.out_dir}/drop${count.index}.txt"
  content  = "dropped"
}
`
	removedAfter = `variable "out_dir" {
  type = string
}

removed {
  from = local_file.keep
  lifecycle {
    destroy = false
  }
}

removed {
  from = local_file.drop
  lifecycle {
    destroy = true
  }
  provisioner "local-exec" {
    when    = destroy
    command = "echo bye ${self.content} >> ${dirname(self.filename)}/bye.txt"
  }
}
`
)

// TestRemovedBlocks plans removed blocks in one directory and applies the
// archive alone in another: the forgotten object leaves the state and
// stays in the world, the destroyed ones go after their provisioner ran;
// a re-plan has nothing to do.
func TestRemovedBlocks(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	elsewhere := t.TempDir()
	outDir := t.TempDir()
	state := filepath.Join(elsewhere, "prod.tfstate")
	dirs := []string{work, outDir, elsewhere}
	vars := func(extra ...string) []string {
		return append([]string{"-no-color", "-state=" + state, "-var", "out_dir=" + outDir}, extra...)
	}
	writeFile(t, filepath.Join(work, "main.tf"), removedBefore)
	must(t, plan(t, work, vars("-out=first.tfplan")...), 0, "first plan")
	must(t, apply(t, work, "-no-color", "-state="+state, "first.tfplan"), 0, "first apply")

	writeFile(t, filepath.Join(work, "main.tf"), removedAfter)
	r := plan(t, work, vars("-out=removed.tfplan", "-detailed-exitcode")...)
	must(t, r, 2, "plan with removed blocks")
	golden(t, "removed-plan.txt", normalise(r.stdout, dirs...))
	contains(t, r.stdout+r.stderr, "plan output", "Some objects will no longer be managed by plankit", " - local_file.keep\n")

	// The -json UI stream says "remove", as Terraform's does for a forget.
	stream := plan(t, work, vars("-json")...)
	must(t, stream, 0, "plan -json")
	contains(t, stream.stdout, "plan -json", `"@message":"local_file.keep: Plan to remove"`,
		`"@message":"Plan: 0 to add, 0 to change, 2 to destroy, 1 to forget."`, `"forget":1`,
		`"summary":"Some objects will no longer be managed by plankit"`)

	js := plan(t, work, "show", "-json", "removed.tfplan")
	must(t, js, 0, "plan show -json")
	tp := readTFJSON(t, js.stdout)
	got := map[string]tfjson.Actions{}
	for _, rc := range tp.ResourceChanges {
		got[rc.Address] = rc.Change.Actions
	}
	want := map[string]tfjson.Actions{
		"local_file.keep":    {tfjson.ActionForget},
		"local_file.drop[0]": {tfjson.ActionDelete},
		"local_file.drop[1]": {tfjson.ActionDelete},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("show -json actions (-want +got):\n%s", d)
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, []byte(js.stdout), "", "  "); err != nil {
		t.Fatal(err)
	}
	golden(t, "removed-show.json", normalise(pretty.String(), dirs...))

	// Only the archive travels; the apply directory has no configuration.
	copyFile(t, filepath.Join(work, "removed.tfplan"), filepath.Join(elsewhere, "removed.tfplan"))
	ap := apply(t, elsewhere, "-no-color", "-state=prod.tfstate", "removed.tfplan")
	must(t, ap, 0, "apply")
	contains(t, ap.stdout, "apply output", "local_file.drop[0]: Destroying...", "local_file.drop[1]: Destroying...")
	if strings.Contains(ap.stdout, "local_file.keep:") {
		t.Errorf("apply reported an operation on the forgotten object:\n%s", ap.stdout)
	}
	golden(t, "removed-apply-summary.txt", normalise(ap.stdout[strings.Index(ap.stdout, "\nApply complete!"):], dirs...))

	if b, err := os.ReadFile(filepath.Join(outDir, "keep.txt")); err != nil || string(b) != "kept" {
		t.Errorf("the forgotten file was touched: %q, %v", b, err)
	}
	for _, f := range []string{"drop0.txt", "drop1.txt"} {
		if _, err := os.Stat(filepath.Join(outDir, f)); !os.IsNotExist(err) {
			t.Errorf("%s not destroyed: %v", f, err)
		}
	}
	if b, err := os.ReadFile(filepath.Join(outDir, "bye.txt")); err != nil || string(b) != "bye dropped\nbye dropped\n" {
		t.Errorf("destroy-time provisioner output: %q, %v", b, err)
	}
	if got := stateResources(t, state); len(got) != 0 {
		t.Errorf("state still has %v", got)
	}

	again := plan(t, work, vars("-detailed-exitcode")...)
	must(t, again, 0, "re-plan")
	contains(t, again.stdout, "re-plan", "No changes. Your infrastructure matches the configuration.")
}

// TestRemovedStillDeclared: a removed block for a resource the
// configuration still has stops the plan with an error naming both.
func TestRemovedStillDeclared(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	writeFile(t, filepath.Join(work, "main.tf"), `resource "terraform_data" "a" {}

removed {
  from = terraform_data.a
  lifecycle {
    destroy = false
  }
}
`)
	r := plan(t, work, "-no-color")
	must(t, r, 1, "plan")
	contains(t, r.stderr, "plan errors", "Removed resource still exists", "main.tf line 3", "terraform_data.a was removed, but it is still", "at main.tf:1.")
}

// stateResources lists the resource addresses a v4 state file holds.
func stateResources(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Resources []struct {
			Module, Mode, Type, Name string
		}
	}
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range st.Resources {
		out = append(out, r.Module+" "+r.Type+"."+r.Name)
	}
	sort.Strings(out)
	return out
}

// TestRemovedPluginProviders forgets an object of a protocol 6 plugin
// provider and destroys one of a protocol 5 provider, planned in one
// directory and applied from the archive alone in another: the forgotten
// object stays in the provider's store, the destroyed one is gone, and
// the state keeps neither.
func TestRemovedPluginProviders(t *testing.T) {
	mirror := newPluginMirror(t)
	dir, objects, other := t.TempDir(), t.TempDir(), t.TempDir()
	state := filepath.Join(other, "terraform.tfstate")
	env := pluginEnv(t)
	args := func(extra ...string) []string {
		return append([]string{"-no-color", "-plugin-dir=" + mirror.dir, "-var", "objects=" + objects, "-state=" + state}, extra...)
	}
	writeFile(t, filepath.Join(dir, "main.tf"), fmt.Sprintf(pluginConfig, "~> 1.0"))
	must(t, run(t, dir, "plan", env, args("-out=create.tfplan")...), 0, "plan")
	must(t, run(t, dir, "apply", env, "-no-color", "-plugin-dir="+mirror.dir, "-state="+state, "create.tfplan"), 0, "apply")

	head, _, _ := strings.Cut(fmt.Sprintf(pluginConfig, "~> 1.0"), `resource "fwtest_thing" "a"`)
	writeFile(t, filepath.Join(dir, "main.tf"), head+`
removed {
  from = fwtest_thing.a
  lifecycle {
    destroy = false
  }
}

removed {
  from = sdktest_thing.b
  lifecycle {
    destroy = true
  }
}
`)
	r := run(t, dir, "plan", env, args("-out=removed.tfplan")...)
	must(t, r, 0, "plan with removed blocks")
	contains(t, r.stdout, "plan output", "# fwtest_thing.a will no longer be managed by plankit, but will not be destroyed",
		"# sdktest_thing.b will be destroyed", "Plan: 0 to add, 0 to change, 1 to destroy, 1 to forget.")
	if strings.Contains(r.stdout, "fwtest_thing.a: Refreshing state") {
		t.Errorf("the forgotten object was refreshed:\n%s", r.stdout)
	}
	noProviderProcesses(t, env)

	copyFile(t, filepath.Join(dir, "removed.tfplan"), filepath.Join(other, "removed.tfplan"))
	r = run(t, other, "apply", env, "-no-color", "-plugin-dir="+mirror.dir, "removed.tfplan")
	must(t, r, 0, "apply")
	contains(t, r.stdout, "apply output", "sdktest_thing.b: Destruction complete", "Apply complete! Resources: 0 added, 0 changed, 1 destroyed, 1 forgotten.")
	noProviderProcesses(t, env)
	for kind, want := range map[string]int{"thing": 1, "sdkthing": 0} {
		if entries, _ := os.ReadDir(filepath.Join(objects, kind)); len(entries) != want {
			t.Errorf("the provider stores %d %s objects, want %d", len(entries), kind, want)
		}
	}
	if got := stateResources(t, state); len(got) != 0 {
		t.Errorf("state still has %v", got)
	}
}
