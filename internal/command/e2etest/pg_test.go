package e2etest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/plankit/plankit/internal/backend/pg/pgtest"
)

// The tests in this file run plan and apply against a real PostgreSQL
// server (pgtest): a throwaway cluster on a unix socket.

const pgConfig = `
terraform {
  backend "pg" {}
}

variable "gate" {
  type    = string
  default = ""
}

resource "terraform_data" "a" {
  input = "a-${terraform.workspace}"
}

resource "terraform_data" "b" {
  input = terraform_data.a.output
  provisioner "local-exec" {
    command = var.gate == "" ? "true" : "touch ${var.gate}.started; while [ ! -f ${var.gate}.release ] && [ -e ${var.gate}.started ]; do sleep 0.1; done"
  }
}

output "ws" {
  value = terraform.workspace
}
`

// pgDir writes the pg configuration to a new directory.
func pgDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), pgConfig)
	return dir
}

func withEnv(t *testing.T, dir, bin string, env []string, args ...string) result {
	t.Helper()
	return run(t, dir, bin, env, args...)
}

// pullState returns the workspace's stored state, decoded.
type pulledState struct {
	Serial    int    `json:"serial"`
	Lineage   string `json:"lineage"`
	Resources []struct {
		Type, Name string
	} `json:"resources"`
	Outputs map[string]struct {
		Value any `json:"value"`
	} `json:"outputs"`
}

func pull(t *testing.T, dir string, env []string) (pulledState, string) {
	t.Helper()
	r := withEnv(t, dir, "plan", env, "state", "pull")
	must(t, r, 0, "state pull")
	var s pulledState
	if err := json.Unmarshal([]byte(r.stdout), &s); err != nil {
		t.Fatalf("state pull printed no state: %v\n%s", err, r.stdout)
	}
	return s, r.stdout
}

func (s pulledState) has(name string) bool {
	for _, r := range s.Resources {
		if r.Type+"."+r.Name == name {
			return true
		}
	}
	return false
}

// TestPgPlanApplyReplan: plan in one directory, apply the archive alone in
// another with only credentials in the environment, re-plan: no changes.
// The archive records the backend and workspace, never the password.
func TestPgPlanApplyReplan(t *testing.T) {
	t.Parallel()
	const secret = "hunter2-e2e-secret"
	cs := pgtest.NewDatabase(t) + " password=" + secret // the test cluster trusts local users; the password travels anyway
	env := []string{"PG_CONN_STR=" + cs}
	dir := pgDir(t)
	must(t, withEnv(t, dir, "plan", env, "-no-color", "-out=p.tfplan"), 0, "plan")

	record := archiveRecord(t, filepath.Join(dir, "p.tfplan"), secret)
	contains(t, record, "tfbackend.json", `"type": "pg"`, `"workspace": "default"`, `"schema_name": "terraform_remote_state"`, "dbname=")

	// The apply job: another directory, only the archive; the record
	// says where the state is, the environment gives the credentials.
	other := t.TempDir()
	copyFile(t, filepath.Join(dir, "p.tfplan"), filepath.Join(other, "p.tfplan"))
	ap := withEnv(t, other, "apply", []string{"PGPASSWORD=" + secret}, "-no-color", "p.tfplan")
	must(t, ap, 0, "apply in another directory")
	contains(t, ap.stdout, "apply", "Apply complete! Resources: 2 added, 0 changed, 0 destroyed.", `ws = "default"`)
	if _, err := os.Stat(filepath.Join(other, "terraform.tfstate")); err == nil {
		t.Errorf("apply wrote a local state file instead of using the pg backend")
	}
	s, _ := pull(t, dir, env)
	if !s.has("terraform_data.a") || !s.has("terraform_data.b") || s.Serial < 2 {
		t.Errorf("stored state after apply: %+v", s)
	}
	must(t, withEnv(t, dir, "plan", env, "-no-color", "-detailed-exitcode"), 0, "re-plan")
	// The stale plan is refused by the serial it recorded.
	stale := withEnv(t, other, "apply", nil, "-no-color", "p.tfplan")
	must(t, stale, 1, "apply of a stale plan")
	contains(t, stale.stderr, "stale apply", "Saved plan is stale")
}

