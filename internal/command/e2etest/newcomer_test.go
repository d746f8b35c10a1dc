package e2etest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/plankit/plankit/internal/backend/pg/pgtest"
)

// TestApplyHintKeepsState: the command plan prints after -out applies to
// the state the plan was made from, when run as printed; applying the
// plan to another, absent state path warns.
func TestApplyHintKeepsState(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	conf := filepath.Join(dir, "conf")
	if err := os.MkdirAll(conf, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(conf, "main.tf"), "resource \"null_resource\" \"a\" {}\n")
	state := filepath.Join(dir, "q.tfstate")
	out := filepath.Join(dir, "q.tfplan")
	r := plan(t, dir, "-no-color", "-chdir=conf", "-state="+state, "-out="+out)
	must(t, r, 0, "plan")
	want := `apply -chdir=conf -state=` + state + ` "` + out + `"`
	contains(t, r.stdout, "plan's hint", want)
	hint := strings.Fields(want)[1:]
	hint[len(hint)-1] = out
	must(t, apply(t, dir, append([]string{"-no-color"}, hint...)...), 0, "apply as the hint says")
	if _, err := os.Stat(state); err != nil {
		t.Fatalf("the hint did not apply to the plan's state: %v", err)
	}
	// No changes now: no advice about -out (Terraform gives none either).
	r = plan(t, dir, "-no-color", "-chdir=conf", "-state="+state)
	must(t, r, 0, "plan with no changes")
	contains(t, r.stdout, "plan with no changes", "No changes.")
	if strings.Contains(r.stdout, "-out option") {
		t.Errorf("-out advice after No changes:\n%s", r.stdout)
	}

	// The same plan file, made again, applied without -state.
	must(t, plan(t, dir, "-no-color", "-chdir=conf", "-state="+filepath.Join(dir, "new.tfstate"), "-out="+out), 0, "plan 2")
	r = apply(t, dir, "-no-color", out)
	must(t, r, 0, "apply without -state")
	contains(t, r.stdout, "apply without -state", "Warning: Applying to a different state file", "-state="+filepath.Join(dir, "new.tfstate"))
}

// TestRefusedFlags: flags that would be ignored are refused through the
// binaries, with exit 1 and nothing planned.
func TestRefusedFlags(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), "resource \"null_resource\" \"a\" {\n  count = 2\n}\n")
	for _, tt := range []struct {
		bin  string
		args []string
		want string
	}{
		{"apply", []string{"-verify-key=k.pub", "-auto-approve"}, "no plan file was given"},
		{"plan", []string{"-sign-key=k.pem"}, "needs -out=FILE"},
		{"apply", []string{"-out=x", "-auto-approve"}, "apply does not take -out"},
		{"apply", []string{"-detailed-exitcode", "-auto-approve"}, "apply does not take -detailed-exitcode"},
		{"plan", []string{"-refresh-only", "-refresh=false"}, "cannot be used together"},
		{"plan", []string{"-sign-key=missing.pem", "-out=p.tfplan"}, "Failed to load the signing key"},
	} {
		r := run(t, dir, tt.bin, []string{"SOURCE_DATE_EPOCH=1700000000"}, append([]string{"-no-color"}, tt.args...)...)
		must(t, r, 1, tt.bin+" "+strings.Join(tt.args, " "))
		contains(t, r.stderr, tt.bin+" "+strings.Join(tt.args, " "), tt.want)
		if strings.Contains(r.stdout, "will be created") {
			t.Errorf("%s %v planned before refusing:\n%s", tt.bin, tt.args, r.stdout)
		}
	}
	r := run(t, dir, "plan", []string{"SOURCE_DATE_EPOCH=abc"}, "-no-color")
	must(t, r, 1, "SOURCE_DATE_EPOCH=abc")
	contains(t, r.stderr, "SOURCE_DATE_EPOCH=abc", "Invalid SOURCE_DATE_EPOCH", `"abc"`)

	r = plan(t, dir, "-no-color", "-replace=null_resource.a")
	must(t, r, 0, "-replace without a key")
	contains(t, r.stdout, "-replace without a key", "Warning: Incompletely-matched force-replace resource instance", "-replace='null_resource.a[0]'", "-replace='null_resource.a[1]'")
}

