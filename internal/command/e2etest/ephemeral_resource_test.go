package e2etest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The secret the ephemeral resource reads; it must appear in none of
// plankit's outputs or files.
const ephSecret = "eph-s3cret-7f41c9"

// ephemeralConfig opens ephemeral "fwtest_secret" "db" with the default
// fwtest provider and configures the provider fwtest.authed with its
// value; authed's objects record the token they were made with
// (provider_token). The secret also feeds fwtest_thing's write-only
// password_wo. extra is appended.
const ephemeralConfig = `
terraform {
  required_providers {
    fwtest = { source = "plankit/fwtest" }
  }
}

variable "objects" { type = string }
variable "secret_file" { type = string }
variable "log" { type = string }
variable "renew" {
  type    = number
  default = 0
}

provider "fwtest" {
  state_dir = var.objects
}

ephemeral "fwtest_secret" "db" {
  name          = "db"
  path          = var.secret_file
  log           = var.log
  renew_seconds = var.renew
}

provider "fwtest" {
  alias     = "authed"
  state_dir = var.objects
  token     = ephemeral.fwtest_secret.db.value
}

resource "fwtest_thing" "a" {
  provider    = fwtest.authed
  name        = "alpha"
  password_wo = ephemeral.fwtest_secret.db.value
}
`

// ephemeralDir writes the configuration (plus extra) and the secret file;
// it returns the directory, the variables to pass and the provider log.
func ephemeralDir(t *testing.T, extra string, renew int) (dir string, vars []string, log string) {
	t.Helper()
	dir, objects, aux := t.TempDir(), t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), ephemeralConfig+extra)
	secret := filepath.Join(aux, "secret")
	writeFile(t, secret, ephSecret+"\n")
	log = filepath.Join(aux, "provider.log")
	vars = []string{"-var", "objects=" + objects, "-var", "secret_file=" + secret, "-var", "log=" + log, "-var", fmt.Sprintf("renew=%d", renew)}
	return dir, vars, log
}

