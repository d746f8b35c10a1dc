package e2etest

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/plankit/plankit/internal/backend/pg/pgtest"
	"github.com/plankit/plankit/planfile/planfiletest"
)

// encryptedConfig is a configuration whose state and plan are encrypted
// with a passphrase from a variable, as OpenTofu documents it. The secret
// is what must never appear in clear on disk.
const encryptedConfig = `
variable "passphrase" {
  type      = string
  sensitive = true
}

terraform {
  encryption {
    key_provider "pbkdf2" "main" {
      passphrase    = var.passphrase
      iterations    = 200000
      hash_function = "sha256"
    }
    method "aes_gcm" "main" {
      keys = key_provider.pbkdf2.main
    }
    state {
      method   = method.aes_gcm.main
      enforced = true
    }
    plan {
      method   = method.aes_gcm.main
      enforced = true
    }
  }
}

resource "terraform_data" "secret" {
  input = "the-secret-value-42"
}

output "secret" {
  value     = terraform_data.secret.output
  sensitive = true
}
`

const (
	passphrase      = "TF_VAR_passphrase=a passphrase of some length"
	wrongPassphrase = "TF_VAR_passphrase=another passphrase, also long"
)

// tfEncryption is the same configuration as TF_ENCRYPTION gives it (JSON),
// for a job that has no configuration directory.
const tfEncryption = `TF_ENCRYPTION={"key_provider":{"pbkdf2":{"main":{"passphrase":"a passphrase of some length","iterations":200000,"hash_function":"sha256"}}},"method":{"aes_gcm":{"main":{"keys":"key_provider.pbkdf2.main"}}},"state":{"method":"method.aes_gcm.main"},"plan":{"method":"method.aes_gcm.main"}}`

// containsFlat is contains for wrapped text: runs of spaces and newlines
// count as one space.
func containsFlat(t *testing.T, got, what string, wants ...string) {
	t.Helper()
	contains(t, strings.Join(strings.Fields(got), " "), what, wants...)
}

func isEnvelope(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var env struct {
		Version string            `json:"encryption_version"`
		Meta    map[string][]byte `json:"meta"`
		Data    []byte            `json:"encrypted_data"`
	}
	if err := json.Unmarshal(b, &env); err != nil || env.Version != "v0" || len(env.Data) == 0 || env.Meta["key_provider.pbkdf2.main"] == nil {
		t.Fatalf("%s is not an OpenTofu encryption envelope (%v): %.200s", path, err, b)
	}
	for _, secret := range []string{"the-secret-value-42", "passphrase of some length"} {
		if bytes.Contains(b, []byte(secret)) {
			t.Fatalf("%s holds %q in clear", path, secret)
		}
	}
	return b
}