// TestTerraformCommands runs version, validate, output, state and fmt
// through the binary, with -chdir before and after the subcommand.
func TestTerraformCommands(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	conf := filepath.Join(dir, "conf")
	if err := os.MkdirAll(conf, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(conf, "main.tf"), `resource "null_resource" "a" {
  count = 2
}
output "greeting" { value = "hello" }
output "secret" {
  value     = "s3cr3t"
  sensitive = true
}
`)
	// version
	r := plan(t, dir, "-version")
	must(t, r, 0, "-version")
	contains(t, r.stdout, "-version", "plankit v", "plan format 1.", "built with go")
	r = apply(t, dir, "-version")
	must(t, r, 0, "apply -version")
	contains(t, r.stdout, "apply -version", "plankit v")
	r = plan(t, dir, "version", "-json")
	must(t, r, 0, "version -json")
	var v struct {
		Plankit    string            `json:"plankit_version"`
		Format     string            `json:"plan_format_version"`
		Go         string            `json:"go_version"`
		Selections map[string]string `json:"provider_selections"` // as terraform version -json has them
	}
	if err := json.Unmarshal([]byte(r.stdout), &v); err != nil || v.Plankit == "" || v.Format == "" || !strings.HasPrefix(v.Go, "go") || v.Selections == nil {
		t.Errorf("version -json = %s (%v)", r.stdout, err)
	}

	// validate
	r = plan(t, dir, "-chdir=conf", "validate", "-no-color")
	must(t, r, 0, "validate")
	contains(t, r.stdout, "validate", "Success! The configuration is valid.")
	bad := filepath.Join(dir, "bad")
	if err := os.MkdirAll(bad, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(bad, "main.tf"), "output \"o\" {\n  value = var.nope\n}\n")
	r = plan(t, dir, "validate", "-json", "-chdir=bad")
	must(t, r, 1, "validate -json of a bad configuration")
	var vj struct {
		Valid       bool `json:"valid"`
		ErrorCount  int  `json:"error_count"`
		Diagnostics []struct {
			Summary string `json:"summary"`
			Range   struct {
				Filename string `json:"filename"`
				Start    struct{ Line int }
			} `json:"range"`
		} `json:"diagnostics"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &vj); err != nil {
		t.Fatalf("validate -json: %v\n%s", err, r.stdout)
	}
	if vj.Valid || vj.ErrorCount != 1 || len(vj.Diagnostics) != 1 || vj.Diagnostics[0].Range.Filename != "main.tf" || vj.Diagnostics[0].Range.Start.Line != 2 {
		t.Errorf("validate -json = %+v", vj)
	}

	// output, before and after apply
	r = plan(t, dir, "-chdir=conf", "output", "greeting")
	must(t, r, 1, "output before apply")
	contains(t, r.stderr, "output before apply", `Output "greeting" not found`)
	must(t, apply(t, dir, "-chdir=conf", "-auto-approve", "-no-color"), 0, "apply")
	r = plan(t, dir, "-chdir=conf", "output", "-no-color")
	must(t, r, 0, "output")
	if r.stdout != "greeting = \"hello\"\nsecret = <sensitive>\n" {
		t.Errorf("output = %q", r.stdout)
	}
	r = plan(t, dir, "output", "-raw", "secret", "-chdir=conf")
	must(t, r, 0, "output -raw")
	if r.stdout != "s3cr3t" {
		t.Errorf("output -raw secret = %q", r.stdout)
	}
	r = plan(t, conf, "output", "-json")
	must(t, r, 0, "output -json")
	var oj map[string]struct {
		Sensitive bool   `json:"sensitive"`
		Type      string `json:"type"`
		Value     string `json:"value"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &oj); err != nil || oj["greeting"].Value != "hello" || !oj["secret"].Sensitive || oj["greeting"].Type != "string" {
		t.Errorf("output -json = %s (%v)", r.stdout, err)
	}

	// state list, show, mv, rm
	r = plan(t, conf, "state", "list")
	must(t, r, 0, "state list")
	if r.stdout != "null_resource.a[0]\nnull_resource.a[1]\n" {
		t.Errorf("state list = %q", r.stdout)
	}
	r = plan(t, conf, "state", "show", "null_resource.a[1]")
	must(t, r, 0, "state show")
	contains(t, r.stdout, "state show", "# null_resource.a[1]:\nresource \"null_resource\" \"a\" {\n    id = \"")
	r = plan(t, conf, "state", "show", "null_resource.a")
	must(t, r, 1, "state show of two instances")
	must(t, plan(t, conf, "state", "mv", "-dry-run", "null_resource.a", "null_resource.b"), 0, "state mv -dry-run")
	r = plan(t, conf, "state", "mv", "null_resource.a", "null_resource.b")
	must(t, r, 0, "state mv")
	contains(t, r.stdout, "state mv", `Move "null_resource.a[0]" to "null_resource.b[0]"`, "Successfully moved 2 object(s).")
	r = plan(t, conf, "state", "mv", "null_resource.b[0]", "null_resource.b[1]")
	must(t, r, 1, "state mv onto an existing instance")
	contains(t, r.stderr, "state mv onto an existing instance", "already exists")
	r = plan(t, conf, "state", "rm", "null_resource.b[1]")
	must(t, r, 0, "state rm")
	r = plan(t, conf, "state", "list")
	if r.stdout != "null_resource.b[0]\n" {
		t.Errorf("state list after mv and rm = %q", r.stdout)
	}
	backups, _ := filepath.Glob(filepath.Join(conf, "terraform.tfstate.*.backup"))
	if len(backups) != 2 {
		t.Errorf("backups after mv and rm: %v, want 2", backups)
	}
	// The next plan sees the moved and removed instances.
	r = plan(t, conf, "-no-color", "-detailed-exitcode")
	must(t, r, 2, "plan after state changes")
	contains(t, r.stdout, "plan after state changes", "# null_resource.b[0] will be destroyed", "# null_resource.a[0] will be created", "# null_resource.a[1] will be created")
	r = plan(t, dir, "state", "list", "-state=nope.tfstate")
	must(t, r, 1, "state list without a state")
	contains(t, r.stderr, "state list without a state", "No state file was found!")

	// fmt
	writeFile(t, filepath.Join(conf, "ugly.tf"), "output \"x\" {\nvalue = [1,2]\n}\n")
	r = plan(t, conf, "fmt", "-check")
	must(t, r, 3, "fmt -check")
	if r.stdout != "ugly.tf\n" {
		t.Errorf("fmt -check listed %q", r.stdout)
	}
	must(t, plan(t, dir, "fmt", "-recursive"), 0, "fmt -recursive")
	b, _ := os.ReadFile(filepath.Join(conf, "ugly.tf"))
	if string(b) != "output \"x\" {\n  value = [1, 2]\n}\n" {
		t.Errorf("fmt wrote %q", b)
	}
	must(t, plan(t, dir, "-chdir=conf", "fmt", "-check"), 0, "fmt -check when formatted")
	cmd := command(dir, "plan", nil, "fmt", "-")
	cmd.Stdin = strings.NewReader("variable \"v\" {\ntype = \"list\"\n}\n")
	b, err := cmd.Output()
	if err != nil || string(b) != "variable \"v\" {\n  type = list(string)\n}\n" {
		t.Errorf("fmt - printed %q (%v)", b, err)
	}
	writeFile(t, filepath.Join(conf, "broken.tf"), "output \"x\" {\n")
	r = plan(t, conf, "fmt", "-no-color")
	must(t, r, 2, "fmt of a file with a syntax error")
	contains(t, r.stderr, "fmt of a file with a syntax error", "broken.tf")
	if b, _ := os.ReadFile(filepath.Join(conf, "broken.tf")); string(b) != "output \"x\" {\n" {
		t.Errorf("fmt rewrote a file with a syntax error: %q", b)
	}
}

