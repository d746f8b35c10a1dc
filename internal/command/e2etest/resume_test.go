package e2etest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/internal/backend/pg/pgtest"
)

// resumeConfig creates local_file.a, then b (which refers to a) in the
// directory "blocker", then c after b, and d independently. While
// "blocker" is a regular file, b's create fails half-way through the
// apply: a is created, c never starts, and d (independent of b) is created
// all the same: the walk goes on with the branches a failure does not
// block, as Terraform's does.
const resumeConfig = `
resource "null_resource" "keep" {}
resource "local_file" "a" {
  filename = "${path.module}/a.txt"
  content  = "a"
}
resource "local_file" "b" {
  filename = "${path.module}/blocker/b.txt"
  content  = "b after ${local_file.a.content}"
}
resource "local_file" "c" {
  filename   = "${path.module}/c.txt"
  content    = "c"
  depends_on = [local_file.b]
}
resource "local_file" "d" {
  filename = "${path.module}/d.txt"
  content  = "d, independent of b"
}
`

// partlyApplied returns a directory whose state holds null_resource.keep
// and two changes of the saved plan "p" (of 4: a and d), its apply having
// failed on local_file.b; and the SHA-256 of "p".
func partlyApplied(t *testing.T, env []string) (string, string) {
	t.Helper()
	return partlyAppliedWith(t, env, "")
}

// partlyAppliedWith is partlyApplied with header (a terraform block)
// added to the configuration and env given to every run.
func partlyAppliedWith(t *testing.T, env []string, header string) (string, string) {
	t.Helper()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), header+`resource "null_resource" "keep" {}`)
	must(t, run(t, dir, "apply", env, "-no-color", "-auto-approve"), 0, "first apply")
	writeFile(t, filepath.Join(dir, "main.tf"), header+resumeConfig)
	writeFile(t, filepath.Join(dir, "blocker"), "a file where b wants a directory")
	must(t, run(t, dir, "plan", env, "-no-color", "-out=p"), 0, "plan")
	ap := run(t, dir, "apply", env, "-no-color", "p")
	must(t, ap, 1, "apply with b failing")
	contains(t, ap.stdout+ap.stderr, "failed apply", "local_file.b", "local_file.c")
	if _, err := os.Stat(filepath.Join(dir, "d.txt")); err != nil {
		t.Errorf("local_file.d, independent of the failed b, was not created: %v", err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "p"))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(raw)
	return dir, hex.EncodeToString(sum[:])
}

// TestResumeAfterProviderError applies the rest of a plan whose apply
// failed half-way, once the cause is gone, then refuses the same plan a
// third time as applied.
func TestResumeAfterProviderError(t *testing.T) {
	t.Parallel()
	dir, sum := partlyApplied(t, nil)
	show := plan(t, dir, "show", "-no-color", "-state=terraform.tfstate", "p")
	must(t, show, 0, "plan show -state")
	contains(t, show.stdout, "plan show -state", "Plan "+sum+": partly applied to terraform.tfstate: 2/4", "local_file.c will be created")
	if err := os.Remove(filepath.Join(dir, "blocker")); err != nil {
		t.Fatal(err)
	}
	ap := apply(t, dir, "-no-color", "p")
	must(t, ap, 0, "resumed apply")
	show = plan(t, dir, "show", "-no-color", "-state=terraform.tfstate", "p")
	must(t, show, 0, "plan show -state, applied")
	contains(t, show.stdout, "plan show -state, applied", "Plan "+sum+": applied to terraform.tfstate")
	contains(t, ap.stdout, "resumed apply", "Resuming plan "+sum+": 2 of 4 changes already applied, 2 remaining",
		"Apply complete! Resources: 2 added, 0 changed, 0 destroyed.")
	for name, want := range map[string]string{"a.txt": "a", "blocker/b.txt": "b after a", "c.txt": "c", "d.txt": "d, independent of b"} {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || string(got) != want {
			t.Errorf("%s = %q, %v; want %q", name, got, err, want)
		}
	}
	ls := plan(t, dir, "state", "list")
	must(t, ls, 0, "state list")
	if diff := cmp.Diff("local_file.a\nlocal_file.b\nlocal_file.c\nlocal_file.d\nnull_resource.keep\n", ls.stdout); diff != "" {
		t.Errorf("state list (-want +got):\n%s", diff)
	}
	again := apply(t, dir, "-no-color", "p")
	must(t, again, 1, "third apply")
	containsFlat(t, again.stderr, "third apply", "Saved plan is stale: already applied", "Every change of plan "+sum+" (4 of 4) is already in the state")
	pl := plan(t, dir, "-no-color", "-detailed-exitcode")
	must(t, pl, 0, "plan after the resumed apply")
}