// TestEncryptedStateAndPlan: plan writes an encrypted archive, apply (in
// another directory, configured by TF_ENCRYPTION alone) applies it and
// writes an encrypted state, show decrypts, a signature still verifies,
// and a wrong passphrase or no configuration is refused clearly.
func TestEncryptedStateAndPlan(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), encryptedConfig)
	priv, pub := planfiletest.WriteKeyPair(t, dir, "sign")
	st := filepath.Join(dir, "prod.tfstate")

	r := run(t, dir, "plan", []string{passphrase}, "-no-color", "-state="+st, "-sign-key="+priv, "-out=p.tfplan")
	must(t, r, 0, "plan")
	isEnvelope(t, filepath.Join(dir, "p.tfplan"))

	// plan show and show -json decrypt with the directory's configuration.
	r = run(t, dir, "plan", []string{passphrase}, "show", "-no-color", "p.tfplan")
	must(t, r, 0, "show")
	contains(t, r.stdout, "show", "terraform_data.secret will be created", "Plan: 1 to add")
	r = run(t, dir, "plan", []string{passphrase}, "show", "-json", "p.tfplan")
	must(t, r, 0, "show -json")
	contains(t, r.stdout, "show -json", `"format_version"`, `"terraform_data.secret"`)

	must(t, run(t, dir, "plan", []string{passphrase}, "diff", "p.tfplan", "p.tfplan"), 0, "diff of encrypted plans")

	// The wrong passphrase: refused, naming the problem and not the keys.
	r = run(t, dir, "plan", []string{wrongPassphrase}, "show", "p.tfplan")
	must(t, r, 1, "show with the wrong passphrase")
	containsFlat(t, r.stderr, "wrong passphrase", "Failed to decrypt the plan", "cannot decrypt the plan: the key does not match")
	if strings.Contains(r.stderr, "passphrase of some length") || strings.Contains(r.stderr, "another passphrase") {
		t.Fatalf("the error reveals a passphrase:\n%s", r.stderr)
	}
	// No configuration at all: the file is recognised as encrypted.
	elsewhere := t.TempDir()
	copyFile(t, filepath.Join(dir, "p.tfplan"), filepath.Join(elsewhere, "p.tfplan"))
	r = run(t, elsewhere, "plan", nil, "show", "p.tfplan")
	must(t, r, 1, "show without configuration")
	containsFlat(t, r.stderr, "show without configuration", "encrypted, but no encryption is configured", "TF_ENCRYPTION")

	// apply in a directory with only the archive: TF_ENCRYPTION decrypts
	// it, the signature (over the archive inside) verifies, and the new
	// state is encrypted.
	r = run(t, elsewhere, "apply", []string{tfEncryption}, "-no-color", "-state="+st, "-verify-key="+pub, "p.tfplan")
	must(t, r, 0, "apply")
	contains(t, r.stdout, "apply", "Apply complete! Resources: 1 added, 0 changed, 0 destroyed.", "secret = <sensitive>")
	isEnvelope(t, st)

	// The encrypted state is read back: no changes.
	r = run(t, dir, "plan", []string{passphrase}, "-no-color", "-state="+st, "-detailed-exitcode")
	must(t, r, 0, "plan after apply")
	contains(t, r.stdout, "plan after apply", "No changes.")

	// The state subcommands and output read it too.
	r = run(t, dir, "plan", []string{passphrase}, "state", "list", "-state="+st)
	must(t, r, 0, "state list")
	contains(t, r.stdout, "state list", "terraform_data.secret")
	r = run(t, dir, "plan", []string{passphrase}, "output", "-state="+st, "-raw", "secret")
	must(t, r, 0, "output")
	contains(t, r.stdout, "output", "the-secret-value-42")

	// state pull shows it decrypted; push takes the clear copy back and
	// stores it encrypted (here in a new state file of a directory whose
	// configuration is TF_ENCRYPTION alone).
	pullDir := t.TempDir()
	copyFile(t, st, filepath.Join(pullDir, "terraform.tfstate"))
	r = run(t, pullDir, "plan", []string{tfEncryption}, "state", "pull")
	must(t, r, 0, "state pull")
	contains(t, r.stdout, "state pull", `"the-secret-value-42"`, `"lineage"`)
	pushDir := t.TempDir()
	writeFile(t, filepath.Join(pushDir, "pulled.json"), r.stdout)
	must(t, run(t, pushDir, "plan", []string{tfEncryption}, "state", "push", "pulled.json"), 0, "state push")
	isEnvelope(t, filepath.Join(pushDir, "terraform.tfstate"))

	// The wrong passphrase for the state.
	r = run(t, dir, "plan", []string{wrongPassphrase}, "-no-color", "-state="+st)
	must(t, r, 1, "plan with the wrong passphrase")
	containsFlat(t, r.stderr, "plan with the wrong passphrase", "Failed to decrypt the state", "cannot decrypt the state: the key does not match")

	// enforced refuses a clear plan.
	writeFile(t, filepath.Join(elsewhere, "main.tf"), "resource \"terraform_data\" \"x\" {}\n")
	must(t, plan(t, elsewhere, "-out=clear.tfplan"), 0, "clear plan")
	r = run(t, dir, "plan", []string{passphrase}, "show", filepath.Join(elsewhere, "clear.tfplan"))
	must(t, r, 1, "clear plan where encryption is required")
	containsFlat(t, r.stderr, "clear plan where encryption is required", "cannot decrypt the plan: not encrypted, but encryption is required")
}

// TestStateEncryptionMigration follows OpenTofu's documented steps: an
// existing clear state is encrypted with the unencrypted method as a
// fallback, then read with the fallback removed; and back to clear with
// the unencrypted method first and the old method as the fallback.
func TestStateEncryptionMigration(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	resources := `
resource "terraform_data" "secret" {
  input = "the-secret-value-42"
}
`
	main := filepath.Join(dir, "main.tf")
	writeFile(t, main, resources)
	must(t, plan(t, dir, "-out=p.tfplan"), 0, "clear plan")
	must(t, apply(t, dir, "p.tfplan"), 0, "clear apply")
	st := filepath.Join(dir, "terraform.tfstate")

	keys := `
variable "passphrase" { type = string }
terraform {
  encryption {
    key_provider "pbkdf2" "main" {
      passphrase = var.passphrase
      iterations = 200000
    }
    method "aes_gcm" "main" {
      keys = key_provider.pbkdf2.main
    }
    method "unencrypted" "migrate" {}
    state {
      %s
    }
  }
}
`
	enc := []string{passphrase}
	// Without the fallback, the clear state is refused.
	writeFile(t, filepath.Join(dir, "enc.tf"), strings.Replace(keys, "%s", "method = method.aes_gcm.main", 1))
	r := run(t, dir, "plan", enc, "-no-color")
	must(t, r, 1, "clear state, encryption required")
	containsFlat(t, r.stderr, "clear state, encryption required", "cannot decrypt the state: not encrypted, but encryption is required", "fallback")

	// Step 1: fallback to unencrypted; an apply with no changes writes the
	// state encrypted, serial kept.
	writeFile(t, filepath.Join(dir, "enc.tf"), strings.Replace(keys, "%s", "method = method.aes_gcm.main\n      fallback { method = method.unencrypted.migrate }", 1))
	r = run(t, dir, "apply", enc, "-no-color", "-auto-approve")
	must(t, r, 0, "migrating apply")
	contains(t, r.stderr+r.stdout, "migrating apply", "Unencrypted method configured")
	isEnvelope(t, st)

	// Step 2: the fallback removed, the encrypted state is read.
	writeFile(t, filepath.Join(dir, "enc.tf"), strings.Replace(keys, "%s", "method = method.aes_gcm.main", 1))
	r = run(t, dir, "plan", enc, "-no-color", "-detailed-exitcode")
	must(t, r, 0, "plan after migration")
	contains(t, r.stdout, "plan after migration", "No changes.")

	// And back: unencrypted first, the old method as the fallback.
	writeFile(t, filepath.Join(dir, "enc.tf"), strings.Replace(keys, "%s", "method = method.unencrypted.migrate\n      fallback { method = method.aes_gcm.main }", 1))
	must(t, run(t, dir, "apply", enc, "-no-color", "-auto-approve"), 0, "apply back to clear")
	b, _ := os.ReadFile(st)
	if !bytes.Contains(b, []byte(`"the-secret-value-42"`)) || bytes.Contains(b, []byte("encryption_version")) {
		t.Fatalf("the state is not back in clear: %.300s", b)
	}
	os.Remove(filepath.Join(dir, "enc.tf"))
	must(t, plan(t, dir, "-detailed-exitcode"), 0, "clear plan after migrating back")
}