// TestPgWorkspacesIsolated: workspaces are separate states; the archive's
// workspace is applied and another selected one refused;
// terraform.workspace follows the workspace.
func TestPgWorkspacesIsolated(t *testing.T) {
	t.Parallel()
	env := []string{"PG_CONN_STR=" + pgtest.NewDatabase(t)}
	dir := pgDir(t)
	must(t, withEnv(t, dir, "plan", env, "workspace", "new", "staging"), 0, "workspace new")
	show := withEnv(t, dir, "plan", env, "workspace", "show")
	if strings.TrimSpace(show.stdout) != "staging" {
		t.Errorf("workspace show: %q", show.stdout)
	}
	must(t, withEnv(t, dir, "plan", env, "-no-color", "-out=staging.tfplan"), 0, "plan staging")
	must(t, withEnv(t, dir, "plan", env, "workspace", "new", "prod"), 0, "workspace new prod")

	// prod is selected now: the staging plan is refused, nothing changed.
	wrong := withEnv(t, dir, "apply", env, "-no-color", "staging.tfplan")
	must(t, wrong, 1, "apply of a staging plan with prod selected")
	contains(t, wrong.stderr, "refusal", "Saved plan is for a different workspace", `workspace "staging"`, `"prod"`)
	wrong = withEnv(t, t.TempDir(), "apply", append(env, "TF_WORKSPACE=prod"), "-no-color", filepath.Join(dir, "staging.tfplan"))
	must(t, wrong, 1, "apply of a staging plan with TF_WORKSPACE=prod")

	// Without a selection, the archive's workspace is used.
	elsewhere := t.TempDir()
	ap := withEnv(t, elsewhere, "apply", env, "-no-color", filepath.Join(dir, "staging.tfplan"))
	must(t, ap, 0, "apply staging")
	contains(t, ap.stdout, "apply staging", `ws = "staging"`)

	list := withEnv(t, dir, "plan", env, "workspace", "list")
	must(t, list, 0, "workspace list")
	if list.stdout != "  default\n* prod\n  staging\n\n" {
		t.Errorf("workspace list:\n%s", list.stdout)
	}
	// prod and default are still empty: plans create both resources.
	p := withEnv(t, dir, "plan", env, "-no-color")
	contains(t, p.stdout, "plan prod", `+ input  = "a-prod"`, "Plan: 2 to add")
	stg, _ := pull(t, dir, append(env, "TF_WORKSPACE=staging"))
	if !stg.has("terraform_data.a") {
		t.Errorf("staging lost its state: %+v", stg)
	}
	// The default workspace was never applied: as in Terraform, it has no
	// stored state, and state pull prints nothing.
	def := withEnv(t, dir, "plan", append(env, "TF_WORKSPACE=default"), "state", "pull")
	must(t, def, 0, "state pull of default")
	if def.stdout != "" {
		t.Errorf("state pull of the never applied default workspace printed:\n%s", def.stdout)
	}
	must(t, withEnv(t, dir, "plan", env, "workspace", "select", "default"), 0, "select default")
	del := withEnv(t, dir, "plan", env, "workspace", "delete", "staging")
	must(t, del, 1, "delete a non-empty workspace")
	contains(t, del.stderr, "delete refusal", "Workspace is not empty")
	must(t, withEnv(t, dir, "plan", env, "workspace", "delete", "-force", "staging"), 0, "delete -force")
	list = withEnv(t, dir, "plan", env, "workspace", "list")
	if list.stdout != "* default\n  prod\n\n" {
		t.Errorf("workspace list after delete:\n%s", list.stdout)
	}
	typo := withEnv(t, dir, "plan", append(env, "TF_WORKSPACE=prdo"), "-no-color")
	must(t, typo, 1, "plan in a workspace that does not exist")
	contains(t, typo.stderr, "missing workspace", `The selected workspace "prdo" does not exist`, "plan workspace new prdo")
	if l := withEnv(t, dir, "plan", env, "workspace", "list"); strings.Contains(l.stdout, "prdo") {
		t.Errorf("a plan in a missing workspace created it:\n%s", l.stdout)
	}
	sel := withEnv(t, dir, "plan", env, "workspace", "select", "nope")
	must(t, sel, 1, "select a missing workspace")
	contains(t, sel.stderr, "select", `Workspace "nope" doesn't exist`)
}