// TestResumeJSON checks the -json event of a resumed apply.
func TestResumeJSON(t *testing.T) {
	t.Parallel()
	dir, sum := partlyApplied(t, nil)
	if err := os.Remove(filepath.Join(dir, "blocker")); err != nil {
		t.Fatal(err)
	}
	ap := apply(t, dir, "-json", "p")
	must(t, ap, 0, "resumed apply -json")
	var found map[string]any
	for _, line := range strings.Split(ap.stdout, "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(line), &m) == nil && m["type"] == "resume_plan" {
			found = m
		}
	}
	if found == nil {
		t.Fatalf("no resume_plan message in:\n%s", ap.stdout)
	}
	want := map[string]any{"plan_sha256": sum, "applied": 2.0, "total": 4.0, "remaining": 2.0}
	if diff := cmp.Diff(want, found["resume"]); diff != "" {
		t.Errorf("resume (-want +got):\n%s", diff)
	}
	if found["@message"] != "Resuming plan "+sum+": 2 of 4 changes already applied, 2 remaining" {
		t.Errorf("@message = %v", found["@message"])
	}
}

// TestResumeRefusesOutOfBand refuses to go on with a plan once objects
// changed between the two runs by anything but the plan, naming each.
func TestResumeRefusesOutOfBand(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, dir string)
		want   []string
	}{
		{"unchanged object removed", func(t *testing.T, dir string) {
			must(t, plan(t, dir, "state", "rm", "null_resource.keep"), 0, "state rm")
		}, []string{"null_resource.keep: removed from the state since the plan"}},
		{"applied object edited", func(t *testing.T, dir string) {
			path := filepath.Join(dir, "terraform.tfstate")
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var st map[string]any
			if err := json.Unmarshal(raw, &st); err != nil {
				t.Fatal(err)
			}
			st["serial"] = st["serial"].(float64) + 1
			for _, r := range st["resources"].([]any) {
				r := r.(map[string]any)
				if r["name"] == "a" {
					r["instances"].([]any)[0].(map[string]any)["attributes"].(map[string]any)["content"] = "changed by hand"
				}
			}
			out, _ := json.Marshal(st)
			writeFile(t, path, string(out))
		}, []string{"local_file.a: created, but not as the plan would create it"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir, sum := partlyApplied(t, nil)
			if err := os.Remove(filepath.Join(dir, "blocker")); err != nil {
				t.Fatal(err)
			}
			tc.change(t, dir)
			ap := apply(t, dir, "-no-color", "p")
			must(t, ap, 1, "apply after an out-of-band change")
			containsFlat(t, ap.stderr, "refusal", append([]string{"Saved plan is stale and cannot be resumed", "plan " + sum, "Plan again."}, tc.want...)...)
			if _, err := os.Stat(filepath.Join(dir, "c.txt")); err == nil {
				t.Error("c.txt was created by a refused apply")
			}
		})
	}
}

// TestResumeBackends resumes a plan whose state is on PostgreSQL, or
// encrypted, or both.
func TestResumeBackends(t *testing.T) {
	t.Parallel()
	const pgBackend = "terraform {\n  backend \"pg\" {}\n}\n"
	for _, tc := range []struct {
		name   string
		pg     bool
		header string
		env    []string
	}{
		{name: "local, encrypted", env: []string{tfEncryption}},
		{name: "pg", pg: true, header: pgBackend},
		{name: "pg, encrypted", pg: true, header: pgBackend, env: []string{tfEncryption}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := tc.env
			if tc.pg {
				env = append([]string{"PG_CONN_STR=" + pgtest.NewDatabase(t)}, env...)
			}
			dir, sum := partlyAppliedWith(t, env, tc.header)
			if tc.pg {
				if _, err := os.Stat(filepath.Join(dir, "terraform.tfstate")); err == nil {
					t.Fatal("the apply wrote a local state file, not the pg backend's")
				}
			} else if len(tc.env) > 0 {
				isEnvelope(t, filepath.Join(dir, "terraform.tfstate"))
			}
			if err := os.Remove(filepath.Join(dir, "blocker")); err != nil {
				t.Fatal(err)
			}
			ap := run(t, dir, "apply", env, "-no-color", "p")
			must(t, ap, 0, "resumed apply")
			contains(t, ap.stdout, "resumed apply", "Resuming plan "+sum+": 2 of 4 changes already applied, 2 remaining")
			ls := run(t, dir, "plan", env, "state", "list")
			must(t, ls, 0, "state list")
			if diff := cmp.Diff("local_file.a\nlocal_file.b\nlocal_file.c\nlocal_file.d\nnull_resource.keep\n", ls.stdout); diff != "" {
				t.Errorf("state list (-want +got):\n%s", diff)
			}
			again := run(t, dir, "apply", env, "-no-color", "p")
			must(t, again, 1, "third apply")
			containsFlat(t, again.stderr, "third apply", "Saved plan is stale: already applied")
			must(t, run(t, dir, "plan", env, "-no-color", "-detailed-exitcode"), 0, "plan after the resumed apply")
		})
	}
}