// TestSubcommandFlagsAnywhere: plan show with options after the file and
// -chdir after the subcommand; graph -type=apply without a plan names
// -plan=FILE; diff -json of equal plans prints [] for resources.
func TestSubcommandFlagsAnywhere(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	conf := filepath.Join(dir, "conf")
	if err := os.MkdirAll(conf, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(conf, "main.tf"), "output \"o\" { value = 1 }\n")
	must(t, plan(t, conf, "-out=p.tfplan"), 0, "plan")
	r := plan(t, dir, "show", "-chdir=conf", "p.tfplan", "-json")
	must(t, r, 0, "show -chdir=conf p.tfplan -json")
	var shown map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &shown); err != nil {
		t.Fatalf("show ... -json did not print JSON: %v\n%s", err, r.stdout)
	}
	if _, ok := shown["timestamp"]; !ok {
		t.Errorf("show -json has no timestamp")
	}
	// Under SOURCE_DATE_EPOCH the recorded time is that one.
	must(t, run(t, conf, "plan", []string{"SOURCE_DATE_EPOCH=1700000000"}, "-out=e.tfplan"), 0, "plan under SOURCE_DATE_EPOCH")
	r = plan(t, conf, "show", "-json", "e.tfplan")
	must(t, r, 0, "show -json e.tfplan")
	shown = nil
	if err := json.Unmarshal([]byte(r.stdout), &shown); err != nil || shown["timestamp"] != "2023-11-14T22:13:20Z" {
		t.Errorf("show -json timestamp under SOURCE_DATE_EPOCH = %v (%v)", shown["timestamp"], err)
	}
	r = plan(t, conf, "graph", "-type=apply")
	must(t, r, 1, "graph -type=apply without a plan")
	contains(t, r.stderr, "graph -type=apply", "-plan=FILE")
	r = plan(t, conf, "diff", "p.tfplan", "p.tfplan", "-json")
	must(t, r, 0, "diff -json")
	contains(t, r.stdout, "diff -json", `"resources":[]`)
}

