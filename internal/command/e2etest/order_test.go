package e2etest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const orderTeamModule = `
terraform {
  required_providers {
    sdktest = { source = "plankit/sdktest" }
  }
}

variable "role" { type = string }
variable "readers" { type = set(string) }

resource "sdktest_object" "role" {
  name = var.role
}

resource "sdktest_object" "grant" {
  for_each = var.readers
  name     = "grant_${each.key}"
  refs     = [sdktest_object.role.name]
  delay_ms = 150
}
`

const orderRootConfig = `
terraform {
  required_providers {
    sdktest = { source = "plankit/sdktest" }
  }
}

module "team" {
  source   = "./team"
  for_each = %s
  role     = each.value.role
  readers  = each.value.readers
}
%s
`

// TestApplyOrderSavedPlanRealAPI: the real-stack failure through the
// binaries and a saved plan applied in another directory. A module
// instance's key is moved, its role renamed and some grants naming the
// role destroyed: the apply graph of the archive orders each grant's
// destroy before the role's update, and the apply (through
// sdktest_object, which cannot revoke a grant from a renamed role)
// succeeds with the calls in that order.
func TestApplyOrderSavedPlanRealAPI(t *testing.T) {
	mirror := newPluginMirror(t)
	dir, objects := t.TempDir(), t.TempDir()
	env := append(pluginEnv(t), "SDKTEST_STATE_DIR="+objects)
	if err := os.MkdirAll(filepath.Join(dir, "team"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "team", "main.tf"), orderTeamModule)
	state := filepath.Join(dir, "terraform.tfstate")

	writeFile(t, filepath.Join(dir, "main.tf"), fmt.Sprintf(orderRootConfig,
		`{ data = { role = "data_readers", readers = ["alice", "bob", "dan"] } }`, ""))
	r := run(t, dir, "plan", env, "-no-color", "-plugin-dir="+mirror.dir, "-out=1.tfplan")
	must(t, r, 0, "first plan")
	must(t, run(t, dir, "apply", env, "-no-color", "-plugin-dir="+mirror.dir, "1.tfplan"), 0, "first apply")

	writeFile(t, filepath.Join(dir, "main.tf"), fmt.Sprintf(orderRootConfig,
		`{ analytics = { role = "analytics_readers", readers = ["alice", "carol"] } }`,
		"moved {\n  from = module.team[\"data\"]\n  to   = module.team[\"analytics\"]\n}"))
	r = run(t, dir, "plan", env, "-no-color", "-plugin-dir="+mirror.dir, "-out=2.tfplan")
	must(t, r, 0, "second plan")
	contains(t, r.stdout, "second plan", `module.team["analytics"].sdktest_object.role will be updated in-place`,
		`module.team["analytics"].sdktest_object.grant["bob"] will be destroyed`,
		"Plan: 1 to add, 2 to change, 2 to destroy.")

	// The apply graph read from the archive alone orders the destroys
	// before the update.
	other := t.TempDir()
	copyFile(t, filepath.Join(dir, "2.tfplan"), filepath.Join(other, "2.tfplan"))
	r = run(t, other, "plan", env, "graph", "-type=apply", "-plugin-dir="+mirror.dir, "-plan=2.tfplan")
	must(t, r, 0, "plan graph")
	roleUpdate := `module.team.sdktest_object.role`
	for _, g := range []string{"bob", "dan"} {
		destroy := fmt.Sprintf(`module.team["analytics"].sdktest_object.grant["%s"] (destroy)`, g)
		if !reaches(t, r.stdout, roleUpdate, destroy) {
			t.Errorf("the apply graph does not order %s before %s:\n%s", destroy, roleUpdate, r.stdout)
		}
	}

	r = run(t, other, "apply", env, "-no-color", "-plugin-dir="+mirror.dir, "-state="+state, "2.tfplan")
	must(t, r, 0, "apply of the saved plan in another directory")
	contains(t, r.stdout, "apply", "Apply complete! Resources: 1 added, 2 changed, 2 destroyed.")
	b, err := os.ReadFile(filepath.Join(objects, "api", "calls.log"))
	if err != nil {
		t.Fatal(err)
	}
	var renameStart int64
	ends := map[string]int64{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var start, end int64
		var op, name string
		if _, err := fmt.Sscanf(line, "%d %d %s %s", &start, &end, &op, &name); err != nil {
			t.Fatalf("calls.log line %q: %v", line, err)
		}
		if !strings.HasSuffix(line, " ok") {
			t.Errorf("a call failed: %s", line)
		}
		switch {
		case op == "update" && name == "analytics_readers":
			renameStart = start
		case op == "delete":
			ends[name] = end
		}
	}
	for _, g := range []string{"grant_bob", "grant_dan"} {
		if ends[g] == 0 || ends[g] > renameStart {
			t.Errorf("%s was not revoked before the role's rename began:\n%s", g, b)
		}
	}
}

// reaches tells whether, in the DOT graph dot, node from depends on node
// to through its edges ("from" -> "to" lines, names quoted as DOT quotes
// them).
func reaches(t *testing.T, dot, from, to string) bool {
	t.Helper()
	edges := map[string][]string{}
	for _, line := range strings.Split(dot, "\n") {
		a, b, ok := strings.Cut(strings.TrimSpace(line), " -> ")
		if !ok {
			continue
		}
		unquote := func(s string) string { return strings.ReplaceAll(strings.Trim(s, `"`), `\"`, `"`) }
		a, b = unquote(a), unquote(strings.TrimSuffix(b, ";"))
		edges[a] = append(edges[a], b)
	}
	seen := map[string]bool{}
	var walk func(n string) bool
	walk = func(n string) bool {
		if strings.HasSuffix(n, to) {
			return true
		}
		if seen[n] {
			return false
		}
		seen[n] = true
		for _, m := range edges[n] {
			if walk(m) {
				return true
			}
		}
		return false
	}
	for n := range edges {
		if strings.HasSuffix(n, from) && walk(n) {
			return true
		}
	}
	return false
}