// TestLocalWorkspaces: the local backend keeps non-default workspaces in
// terraform.tfstate.d/NAME/terraform.tfstate and the selection in
// .terraform/environment, as Terraform does.
func TestLocalWorkspaces(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), `
resource "terraform_data" "a" {
  input = terraform.workspace
}
`)
	must(t, plan(t, dir, "workspace", "new", "dev"), 0, "workspace new")
	env, err := os.ReadFile(filepath.Join(dir, ".terraform", "environment"))
	if err != nil || string(env) != "dev" {
		t.Errorf(".terraform/environment = %q, %v", env, err)
	}
	must(t, apply(t, dir, "-no-color", "-auto-approve"), 0, "apply in dev")
	st, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate.d", "dev", "terraform.tfstate"))
	if err != nil || !strings.Contains(string(st), `"value": "dev"`) {
		t.Errorf("dev state: %v\n%s", err, st)
	}
	if _, err := os.Stat(filepath.Join(dir, "terraform.tfstate")); err == nil {
		t.Errorf("the default workspace's state was written")
	}
	del := plan(t, dir, "workspace", "delete", "dev")
	must(t, del, 1, "delete the selected workspace")
	contains(t, del.stderr, "delete", "is your active workspace")
	must(t, plan(t, dir, "workspace", "select", "default"), 0, "select default")
	must(t, plan(t, dir, "workspace", "delete", "-force", "dev"), 0, "delete dev")
	if _, err := os.Stat(filepath.Join(dir, "terraform.tfstate.d", "dev")); err == nil {
		t.Errorf("workspace directory left behind")
	}
	typo := run(t, dir, "plan", []string{"TF_WORKSPACE=dve"}, "-no-color")
	must(t, typo, 1, "plan in a missing local workspace")
	contains(t, typo.stderr, "missing workspace", `"dve" does not exist`)
	bad := plan(t, dir, "workspace", "new", "a/b")
	must(t, bad, 1, "invalid name")
	contains(t, bad.stderr, "invalid name", "URL safe")
}

// startGated starts apply FILE whose provisioner creates gate+".started" and
// then waits for gate+".release", and waits until it has started (so the
// apply holds the lock). The process is in its own process group. The
// provisioner also stops when gate+".started" vanishes with the test's
// temporary directory, so one orphaned by a SIGKILLed apply ends with the test.
func startGated(t *testing.T, dir string, env []string, args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	cmd := command(dir, "apply", env, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); _ = cmd.Wait() })
	return cmd, &out, &errb
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