// TestSignalToApplyAlone: SIGTERM sent to the apply process alone (not
// its process group, as a CI cancel or timeout does) stops a running
// local-exec provisioner and what it started at once; when the
// provisioner ignores SIGINT, the second signal kills it.
func TestSignalToApplyAlone(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name    string
		command string
		signals int
	}{
		{"first signal", `echo ready; sleep 31.4151; echo finished`, 1},
		{"second signal", `trap '' INT; echo ready; sleep 31.4152; echo finished`, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			marker := strings.Fields(tt.command)[len(strings.Fields(tt.command))-3]
			marker = strings.TrimSuffix(marker, ";")
			writeFile(t, filepath.Join(dir, "main.tf"), "resource \"null_resource\" \"a\" {\n  provisioner \"local-exec\" {\n    command = \""+tt.command+"\"\n  }\n}\n")
			cmd := command(dir, "apply", nil, "-no-color", "-auto-approve")
			outLines, ready, errLines, acked := startWatched(t, cmd, "(local-exec): ready", "Interrupt received.")
			<-ready
			if !outLines.has("(local-exec): ready") {
				_ = cmd.Process.Kill()
				_ = cmd.Wait()
				t.Fatalf("the provisioner never started:\n%s\n%s", outLines, errLines)
			}
			contains(t, outLines.String(), "provisioner output", `(local-exec): Executing: ["/bin/sh" "-c" "`)
			start := time.Now()
			_ = cmd.Process.Signal(syscall.SIGTERM)
			<-acked
			if tt.signals == 2 {
				time.Sleep(300 * time.Millisecond) // the first SIGINT is ignored
				_ = cmd.Process.Signal(syscall.SIGTERM)
			}
			<-outLines.done
			<-errLines.done
			err := cmd.Wait()
			took := time.Since(start)
			if err == nil {
				t.Errorf("an interrupted apply exited 0")
			}
			if took > 8*time.Second {
				t.Errorf("apply took %s to exit after the signal", took)
			}
			if outLines.has("(local-exec): finished") {
				t.Errorf("the provisioner ran to the end:\n%s", outLines)
			}
			// A killed process takes a moment to go: wait for it briefly.
			pids := processesWith(marker)
			for deadline := time.Now().Add(3 * time.Second); len(pids) > 0 && time.Now().Before(deadline); pids = processesWith(marker) {
				time.Sleep(50 * time.Millisecond)
			}
			if len(pids) > 0 {
				t.Errorf("processes left running after apply exited: %v", pids)
				for _, p := range pids {
					_ = syscall.Kill(p, syscall.SIGKILL)
				}
			}
		})
	}
}

