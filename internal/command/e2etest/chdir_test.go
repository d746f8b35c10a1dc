package e2etest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestChdirFirstPlanWithDataSource is a first run with no state under
// -chdir: a data "local_file" reads a relative filename at plan time and a
// local_file writes one. The archive made from no state holds the data
// source, yet applies to the still-absent state; relative filenames
// resolve in the -chdir directory, not the process's; a second plan made
// from no state is refused once the first has created a state.
func TestChdirFirstPlanWithDataSource(t *testing.T) {
	t.Parallel()
	top := t.TempDir()
	cfg := filepath.Join(top, "cfg")
	if err := os.Mkdir(cfg, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(cfg, "in.txt"), "hello\n")
	writeFile(t, filepath.Join(cfg, "main.tf"), `
data "local_file" "in" {
  filename = "in.txt"
}
resource "local_file" "out" {
  filename = "out.txt"
  content  = upper(data.local_file.in.content)
}
`)
	must(t, plan(t, top, "-chdir=cfg", "-no-color", "-out=first.tfplan"), 0, "first plan")
	must(t, plan(t, top, "-chdir=cfg", "-no-color", "-out=second.tfplan"), 0, "second plan")
	must(t, plan(t, top, "-chdir=cfg", "graph"), 0, "graph")
	ap := apply(t, top, "-chdir=cfg", "-no-color", "first.tfplan")
	must(t, ap, 0, "apply of the first plan")
	contains(t, ap.stdout, "apply output", "Apply complete! Resources: 1 added, 0 changed, 0 destroyed.")
	got, err := os.ReadFile(filepath.Join(cfg, "out.txt"))
	if err != nil || string(got) != "HELLO\n" {
		t.Errorf("cfg/out.txt = %q, %v; want HELLO", got, err)
	}
	if _, err := os.Stat(filepath.Join(top, "out.txt")); err == nil {
		t.Errorf("out.txt was written in the process's directory, not the -chdir one")
	}
	stale := apply(t, top, "-chdir=cfg", "-no-color", "second.tfplan")
	must(t, stale, 1, "apply of a second plan made from no state")
	contains(t, stale.stderr, "stale apply", "Saved plan is stale")
	must(t, plan(t, top, "-chdir=cfg", "-no-color", "-detailed-exitcode"), 0, "re-plan")
}

// TestChdirReachesProviderProcesses: with -chdir, the whole process works
// in the directory, as Terraform's does, so a plugin provider's relative
// paths (state_dir = "objects": a data source reading ./objects/..., a
// resource writing there) and a local-exec command resolve there, and so
// do -out and the plan file, while the caller's directory (which has its
// own objects/, to be read by mistake) is untouched. Every subcommand
// takes -chdir after its name too.
func TestChdirReachesProviderProcesses(t *testing.T) {
	mirror := newPluginMirror(t)
	env := pluginEnv(t)
	top := t.TempDir()
	cfg := filepath.Join(top, "cfg")
	for _, d := range []string{"files", "objects/thing"} {
		for _, base := range []string{cfg, top} {
			if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	writeFile(t, filepath.Join(cfg, "main.tf"), `
terraform {
  required_providers {
    fwtest = {
      source = "plankit/fwtest"
    }
  }
}

provider "fwtest" {
  state_dir = "objects"
}

data "fwtest_thing" "seed" {
  id = "seed"
}

resource "fwtest_thing" "a" {
  name = data.fwtest_thing.seed.name

  provisioner "local-exec" {
    command = "cat files/in.txt > provisioned.txt"
  }
}

output "seed" {
  value = data.fwtest_thing.seed.name
}
`)
	writeFile(t, filepath.Join(cfg, "objects", "thing", "seed.json"), `{"name": "from-dir"}`)
	writeFile(t, filepath.Join(cfg, "files", "in.txt"), "hello from files\n")
	writeFile(t, filepath.Join(top, "objects", "thing", "seed.json"), `{"name": "from-caller"}`)

	must(t, run(t, top, "plan", env, "init", "-chdir=cfg", "-no-color", "-plugin-dir="+mirror.dir), 0, "plan init -chdir after init")
	p := run(t, top, "plan", env, "-chdir=cfg", "-no-color", "-out=p.tfplan")
	must(t, p, 0, "plan")
	contains(t, p.stdout, "plan", `name        = "from-dir"`, "Plan: 1 to add, 0 to change, 0 to destroy.", `apply -chdir=cfg "p.tfplan"`)
	if _, err := os.Stat(filepath.Join(cfg, "p.tfplan")); err != nil {
		t.Errorf("-out=p.tfplan was not written in the -chdir directory: %v", err)
	}
	a := run(t, top, "apply", env, "-chdir=cfg", "-no-color", "p.tfplan")
	must(t, a, 0, "apply")
	contains(t, a.stdout, "apply", "Apply complete! Resources: 1 added, 0 changed, 0 destroyed.", `seed = "from-dir"`)
	if got, err := os.ReadFile(filepath.Join(cfg, "provisioned.txt")); err != nil || string(got) != "hello from files\n" {
		t.Errorf("local-exec wrote cfg/provisioned.txt = %q, %v", got, err)
	}
	if entries, _ := os.ReadDir(filepath.Join(cfg, "objects", "thing")); len(entries) != 2 {
		t.Errorf("the provider stored %d objects under cfg/objects/thing, want the seed and the new one", len(entries))
	}
	if entries, _ := os.ReadDir(filepath.Join(top, "objects", "thing")); len(entries) != 1 {
		t.Errorf("the provider wrote into the caller's objects directory: %d entries", len(entries))
	}
	for _, name := range []string{"p.tfplan", "terraform.tfstate", "provisioned.txt", ".terraform"} {
		if _, err := os.Stat(filepath.Join(top, name)); err == nil {
			t.Errorf("%s was written in the caller's directory", name)
		}
	}

	// The provider reads the object back there: no changes.
	must(t, run(t, top, "plan", env, "-chdir=cfg", "-no-color", "-detailed-exitcode"), 0, "plan after apply")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"validate", "-chdir=cfg", "-no-color"}, "Success! The configuration is valid."},
		{[]string{"providers", "-chdir=cfg"}, "registry.terraform.io/plankit/fwtest"},
		{[]string{"output", "-chdir=cfg"}, `seed = "from-dir"`},
		{[]string{"show", "-chdir=cfg", "-no-color", "p.tfplan"}, `name        = "from-dir"`},
		{[]string{"graph", "-chdir=cfg"}, "fwtest_thing.a"},
		{[]string{"state", "list", "-chdir=cfg"}, "data.fwtest_thing.seed\nfwtest_thing.a"},
		{[]string{"state", "pull", "-chdir=cfg"}, `"from-dir"`},
		{[]string{"workspace", "list", "-chdir=cfg"}, "* default"},
		{[]string{"workspace", "show", "-chdir=cfg"}, "default"},
	} {
		r := run(t, top, "plan", env, c.args...)
		must(t, r, 0, "plan "+strings.Join(c.args, " "))
		contains(t, r.stdout, "plan "+strings.Join(c.args, " "), c.want)
	}
	// apply without a plan file, -chdir among its options.
	r := run(t, top, "apply", env, "-no-color", "-chdir=cfg", "-auto-approve", "-replace=fwtest_thing.a")
	must(t, r, 0, "apply -replace")
	contains(t, r.stdout, "apply -replace", "Apply complete! Resources: 1 added, 0 changed, 1 destroyed.")
}