// TestPgTwoAppliesAtOnce: two applies of plans for the same workspace
// start together; exactly one proceeds, the other fails at once naming the
// holder; with -lock-timeout a plan waits for the lock and then sees the
// applied state.
func TestPgTwoAppliesAtOnce(t *testing.T) {
	t.Parallel()
	env := []string{"PG_CONN_STR=" + pgtest.NewDatabase(t)}
	dir := pgDir(t)
	gate := filepath.Join(t.TempDir(), "gate")
	must(t, withEnv(t, dir, "plan", env, "-no-color", "-var", "gate="+gate, "-out=one.tfplan"), 0, "plan one")
	must(t, withEnv(t, dir, "plan", env, "-no-color", "-var", "gate="+gate, "-out=two.tfplan"), 0, "plan two")

	c1, out1, err1 := startGated(t, dir, env, "-no-color", "one.tfplan")
	c2, out2, err2 := startGated(t, dir, env, "-no-color", "two.tfplan")
	// One of them reaches the provisioner; the other must have failed by
	// then or fail while the first holds the lock.
	waitFor(t, "the first apply's provisioner", func() bool { return exists(gate + ".started") })
	done := make(chan *exec.Cmd, 2)
	go func() { c1.Wait(); done <- c1 }()
	go func() { c2.Wait(); done <- c2 }()
	var loser *exec.Cmd
	select {
	case loser = <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("neither apply finished while the other held the lock")
	}
	lout, lerr := out1, err1
	if loser == c2 {
		lout, lerr = out2, err2
	}
	if loser.ProcessState.ExitCode() != 1 {
		t.Fatalf("the second apply exited %d while the first held the lock\n%s\n%s", loser.ProcessState.ExitCode(), lout, lerr)
	}
	contains(t, lerr.String(), "refused apply", "Error acquiring the state lock", "workspace is already locked: default", "Operation: OperationTypeApply", "Who:")

	// A plan with -lock-timeout waits for the holder, then plans from the
	// state it wrote.
	waiter := command(dir, "plan", env, "-no-color", "-lock-timeout=2m", "-detailed-exitcode")
	var wout, werr bytes.Buffer
	waiter.Stdout, waiter.Stderr = &wout, &werr
	if err := waiter.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond)
	writeFile(t, gate+".release", "")
	winner := <-done
	if winner.ProcessState.ExitCode() != 0 {
		t.Fatalf("the apply holding the lock failed\n%s\n%s", out1, err1)
	}
	werrc := waiter.Wait()
	if werrc != nil {
		t.Fatalf("the waiting plan failed: %v\n%s\n%s", werrc, wout.String(), werr.String())
	}
	contains(t, wout.String(), "waiting plan", "No changes.")
}

var lockIDRe = regexp.MustCompile(`plan force-unlock -force ([0-9a-f-]{36})`)