// processesWith lists the processes whose command line contains s.
func processesWith(s string) []int {
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		var pid int
		if _, err := fmtSscan(e.Name(), &pid); err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		stat, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if i := strings.LastIndexByte(string(stat), ')'); i >= 0 && strings.HasPrefix(string(stat[i:]), ") Z") {
			continue // a zombie: dead, waiting to be reaped
		}
		if err == nil && strings.Contains(string(b), s) {
			pids = append(pids, pid)
		}
	}
	return pids
}

func fmtSscan(s string, pid *int) (int, error) { return fmt.Sscan(s, pid) }

// TestStateCommandsPG: state list, mv and rm and output work on a state
// in PostgreSQL (backend "pg", connection from PG_CONN_STR), with the
// previous state saved to a local backup before a change.
func TestStateCommandsPG(t *testing.T) {
	t.Parallel()
	conn := pgtest.NewDatabase(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), `terraform {
  backend "pg" {}
}
resource "null_resource" "a" {
  count = 2
}
output "o" { value = "pg" }
`)
	env := []string{"PG_CONN_STR=" + conn}
	must(t, run(t, dir, "apply", env, "-no-color", "-auto-approve"), 0, "apply to pg")
	r := run(t, dir, "plan", env, "state", "list")
	must(t, r, 0, "state list on pg")
	if r.stdout != "null_resource.a[0]\nnull_resource.a[1]\n" {
		t.Errorf("state list on pg = %q", r.stdout)
	}
	r = run(t, dir, "plan", env, "output", "-raw", "o")
	must(t, r, 0, "output on pg")
	if r.stdout != "pg" {
		t.Errorf("output -raw o on pg = %q", r.stdout)
	}
	must(t, run(t, dir, "plan", env, "state", "mv", "null_resource.a[1]", "null_resource.b"), 0, "state mv on pg")
	must(t, run(t, dir, "plan", env, "state", "rm", "null_resource.a"), 0, "state rm on pg")
	r = run(t, dir, "plan", env, "state", "list")
	if r.stdout != "null_resource.b\n" {
		t.Errorf("state list after mv and rm on pg = %q", r.stdout)
	}
	backups, _ := filepath.Glob(filepath.Join(dir, "terraform.tfstate.*.backup"))
	if len(backups) != 2 {
		t.Fatalf("local backups of the pg state: %v, want 2", backups)
	}
	b, err := os.ReadFile(backups[0])
	if err != nil || !strings.Contains(string(b), `"null_resource"`) || !strings.Contains(string(b), `"lineage"`) {
		t.Errorf("backup %s is not the previous state: %v\n%s", backups[0], err, b)
	}
}