func providerLog(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

func count(lines []string, s string) int {
	n := 0
	for _, l := range lines {
		if l == s {
			n++
		}
	}
	return n
}

// noSecret fails when the secret is in text.
func noSecret(t *testing.T, what, text string) {
	t.Helper()
	if strings.Contains(text, ephSecret) {
		t.Errorf("the secret is in %s", what)
	}
}

// TestEphemeralResourceSecretStaysOut: plan -out, show, show -json and
// apply of a configuration whose provider is configured from an
// ephemeral resource, which also feeds a write-only argument. The
// provider gets the secret both ways; the archive, the
// state, show -json, the provider log plankit writes (TF_LOG_PATH) and
// every output do not. Plan and apply each open and close the resource.
func TestEphemeralResourceSecretStaysOut(t *testing.T) {
	mirror := newPluginMirror(t)
	dir, vars, log := ephemeralDir(t, "", 0)
	tflog := filepath.Join(t.TempDir(), "tf.log")
	env := append(pluginEnv(t), "TF_LOG=TRACE", "TF_LOG_PATH="+tflog)
	args := append([]string{"-no-color", "-plugin-dir=" + mirror.dir}, vars...)

	r := run(t, dir, "plan", env, append(args, "-out=x.tfplan")...)
	must(t, r, 0, "plan")
	contains(t, r.stdout, "plan output", "ephemeral.fwtest_secret.db: Opening...", "ephemeral.fwtest_secret.db: Open complete after",
		"ephemeral.fwtest_secret.db: Closing...", "ephemeral.fwtest_secret.db: Close complete after",
		"# fwtest_thing.a will be created", "Plan: 1 to add, 0 to change, 0 to destroy.")
	noSecret(t, "plan's output", r.stdout+r.stderr)
	if got := providerLog(t, log); strings.Join(got, ",") != "open db,close db" {
		t.Errorf("provider log after plan = %q, want open then close", got)
	}
	for name, text := range zipEntries(t, filepath.Join(dir, "x.tfplan")) {
		noSecret(t, "archive entry "+name, text)
	}

	r = run(t, dir, "plan", env, "show", "-no-color", "x.tfplan")
	must(t, r, 0, "plan show")
	noSecret(t, "plan show", r.stdout+r.stderr)
	r = run(t, dir, "plan", env, "show", "-json", "x.tfplan")
	must(t, r, 0, "plan show -json")
	noSecret(t, "plan show -json", r.stdout+r.stderr)
	var doc map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("show -json: %v", err)
	}

	r = run(t, dir, "apply", env, "-no-color", "-plugin-dir="+mirror.dir, "x.tfplan")
	must(t, r, 0, "apply")
	contains(t, r.stdout, "apply output", "ephemeral.fwtest_secret.db: Opening...", "fwtest_thing.a: Creation complete",
		"ephemeral.fwtest_secret.db: Close complete after", "Apply complete! Resources: 1 added")
	noSecret(t, "apply's output", r.stdout+r.stderr)
	if got := providerLog(t, log); strings.Join(got, ",") != "open db,close db,open db,close db" {
		t.Errorf("provider log after apply = %q, want the apply to open and close again", got)
	}
	for _, name := range []string{"terraform.tfstate", "terraform.tfstate.backup"} {
		if b, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
			noSecret(t, name, string(b))
		}
	}
	if b, err := os.ReadFile(tflog); err == nil {
		noSecret(t, "TF_LOG_PATH", string(b))
	}
	// The provider was configured with the secret: its object says so.
	objects := strings.TrimPrefix(vars[1], "objects=")
	entries, _ := os.ReadDir(filepath.Join(objects, "thing"))
	if len(entries) != 1 {
		t.Fatalf("the provider stored %d things, want 1", len(entries))
	}
	b, err := os.ReadFile(filepath.Join(objects, "thing", entries[0].Name()))
	if err != nil {
		t.Fatal(err)
	}
	var rec map[string]any
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatal(err)
	}
	if rec["provider_token"] != ephSecret {
		t.Errorf("fwtest.authed was configured with token %q, want the secret", rec["provider_token"])
	}
	// The provider keeps only a digest of the write-only value it got.
	if sum := sha256.Sum256([]byte(ephSecret)); rec["password_wo_sha256"] != hex.EncodeToString(sum[:]) {
		t.Errorf("fwtest_thing.a got password_wo with digest %q, want the secret's", rec["password_wo_sha256"])
	}

	r = run(t, dir, "plan", env, append(args, "-detailed-exitcode")...)
	must(t, r, 0, "second plan")
	contains(t, r.stdout, "second plan", "No changes.")
	noSecret(t, "the second plan's output", r.stdout+r.stderr)

	// validate reads the installed providers: plan init installs the
	// ephemeral resource's provider as a required one.
	r = run(t, dir, "plan", env, "init", "-no-color", "-plugin-dir="+mirror.dir)
	must(t, r, 0, "plan init")
	r = run(t, dir, "plan", env, "validate", "-no-color")
	must(t, r, 0, "plan validate")
	contains(t, r.stdout, "plan validate", "The configuration is valid.")
	r = run(t, dir, "plan", env, "graph", "-plugin-dir="+mirror.dir)
	must(t, r, 0, "plan graph")
	contains(t, r.stdout, "plan graph", `"ephemeral.fwtest_secret.db"`)
	noProviderProcesses(t, env)
}

// TestEphemeralResourceRenewAndInterrupt: during a long apply the
// resource is renewed at its renew_at; the journal written meanwhile
// holds no secret; Ctrl-C (one SIGINT) closes it before apply exits.
func TestEphemeralResourceRenewAndInterrupt(t *testing.T) {
	mirror := newPluginMirror(t)
	ctl := t.TempDir()
	release := filepath.Join(ctl, "release")
	dir, vars, log := ephemeralDir(t, `
resource "fwtest_thing" "slow" {
  provider = fwtest.authed
  name     = "slow"
  provisioner "local-exec" {
    command = "echo ready; while [ ! -e '`+release+`' ]; do sleep 0.05; done"
  }
}
`, 1)
	env := pluginEnv(t)
	must(t, run(t, dir, "plan", env, append([]string{"-no-color", "-plugin-dir=" + mirror.dir, "-out=p.tfplan"}, vars...)...), 0, "plan")

	cmd := command(dir, "apply", env, "-no-color", "-plugin-dir="+mirror.dir, "p.tfplan")
	outLines, ready, errLines, _ := startWatched(t, cmd, "fwtest_thing.slow (local-exec): ready", "never")
	defer writeFile(t, release, "")
	<-ready
	// The plan opened and closed once; the apply opened again. Wait for
	// two renewals (renew_seconds = 1) while the provisioner holds the
	// apply.
	deadline := time.Now().Add(30 * time.Second)
	for count(providerLog(t, log), "renew db") < 2 && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	if got := providerLog(t, log); count(got, "renew db") < 2 {
		t.Errorf("no renewals during the apply: provider log %q", got)
	}
	journals, _ := filepath.Glob(filepath.Join(dir, ".terraform.tfstate.journal*"))
	if len(journals) == 0 {
		t.Errorf("no journal during the apply: the check below sees nothing")
	}
	for _, j := range journals {
		b, _ := os.ReadFile(j)
		noSecret(t, "the journal "+filepath.Base(j), string(b))
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	<-outLines.done
	<-errLines.done
	if err := cmd.Wait(); err == nil {
		t.Errorf("an interrupted apply exited 0\n%s\n%s", outLines, errLines)
	}
	noSecret(t, "the interrupted apply's output", outLines.String()+errLines.String())
	got := providerLog(t, log)
	if count(got, "open db") != 2 || count(got, "close db") != 2 || got[len(got)-1] != "close db" {
		t.Errorf("provider log %q: want the apply's open closed last", got)
	}
	for _, name := range []string{"terraform.tfstate"} {
		if b, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
			noSecret(t, name, string(b))
		}
	}
	noProviderProcesses(t, env)
}

