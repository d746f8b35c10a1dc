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
)

// sortProgress sorts the leading run of "Preparing import..." and
// "Refreshing state..." lines, which the parallel walk prints in any
// order (each address's two lines stay in order: "Preparing" sorts first).
func sortProgress(s string) string {
	lines := strings.Split(s, "\n")
	n := 0
	for n < len(lines) && (strings.Contains(lines[n], ": Preparing import...") || strings.Contains(lines[n], ": Refreshing state...")) {
		n++
	}
	sort.Strings(lines[:n])
	return strings.Join(lines, "\n")
}

const importConfig = `
locals {
  nulls = { x = "n-1", y = "n-2" }
}

import {
  to = terraform_data.a
  id = "import-a"
}

resource "terraform_data" "a" {}

import {
  to = terraform_data.b
  id = "data-${local.nulls.x}"
}

resource "terraform_data" "b" {
  input = "hello"
}

import {
  for_each = local.nulls
  to       = null_resource.n[each.key]
  id       = each.value
}

resource "null_resource" "n" {
  for_each = local.nulls
}
`

// TestImportPlanApply: import blocks through both binaries. The plan shows
// the imports (golden), show -json has "importing" (golden, read back with
// terraform-json), the archive applied from another directory writes the
// imported objects to the state, and the next plan has nothing to import.
func TestImportPlanApply(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	elsewhere := t.TempDir()
	writeFile(t, filepath.Join(work, "main.tf"), importConfig)
	state := filepath.Join(elsewhere, "prod.tfstate")
	dirs := []string{work, elsewhere}

	r := plan(t, work, "-no-color", "-state="+state, "-out=imp.tfplan", "-detailed-exitcode")
	must(t, r, 2, "plan")
	golden(t, "import-plan.txt", sortProgress(normalise(r.stdout, dirs...)))
	contains(t, r.stdout, "plan", "# terraform_data.a will be imported", "# terraform_data.b will be updated in-place",
		`# (imported from "data-n-1")`, "Plan: 4 to import, 0 to add, 1 to change, 0 to destroy.")

	// The -json UI stream: Terraform's "import" action, the ID, the counts.
	ui := plan(t, work, "-json", "-state="+state)
	must(t, ui, 0, "plan -json")
	contains(t, ui.stdout, "plan -json",
		`"@message":"terraform_data.a: Plan to import"`, `"action":"import"`, `"importing":{"id":"import-a"}`,
		`"@message":"terraform_data.b: Plan to update"`,
		`"@message":"Plan: 4 to import, 0 to add, 1 to change, 0 to destroy."`, `"import":4`)

	js := plan(t, work, "show", "-json", "imp.tfplan")
	must(t, js, 0, "show -json")
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, []byte(js.stdout), "", "  "); err != nil {
		t.Fatal(err)
	}
	golden(t, "import-show.json", normalise(pretty.String(), dirs...))
	tp := readTFJSON(t, js.stdout)
	ids := map[string]string{}
	for _, rc := range tp.ResourceChanges {
		if rc.Change.Importing != nil {
			ids[rc.Address] = rc.Change.Importing.ID
		}
	}
	want := map[string]string{"terraform_data.a": "import-a", "terraform_data.b": "data-n-1", `null_resource.n["x"]`: "n-1", `null_resource.n["y"]`: "n-2"}
	if len(ids) != len(want) {
		t.Errorf("importing in show -json: %v, want %v", ids, want)
	}
	for a, id := range want {
		if ids[a] != id {
			t.Errorf("%s importing id %q, want %q", a, ids[a], id)
		}
	}

	// Only the archive travels.
	copyFile(t, filepath.Join(work, "imp.tfplan"), filepath.Join(elsewhere, "imp.tfplan"))
	ap := apply(t, elsewhere, "-no-color", "-state=prod.tfstate", "imp.tfplan")
	must(t, ap, 0, "apply")
	contains(t, ap.stdout, "apply", "terraform_data.b: Modifying... [id=data-n-1]",
		"terraform_data.a: Importing... [id=import-a]\n", "terraform_data.a: Import complete [id=import-a]\n",
		`null_resource.n["y"]: Importing... [id=n-2]`,
		"Apply complete! Resources: 4 imported, 0 added, 1 changed, 0 destroyed.")
	st, err := os.ReadFile(state)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{`"id": "import-a"`, `"id": "data-n-1"`, `"id": "n-1"`, `"id": "n-2"`, `"input": {`} {
		if !strings.Contains(string(st), s) {
			t.Errorf("state lacks %s:\n%s", s, st)
		}
	}

	again := plan(t, work, "-no-color", "-state="+state, "-detailed-exitcode")
	must(t, again, 0, "re-plan")
	contains(t, again.stdout, "re-plan", "No changes.")
}

// TestImportErrorsNameTheBlock: an import target with no resource block
// and an ID the provider cannot find fail the plan with the import
// block's file and line, and no archive is written.
func TestImportErrorsNameTheBlock(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	writeFile(t, filepath.Join(work, "main.tf"), "import {\n  to = terraform_data.missing\n  id = \"x\"\n}\n")
	r := plan(t, work, "-no-color", "-out=p.tfplan")
	must(t, r, 1, "plan")
	contains(t, r.stderr, "plan", "Configuration for import target does not exist", "on main.tf line 1")
	if _, err := os.Stat(filepath.Join(work, "p.tfplan")); err == nil {
		t.Error("a failed plan wrote an archive")
	}
}

