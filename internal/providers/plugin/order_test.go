package plugin_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/plankit/plankit/states"
)

// orderTeam is a module with a role and grants naming it, as a database
// management provider has them: sdktest_object refuses to release a
// grant whose role is no longer called by the name the grant was given.
const orderTeam = `
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
  delay_ms = 150 # revoking is slow: a rename run beside it goes first
}
`

// orderRoot calls the team module once per team; teams maps each key
// to its role and readers.
const orderRoot = `
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

// TestCoreDestroyDependentsBeforeUpdate is the real-stack failure: a
// module instance's for_each key is renamed (moved) along with its role
// and the map its grants are keyed by. Some grants are destroyed, the
// role is renamed in place, new grants are created; the old grants must
// be revoked before the role is renamed, or revoking fails ("object
// ... does not exist"), as it did in the real stack against PostgreSQL.
// Then the grants go entirely (the dependency is only in the state) while
// the role is renamed again.
func TestCoreDestroyDependentsBeforeUpdate(t *testing.T) {
	f := newCoreFixture(t)
	if err := os.MkdirAll(filepath.Join(f.dir, "team"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(f.dir, "team", "main.tf"), []byte(orderTeam), 0o644); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name, teams, extra string
	}{
		{"create", `{ data = { role = "data_readers", readers = ["alice", "bob", "dan"] } }`, ""},
		{"rename", `{ analytics = { role = "analytics_readers", readers = ["alice", "carol"] } }`,
			`moved {
  from = module.team["data"]
  to   = module.team["analytics"]
}`},
	}
	st := states.NewState()
	for _, s := range steps {
		cfg := f.config(strings.Replace(strings.Replace(orderRoot, "%s", s.teams, 1), "%s", s.extra, 1))
		f.ctx = f.newContext()
		p, diags := f.plan(cfg, st)
		if diags.HasErrors() {
			t.Fatalf("%s: plan: %s", s.name, diags.Error())
		}
		next, diags := f.newContext().Apply(context.Background(), p, cfg, nil)
		if diags.HasErrors() {
			t.Fatalf("%s: apply: %s\ncalls:\n%s", s.name, diags.Error(), readCalls(t, f.stateDir))
		}
		st = next
	}
	calls := apiCalls(t, f.stateDir)
	rename := calls.find(t, "update", "analytics_readers")
	for _, g := range []string{"grant_bob", "grant_dan"} {
		if d := calls.find(t, "delete", g); d.end > rename.start {
			t.Errorf("%s was revoked after the role's rename began:\n%s", g, readCalls(t, f.stateDir))
		}
	}
	if c := calls.find(t, "create", "grant_carol"); c.start < rename.end {
		t.Errorf("grant_carol was created before the role's rename ended:\n%s", readCalls(t, f.stateDir))
	}

	// The grants leave the configuration; the role is renamed again. Only
	// the state says the grants depend on the role.
	if err := os.WriteFile(filepath.Join(f.dir, "team", "main.tf"), []byte(`
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
`), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := f.config(strings.Replace(strings.Replace(orderRoot, "%s",
		`{ analytics = { role = "bi_readers", readers = [] } }`, 1), "%s", "", 1))
	f.ctx = f.newContext()
	p, diags := f.plan(cfg, st)
	if diags.HasErrors() {
		t.Fatalf("plan: %s", diags.Error())
	}
	if _, diags := f.newContext().Apply(context.Background(), p, cfg, nil); diags.HasErrors() {
		t.Fatalf("apply with the grants gone from the configuration: %s\ncalls:\n%s", diags.Error(), readCalls(t, f.stateDir))
	}
	calls = apiCalls(t, f.stateDir)
	rename = calls.find(t, "update", "bi_readers")
	for _, g := range []string{"grant_alice", "grant_carol"} {
		if d := calls.find(t, "delete", g); d.end > rename.start {
			t.Errorf("%s was revoked after the role's rename began:\n%s", g, readCalls(t, f.stateDir))
		}
	}
}

// apiCall is one logged call of sdktest_object.
type apiCall struct {
	start, end int64
	op, name   string
	result     string
}

type apiCallLog []apiCall

func apiCalls(t *testing.T, stateDir string) apiCallLog {
	t.Helper()
	var out apiCallLog
	for _, line := range strings.Split(strings.TrimSpace(readCalls(t, stateDir)), "\n") {
		parts := strings.SplitN(line, " ", 5)
		if len(parts) != 5 {
			t.Fatalf("calls.log line %q", line)
		}
		start, _ := strconv.ParseInt(parts[0], 10, 64)
		end, _ := strconv.ParseInt(parts[1], 10, 64)
		out = append(out, apiCall{start: start, end: end, op: parts[2], name: parts[3], result: parts[4]})
	}
	return out
}

// find returns the last successful call of op on the object called name.
func (l apiCallLog) find(t *testing.T, op, name string) apiCall {
	t.Helper()
	for i := len(l) - 1; i >= 0; i-- {
		if l[i].op == op && l[i].name == name && l[i].result == "ok" {
			return l[i]
		}
	}
	t.Fatalf("no successful %s of %s in the call log", op, name)
	return apiCall{}
}

func readCalls(t *testing.T, stateDir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(stateDir, "api", "calls.log"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