// TestEphemeralResourceClosedOnError: an apply failing midway (a
// provisioner fails) still closes the ephemeral resource.
func TestEphemeralResourceClosedOnError(t *testing.T) {
	mirror := newPluginMirror(t)
	dir, vars, log := ephemeralDir(t, `
resource "fwtest_thing" "bad" {
  provider = fwtest.authed
  name     = "bad"
  provisioner "local-exec" {
    command = "exit 3"
  }
}
resource "fwtest_thing" "after" {
  provider   = fwtest.authed
  name       = "after"
  depends_on = [fwtest_thing.bad]
}
`, 0)
	env := pluginEnv(t)
	r := run(t, dir, "apply", env, append([]string{"-no-color", "-auto-approve", "-plugin-dir=" + mirror.dir}, vars...)...)
	must(t, r, 1, "failing apply")
	contains(t, r.stderr+r.stdout, "apply output", "Provisioner failed", "exit status 3")
	noSecret(t, "the failed apply's output", r.stdout+r.stderr)
	// apply without a plan file plans (open, close) then applies (open,
	// close despite the failure).
	if got := providerLog(t, log); strings.Join(got, ",") != "open db,close db,open db,close db" {
		t.Errorf("provider log = %q", got)
	}
	noProviderProcesses(t, env)
}

// TestEphemeralResourceValueFlow: a value read by an ephemeral block is
// refused in a normal resource argument and in an output that is not
// ephemeral, each error naming the place, and the secret is in no output;
// through ephemeralasnull it may go into a normal argument (still sensitive).
func TestEphemeralResourceValueFlow(t *testing.T) {
	mirror := newPluginMirror(t)
	tests := []struct {
		name, extra string
		want        []string
	}{
		{"resource argument", `
resource "fwtest_thing" "leak" {
  name = ephemeral.fwtest_secret.db.value
}`, []string{"Ephemeral value in a resource argument", "fwtest_thing.leak"}},
		{"output", `
output "leak" {
  value     = ephemeral.fwtest_secret.db.value
  sensitive = true
}`, []string{"Ephemeral value in an output that is not ephemeral", `output "leak"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir, vars, _ := ephemeralDir(t, tc.extra, 0)
			args := append([]string{"-no-color", "-plugin-dir=" + mirror.dir, "-out=x.tfplan"}, vars...)
			r := run(t, dir, "plan", pluginEnv(t), args...)
			must(t, r, 1, "plan")
			contains(t, r.stderr, "plan", tc.want...)
			noSecret(t, "plan's output", r.stdout+r.stderr)
			if exists(filepath.Join(dir, "x.tfplan")) {
				t.Error("a refused plan wrote its archive")
			}
		})
	}
	dir, vars, _ := ephemeralDir(t, `
resource "fwtest_thing" "ok" {
  name = coalesce(ephemeralasnull(ephemeral.fwtest_secret.db.value), "fallback")
}`, 0)
	r := run(t, dir, "plan", pluginEnv(t), append([]string{"-no-color", "-plugin-dir=" + mirror.dir}, vars...)...)
	must(t, r, 0, "plan with ephemeralasnull")
	// The secret's sensitivity stays on what ephemeralasnull returns.
	contains(t, r.stdout, "plan with ephemeralasnull", "# fwtest_thing.ok will be created", "(sensitive value)")
}