// TestPgKilledApply: kill -9 during an apply loses nothing that finished
// (the journal in SCHEMA.plankit_journal holds it, whatever the background
// writes stored), leaves a lock that plan reports as stale and
// force-unlock clears; then the next plan reads the journal without
// writing anything, says the instance whose provisioner was running is
// tainted and plans to replace only it; the apply folds the journal in
// first, saying so.
func TestPgKilledApply(t *testing.T) {
	t.Parallel()
	connStr := pgtest.NewDatabase(t)
	env := []string{"PG_CONN_STR=" + connStr}
	dir := pgDir(t)
	gate := filepath.Join(t.TempDir(), "gate")
	must(t, withEnv(t, dir, "plan", env, "-no-color", "-var", "gate="+gate, "-out=p.tfplan"), 0, "plan")
	cmd, _, _ := startGated(t, dir, env, "-no-color", "p.tfplan")
	// terraform_data.a is done and terraform_data.b's provisioner runs:
	// kill the apply and its provisioner outright, without waiting for a
	// background write of the state.
	waitFor(t, "the provisioner", func() bool { return exists(gate + ".started") })
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if n := pgJournalRows(t, connStr); n == 0 {
		t.Errorf("the killed apply left no journal rows")
	}

	p := withEnv(t, dir, "plan", env, "-no-color")
	must(t, p, 1, "plan with the dead apply's lock")
	contains(t, p.stderr, "stale lock", "no longer running", "OperationTypeApply")
	m := lockIDRe.FindStringSubmatch(p.stderr)
	if m == nil {
		t.Fatalf("no force-unlock command in:\n%s", p.stderr)
	}
	must(t, withEnv(t, dir, "plan", env, "force-unlock", "-force", m[1]), 0, "force-unlock")
	p = withEnv(t, dir, "plan", env, "-no-color")
	must(t, p, 0, "plan after force-unlock")
	all := strings.Join(strings.Fields(p.stdout+p.stderr), " ")
	for _, want := range []string{"The state file lacks the changes of an interrupted apply", "does not write them to the state",
		"were created but their provisioners did not finish, so they are marked tainted", "- terraform_data.b", "terraform_data.b is tainted, so must be replaced"} {
		if !strings.Contains(all, want) {
			t.Errorf("the plan after the kill lacks %q:\n%s%s", want, p.stdout, p.stderr)
		}
	}
	if strings.Contains(p.stdout, "terraform_data.a will be created") {
		t.Errorf("the re-plan creates again what the killed apply created:\n%s", p.stdout)
	}
	// A plan writes nothing: the journal rows stay for the apply.
	if n := pgJournalRows(t, connStr); n == 0 {
		t.Errorf("the plan removed the journal rows")
	}
	// The apply folds the journal in first, saying so, then replaces the
	// tainted object.
	ap := withEnv(t, dir, "apply", env, "-no-color", "-auto-approve")
	must(t, ap, 0, "apply after the kill")
	contains(t, strings.Join(strings.Fields(ap.stdout+ap.stderr), " "), "Recovered the state of an interrupted apply", "now written to the state (serial")
	s, _ := pull(t, dir, env)
	if !s.has("terraform_data.a") || !s.has("terraform_data.b") {
		t.Errorf("stored state after the recovery lacks what was done: %+v", s)
	}
	if n := pgJournalRows(t, connStr); n != 0 {
		t.Errorf("%d journal rows left after the recovery", n)
	}
	p = withEnv(t, dir, "plan", env, "-no-color")
	must(t, p, 0, "second plan")
	if strings.Contains(p.stderr, "Interrupted apply") || strings.Contains(p.stderr, "interrupted apply") {
		t.Errorf("the recovery is reported twice:\n%s", p.stderr)
	}
}