// TestPgEncryptedState: with the pg backend the workspace rows are
// encrypted, from a new workspace's first (empty) state on; state pull
// prints them decrypted; the wrong key is refused.
func TestPgEncryptedState(t *testing.T) {
	t.Parallel()
	cs := pgtest.NewDatabase(t)
	env := []string{"PG_CONN_STR=" + cs, tfEncryption}
	dir := pgDir(t)
	must(t, withEnv(t, dir, "plan", env, "-no-color", "-out=p.tfplan"), 0, "plan")
	isEnvelope(t, filepath.Join(dir, "p.tfplan"))
	must(t, withEnv(t, dir, "apply", env, "-no-color", "p.tfplan"), 0, "apply")

	conn, err := pgx.Connect(context.Background(), cs)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	row := func(ws string) string {
		var data string
		if err := conn.QueryRow(context.Background(), "SELECT data FROM terraform_remote_state.states WHERE name = $1", ws).Scan(&data); err != nil {
			t.Fatal(err)
		}
		return data
	}
	if d := row("default"); !strings.Contains(d, `"encryption_version":"v0"`) || strings.Contains(d, "a-default") {
		t.Fatalf("the default workspace's row is not encrypted: %.200s", d)
	}
	s, _ := pull(t, dir, env)
	if !s.has("terraform_data.a") {
		t.Fatalf("state pull: %+v", s)
	}
	must(t, withEnv(t, dir, "plan", env, "workspace", "new", "staging"), 0, "workspace new")
	if d := row("staging"); !strings.Contains(d, `"encryption_version":"v0"`) {
		t.Fatalf("a new workspace's first state is not encrypted: %.200s", d)
	}
	must(t, withEnv(t, dir, "plan", env, "-no-color"), 0, "plan in the new workspace")

	wrong := []string{"PG_CONN_STR=" + cs, strings.Replace(tfEncryption, "a passphrase of some length", "another passphrase, also long", 1)}
	r := withEnv(t, dir, "plan", wrong, "-no-color")
	must(t, r, 1, "plan with the wrong key")
	containsFlat(t, r.stderr, "plan with the wrong key", "cannot decrypt the state: the key does not match")
}

// TestEncryptedKilledApply: with an encrypted local state, an apply killed
// outright loses nothing that finished: its journal (encrypted record by
// record, no attribute in clear) is folded in by the next plan, which
// names the operation that was in flight.
func TestEncryptedKilledApply(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), strings.Replace(pgConfig, `backend "pg" {}`, "", 1))
	env := []string{tfEncryption}
	gate := filepath.Join(t.TempDir(), "gate")
	must(t, run(t, dir, "plan", env, "-no-color", "-var", "gate="+gate, "-out=p.tfplan"), 0, "plan")
	cmd, _, _ := startGated(t, dir, env, "-no-color", "p.tfplan")
	waitFor(t, "the provisioner", func() bool { return exists(gate + ".started") })
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	journals, _ := filepath.Glob(filepath.Join(dir, ".terraform.tfstate.journal*"))
	if len(journals) == 0 {
		t.Fatal("the killed apply left no journal")
	}
	for _, j := range journals {
		if b, _ := os.ReadFile(j); bytes.Contains(b, []byte("a-default")) {
			t.Errorf("journal %s holds terraform_data.a's input in clear", j)
		}
	}
	p := run(t, dir, "plan", env, "-no-color", "-lock=false")
	must(t, p, 0, "plan after the kill")
	contains(t, strings.Join(strings.Fields(p.stdout+p.stderr), " "), "recovery plan", "The state file lacks the changes of an interrupted apply", "marked tainted", "- terraform_data.b")
	if strings.Contains(p.stdout, "terraform_data.a will be created") {
		t.Errorf("the re-plan creates again what the killed apply created:\n%s", p.stdout)
	}
}