// TestImportGenerateConfig: plan -generate-config-out writes the resource
// block of a target without one, refuses an existing file, and the plan
// applies from another directory.
func TestImportGenerateConfig(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	elsewhere := t.TempDir()
	writeFile(t, filepath.Join(work, "main.tf"), "import {\n  to = null_resource.gen\n  id = \"g-1\"\n}\n")
	r := plan(t, work, "-no-color", "-state="+filepath.Join(elsewhere, "s.tfstate"), "-out=gen.tfplan", "-generate-config-out=generated.tf")
	must(t, r, 0, "plan")
	contains(t, r.stdout, "plan", "# null_resource.gen will be imported", "# (config will be generated)",
		"Plan: 1 to import, 0 to add, 0 to change, 0 to destroy.", "has generated configuration and written it to generated.tf")
	gen, err := os.ReadFile(filepath.Join(work, "generated.tf"))
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "import-generated.tf", string(gen))

	again := plan(t, work, "-no-color", "-generate-config-out=generated.tf")
	must(t, again, 1, "plan with an existing file")
	contains(t, again.stderr, "plan", "Target generated file already exists")
	fresh := t.TempDir()
	writeFile(t, filepath.Join(fresh, "main.tf"), "import {\n  to = null_resource.gen\n  id = \"g-1\"\n}\n")
	nodir := plan(t, fresh, "-no-color", "-generate-config-out=missing/gen.tf")
	must(t, nodir, 1, "plan into a missing directory")
	contains(t, nodir.stderr, "plan", "Failed to write generated configuration")
	js := plan(t, fresh, "-json", "-generate-config-out=gen.tf")
	must(t, js, 0, "plan -json")
	contains(t, js.stdout, "plan -json", `"@message":"null_resource.gen: Plan to import"`,
		`"generated_config":"resource \"null_resource\" \"gen\" {\n  triggers = null\n}"`)

	copyFile(t, filepath.Join(work, "gen.tfplan"), filepath.Join(elsewhere, "gen.tfplan"))
	ga := apply(t, elsewhere, "-no-color", "-state=s.tfstate", "gen.tfplan")
	must(t, ga, 0, "apply")
	contains(t, ga.stdout, "apply", "null_resource.gen: Import complete [id=g-1]", "Apply complete! Resources: 1 imported, 0 added, 0 changed, 0 destroyed.")
	st, err := os.ReadFile(filepath.Join(elsewhere, "s.tfstate"))
	if err != nil || !strings.Contains(string(st), `"id": "g-1"`) {
		t.Errorf("state after apply: %s %v", st, err)
	}
	// With the generated file in place, the import is done: no changes.
	must(t, plan(t, work, "-no-color", "-state="+filepath.Join(elsewhere, "s.tfstate"), "-detailed-exitcode"), 0, "plan with the generated file")
}

// TestImportPluginGeneratedUpdate: a real plugin provider's object is
// imported with generated configuration that plans an update (its
// sensitive attribute is generated as null); the archive, applied in
// another directory, carries the generated blocks in its configuration
// snapshot, so the update is applied with the import.
func TestImportPluginGeneratedUpdate(t *testing.T) {
	mirror := newPluginMirror(t)
	env := pluginEnv(t)
	objects, create, work, other := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	providersTF := fmt.Sprintf(pluginConfig[:strings.Index(pluginConfig, "resource ")], "~> 1.0")

	writeFile(t, filepath.Join(create, "main.tf"), providersTF+"resource \"fwtest_thing\" \"a\" {\n  name   = \"alpha\"\n  secret = \"s3cret\"\n}\n")
	must(t, run(t, create, "plan", env, "-no-color", "-plugin-dir="+mirror.dir, "-var", "objects="+objects, "-out=c.tfplan"), 0, "create plan")
	must(t, run(t, create, "apply", env, "-no-color", "-plugin-dir="+mirror.dir, "c.tfplan"), 0, "create apply")
	st, err := os.ReadFile(filepath.Join(create, "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	var sf struct {
		Resources []struct {
			Instances []struct {
				Attributes map[string]any `json:"attributes"`
			} `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(st, &sf); err != nil || len(sf.Resources) != 1 {
		t.Fatalf("state: %v\n%s", err, st)
	}
	id, _ := sf.Resources[0].Instances[0].Attributes["id"].(string)

	writeFile(t, filepath.Join(work, "main.tf"), providersTF+"import {\n  to = fwtest_thing.g\n  id = \""+id+"\"\n}\n")
	state := filepath.Join(other, "terraform.tfstate")
	r := run(t, work, "plan", env, "-no-color", "-plugin-dir="+mirror.dir, "-var", "objects="+objects, "-state="+state,
		"-out=g.tfplan", "-generate-config-out=generated.tf")
	must(t, r, 0, "plan")
	contains(t, r.stdout, "plan", "# fwtest_thing.g will be updated in-place", `# (imported from "`+id+`")`,
		"Plan: 1 to import, 0 to add, 1 to change, 0 to destroy.")
	gen, _ := os.ReadFile(filepath.Join(work, "generated.tf"))
	contains(t, string(gen), "generated.tf", "secret      = null # sensitive", `name        = "alpha"`)

	copyFile(t, filepath.Join(work, "g.tfplan"), filepath.Join(other, "g.tfplan"))
	ap := run(t, other, "apply", env, "-no-color", "-plugin-dir="+mirror.dir, "g.tfplan")
	must(t, ap, 0, "apply")
	contains(t, ap.stdout, "apply", "fwtest_thing.g: Import complete [id="+id+"]", "fwtest_thing.g: Modifying... [id="+id+"]",
		"Apply complete! Resources: 1 imported, 0 added, 1 changed, 0 destroyed.")
	noProviderProcesses(t, env)

	// The generated file in place: the next plan has nothing to do.
	again := run(t, work, "plan", env, "-no-color", "-plugin-dir="+mirror.dir, "-var", "objects="+objects, "-state="+state, "-detailed-exitcode")
	must(t, again, 0, "plan after apply")
}