// pgJournalRows counts the rows of plankit's journal table.
func pgJournalRows(t *testing.T, connStr string) int {
	t.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, connStr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	var n int
	if err := c.QueryRow(ctx, "SELECT count(*) FROM terraform_remote_state.plankit_journal").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestPgPushPull: a local state pushed into the database and pulled back
// is byte for byte the same; an older serial is refused without -force.
func TestPgPushPull(t *testing.T) {
	t.Parallel()
	localDir := t.TempDir()
	writeFile(t, filepath.Join(localDir, "main.tf"), `
resource "terraform_data" "a" {
  input = "x"
}
`)
	must(t, apply(t, localDir, "-no-color", "-auto-approve"), 0, "local apply")
	localState, err := os.ReadFile(filepath.Join(localDir, "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	env := []string{"PG_CONN_STR=" + pgtest.NewDatabase(t)}
	dir := pgDir(t)
	must(t, withEnv(t, dir, "plan", env, "state", "push", filepath.Join(localDir, "terraform.tfstate")), 0, "push")
	_, got := pull(t, dir, env)
	if got != string(localState) {
		t.Errorf("pulled state differs from the pushed file:\n%s\nwant:\n%s", got, localState)
	}
	// Back out: pull into a file and use it locally.
	must(t, withEnv(t, dir, "plan", env, "-no-color", "-detailed-exitcode", "-target=terraform_data.a"), 2, "plan over the pushed state")

	older := strings.Replace(string(localState), `"serial": 1,`, `"serial": 0,`, 1)
	if older == string(localState) {
		older = regexp.MustCompile(`"serial": \d+,`).ReplaceAllString(string(localState), `"serial": 0,`)
	}
	writeFile(t, filepath.Join(dir, "older.tfstate"), older)
	r := withEnv(t, dir, "plan", env, "state", "push", "older.tfstate")
	must(t, r, 1, "push of an older serial")
	contains(t, r.stderr, "refusal", "over newer state")
	must(t, withEnv(t, dir, "plan", env, "state", "push", "-force", "older.tfstate"), 0, "push -force")

	other := strings.Replace(string(localState), `"lineage": "`, `"lineage": "0`, 1)
	writeFile(t, filepath.Join(dir, "other.tfstate"), other)
	r = withEnv(t, dir, "plan", env, "state", "push", "other.tfstate")
	must(t, r, 1, "push of another lineage")
	contains(t, r.stderr, "lineage refusal", "unrelated state")
}

// TestPgBadConnStr: an unreachable database gives a clear error that never
// shows the password.
func TestPgBadConnStr(t *testing.T) {
	t.Parallel()
	const secret = "Sup3rS3cretPw"
	dir := pgDir(t)
	for _, cs := range []string{
		"postgres://deploy:" + secret + "@127.0.0.1:1/tf?sslmode=disable&connect_timeout=2",
		"host=127.0.0.1 port=1 user=deploy password=" + secret + " dbname=tf sslmode=disable connect_timeout=2",
		"postgres://deploy:" + secret + "@bad host:x/tf",
	} {
		r := withEnv(t, dir, "plan", []string{"PG_CONN_STR=" + cs}, "-no-color")
		must(t, r, 1, "plan with an unreachable database")
		if strings.Contains(r.stdout+r.stderr, secret) {
			t.Errorf("the password was printed:\n%s%s", r.stdout, r.stderr)
		}
		contains(t, r.stderr, "error", "Failed to open the state backend")
	}
	r := withEnv(t, dir, "plan", nil, "-no-color", "-backend-config=conn_str=postgres://u:"+secret+"@127.0.0.1:1/x?connect_timeout=2", "-backend-config=bogus=1")
	must(t, r, 1, "unknown -backend-config key")
	contains(t, r.stderr, "unknown key", `"bogus"`, "conn_str")
	if strings.Contains(r.stderr, secret) {
		t.Errorf("the password was printed:\n%s", r.stderr)
	}
}

// TestPgLostDatabaseSavesErroredState: the database goes away during an
// apply; the writes are retried, then the state is saved to
// errored.tfstate with advice to push it, which works once the database
// is back.
func TestPgLostDatabaseSavesErroredState(t *testing.T) {
	t.Parallel()
	srv, err := pgtest.Start()
	if err != nil {
		pgtest.Shared(t)
		t.Fatal(err)
	}
	defer srv.Stop()
	env := []string{"PG_CONN_STR=" + srv.ConnStr("postgres")}
	dir := pgDir(t)
	gate := filepath.Join(t.TempDir(), "gate")
	must(t, withEnv(t, dir, "plan", env, "-no-color", "-var", "gate="+gate, "-out=p.tfplan"), 0, "plan")
	cmd, out, errb := startGated(t, dir, env, "-no-color", "p.tfplan")
	waitFor(t, "the provisioner", func() bool { return exists(gate + ".started") })
	if err := srv.Pause(); err != nil {
		t.Fatal(err)
	}
	writeFile(t, gate+".release", "")
	err = cmd.Wait()
	if err == nil {
		t.Fatalf("apply succeeded without its database\n%s\n%s", out, errb)
	}
	contains(t, errb.String(), "apply", "State saved to a recovery file", "plan state push", "errored.tfstate")
	if strings.Contains(out.String()+errb.String(), ".go:") {
		t.Errorf("stack trace:\n%s", errb)
	}
	if err := srv.Resume(); err != nil {
		t.Fatal(err)
	}
	// The stale lock info row of the failed apply is cleared first, if any.
	p := withEnv(t, dir, "plan", env, "-no-color")
	if m := lockIDRe.FindStringSubmatch(p.stderr); m != nil {
		must(t, withEnv(t, dir, "plan", env, "force-unlock", "-force", m[1]), 0, "force-unlock")
	}
	must(t, withEnv(t, dir, "plan", env, "state", "push", "errored.tfstate"), 0, "push errored.tfstate")
	p = withEnv(t, dir, "plan", env, "-no-color", "-detailed-exitcode")
	must(t, p, 0, "plan after the push")
}

// TestLocalBackendPathThroughArchive: a plan records the local backend;
// apply FILE writes the state where the archive's configuration's backend
// "local" block says, in the selected workspace's place.
func TestLocalBackendPathThroughArchive(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), `
terraform {
  backend "local" {
    path = "st/main.tfstate"
  }
}
resource "terraform_data" "a" {
  input = terraform.workspace
}
`)
	must(t, plan(t, dir, "-no-color", "-out=p.tfplan"), 0, "plan")
	must(t, apply(t, dir, "-no-color", "p.tfplan"), 0, "apply")
	if _, err := os.Stat(filepath.Join(dir, "st", "main.tfstate")); err != nil {
		t.Errorf("the state is not at the backend's path: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "terraform.tfstate")); err == nil {
		t.Errorf("apply wrote terraform.tfstate instead of the backend's path")
	}
	must(t, plan(t, dir, "-no-color", "-detailed-exitcode"), 0, "re-plan")
}

// TestPgInit: plan init takes -backend-config, connects to the pg backend
// and creates its schema before anything else runs, and a bad connection
// is an error at init that never prints the password.
func TestPgInit(t *testing.T) {
	t.Parallel()
	dir := pgDir(t)
	cs := pgtest.NewDatabase(t)
	r := withEnv(t, dir, "plan", nil, "init", "-no-color", "-backend-config=conn_str="+cs, "-backend-config=schema_name=team")
	must(t, r, 0, "init with -backend-config")
	contains(t, r.stdout, "init", "Initializing the backend...", `Successfully configured the backend "pg"!`)
	// The schema exists now: a workspace can be listed without creating it.
	r = withEnv(t, dir, "plan", nil, "workspace", "list", "-backend-config=conn_str="+cs, "-backend-config=schema_name=team", "-backend-config=skip_schema_creation=true")
	must(t, r, 0, "workspace list in the schema init created")

	const secret = "init-s3cret-pw"
	r = withEnv(t, dir, "plan", nil, "init", "-no-color", "-backend-config=conn_str=postgres://u:"+secret+"@127.0.0.1:1/x?connect_timeout=2")
	must(t, r, 1, "init with an unreachable database")
	contains(t, r.stderr, "init", "Failed to open the state backend")
	if strings.Contains(r.stdout+r.stderr, secret) {
		t.Errorf("init printed the password:\n%s%s", r.stdout, r.stderr)
	}
}

// runWithin is run, failing the test when the command has not ended
// within d (a command waiting on a lock it should refuse).
func runWithin(t *testing.T, d time.Duration, dir, bin string, env []string, args ...string) result {
	t.Helper()
	cmd := command(dir, bin, env, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		code := 0
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("running %s: %v", bin, err)
		}
		return result{out.String(), errb.String(), code}
	case <-time.After(d):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("%s %s was still running after %s\nstdout:\n%s\nstderr:\n%s", bin, strings.Join(args, " "), d, out.String(), errb.String())
	}
	return result{}
}

// TestPgOtherToolFirstApply: OpenTofu runs the default workspace's first
// apply on a fresh schema, holding only its workspace creation key (the
// statements its pg backend sends; no row yet). plan, apply -auto-approve
// and a saved plan's apply are refused at once, naming the workspace, the
// creation lock and what to do, and write nothing; the second window,
// after OpenTofu's first write stored the row, refuses too; a plan with
// -lock-timeout waits for OpenTofu to end and then plans.
func TestPgOtherToolFirstApply(t *testing.T) {
	t.Parallel()
	cs := pgtest.NewDatabase(t)
	env := []string{"PG_CONN_STR=" + cs}
	dir := pgDir(t)
	must(t, withEnv(t, dir, "plan", env, "-no-color", "-out=saved.tfplan"), 0, "plan before OpenTofu starts")

	ctx := context.Background()
	tofu, err := pgx.Connect(ctx, cs)
	if err != nil {
		t.Fatal(err)
	}
	defer tofu.Close(ctx)
	const key = int64(-3797183428) // OpenTofu's creation key for terraform_remote_state.states
	var id int64
	var gotRow, gotKey bool
	err = tofu.QueryRow(ctx, `SELECT "states".id, pg_try_advisory_lock("states".id), pg_try_advisory_lock($1) FROM "terraform_remote_state"."states" WHERE "states".name = $2`, key, "default").Scan(&id, &gotRow, &gotKey)
	if !errors.Is(err, pgx.ErrNoRows) {
		t.Fatalf("OpenTofu's lock query found a row of the default workspace before any apply: %v", err)
	}
	if err := tofu.QueryRow(ctx, "SELECT pg_try_advisory_lock($1)", key).Scan(&gotKey); err != nil || !gotKey {
		t.Fatalf("OpenTofu's creation lock: %v %v", err, gotKey)
	}

	refused := func(window string) {
		t.Helper()
		for _, c := range []struct {
			bin  string
			args []string
		}{
			{"plan", []string{"-no-color"}},
			{"apply", []string{"-no-color", "-auto-approve"}},
			{"apply", []string{"-no-color", "saved.tfplan"}},
		} {
			what := window + ": " + c.bin + " " + strings.Join(c.args, " ")
			r := runWithin(t, time.Minute, dir, c.bin, env, c.args...)
			must(t, r, 1, what)
			contains(t, r.stderr, what, "Error acquiring the state lock", `workspace "default"`, "workspace creation lock", "PostgreSQL session", "-lock-timeout")
			if strings.Contains(r.stdout, "Apply complete") || strings.Contains(r.stdout, "will be created") {
				t.Errorf("%s went ahead:\n%s", what, r.stdout)
			}
		}
	}
	refused("no row yet")
	var n int
	if err := tofu.QueryRow(ctx, "SELECT count(*) FROM terraform_remote_state.states").Scan(&n); err != nil || n != 0 {
		t.Fatalf("rows written while OpenTofu held the creation lock: %d %v", n, err)
	}

	// OpenTofu's first write, still under its creation lock.
	if _, err := tofu.Exec(ctx, `INSERT INTO "terraform_remote_state"."states" (name, data) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET data = $2 WHERE "states".name = $1`, "default", `{"version":4,"serial":1,"lineage":"00000000-0000-0000-0000-00000000000a","outputs":{},"resources":[]}`); err != nil {
		t.Fatal(err)
	}
	refused("row written")
	var data string
	if err := tofu.QueryRow(ctx, "SELECT data FROM terraform_remote_state.states WHERE name = 'default'").Scan(&data); err != nil || !strings.Contains(data, `"serial":1,`) {
		t.Errorf("OpenTofu's row was changed: %v %s", err, data)
	}

	waiter := command(dir, "plan", env, "-no-color", "-lock-timeout=2m")
	var wout, werr bytes.Buffer
	waiter.Stdout, waiter.Stderr = &wout, &werr
	if err := waiter.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * time.Second)
	if _, err := tofu.Exec(ctx, "SELECT pg_advisory_unlock($1)", key); err != nil {
		t.Fatal(err)
	}
	if err := waiter.Wait(); err != nil {
		t.Fatalf("the plan waiting for OpenTofu's lock: %v\n%s\n%s", err, wout.String(), werr.String())
	}
	contains(t, wout.String(), "waiting plan", "Plan: 2 to add")
}
