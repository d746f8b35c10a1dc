package e2etest

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plankit/plankit/internal/encryption"
)

// passVarSecret is the passphrase given with -var: it must appear in no
// file plankit writes.
const passVarSecret = "a-passphrase-given-with-var-42"

// passVarConfig encrypts the state (and, with planBlock, plans) with a
// passphrase from var.pass, which nothing else uses.
func passVarConfig(planBlock bool) string {
	p := ""
	if planBlock {
		p = "plan { method = method.aes_gcm.main }"
	}
	return `
variable "pass" {
  type = string
}

terraform {
  encryption {
    key_provider "pbkdf2" "main" {
      passphrase    = var.pass
      iterations    = 200000
      hash_function = "sha256"
    }
    method "aes_gcm" "main" {
      keys = key_provider.pbkdf2.main
    }
    state { method = method.aes_gcm.main }
    ` + p + `
  }
}

resource "terraform_data" "a" {
  input = "hello"
}
`
}

// scanArchive fails if secret is in the archive's bytes or in any of its
// ZIP entries, decompressed. An encrypted archive is decrypted first.
func scanArchive(t *testing.T, path, secret string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, []byte(secret)) {
		t.Fatalf("%s holds the passphrase", path)
	}
	if encryption.IsEnvelope(b) {
		cfg, diags := encryption.ParseConfig("test", `
key_provider "pbkdf2" "main" {
  passphrase    = "`+secret+`"
  iterations    = 200000
  hash_function = "sha256"
}
method "aes_gcm" "main" { keys = key_provider.pbkdf2.main }
plan { method = method.aes_gcm.main }
`)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		enc, diags := encryption.New(cfg, encryption.Options{})
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		if b, _, err = enc.Plan().DecryptPlan(b); err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte(secret)) {
			t.Fatalf("%s holds the passphrase inside the envelope", path)
		}
	}
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	if len(zr.File) < 3 {
		t.Fatalf("archive has only %d entries", len(zr.File))
	}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(data, []byte(secret)) {
			t.Fatalf("archive entry %s holds the passphrase", f.Name)
		}
	}
}

// scanStateFiles fails if secret is in any file beside the state (the
// state, its backup, journals, errored.tfstate).
func scanStateFiles(t *testing.T, dir, secret string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() || strings.HasSuffix(e.Name(), ".tf") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte(secret)) {
			t.Fatalf("%s holds the passphrase", e.Name())
		}
	}
}

// TestEncryptionVariableNotStored: a passphrase given to plan with -var
// is not recorded in the archive, clear or encrypted; apply of the archive
// in another directory takes it from TF_VAR_pass, and without it fails
// naming the variable.
func TestEncryptionVariableNotStored(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		planBlock bool
	}{{"clear plan", false}, {"encrypted plan", true}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "main.tf"), passVarConfig(tc.planBlock))
			stDir := t.TempDir()
			st := filepath.Join(stDir, "prod.tfstate")

			r := run(t, dir, "plan", nil, "-no-color", "-state="+st, "-var", "pass="+passVarSecret, "-out=p.tfplan")
			must(t, r, 0, "plan")
			if strings.Contains(r.stdout+r.stderr, passVarSecret) {
				t.Fatalf("plan printed the passphrase:\n%s\n%s", r.stdout, r.stderr)
			}
			scanArchive(t, filepath.Join(dir, "p.tfplan"), passVarSecret)

			elsewhere := t.TempDir()
			copyFile(t, filepath.Join(dir, "p.tfplan"), filepath.Join(elsewhere, "p.tfplan"))
			var env []string
			if tc.planBlock {
				// The archive is encrypted: this directory has no
				// configuration, so TF_ENCRYPTION says how.
				env = append(env, `TF_ENCRYPTION=key_provider "pbkdf2" "main" {
  passphrase    = var.pass
  iterations    = 200000
  hash_function = "sha256"
}
method "aes_gcm" "main" { keys = key_provider.pbkdf2.main }
plan { method = method.aes_gcm.main }
`)
			}

			// Without the passphrase: a clear error naming the variable.
			r = run(t, elsewhere, "apply", env, "-no-color", "-state="+st, "p.tfplan")
			must(t, r, 1, "apply without TF_VAR_pass")
			containsFlat(t, r.stderr, "apply without TF_VAR_pass", "var.pass", "TF_VAR_pass", "never records it")
			if _, err := os.Stat(st); err == nil {
				t.Fatalf("a failed apply wrote the state")
			}

			r = run(t, elsewhere, "apply", append(env, "TF_VAR_pass="+passVarSecret), "-no-color", "-state="+st, "p.tfplan")
			must(t, r, 0, "apply with TF_VAR_pass")
			contains(t, r.stdout, "apply", "Apply complete! Resources: 1 added")
			isEnvelope(t, st)
			scanStateFiles(t, stDir, passVarSecret)
			scanStateFiles(t, elsewhere, passVarSecret)
			scanStateFiles(t, dir, passVarSecret)

			// The state reads back with the same passphrase: no changes.
			r = run(t, dir, "plan", []string{"TF_VAR_pass=" + passVarSecret}, "-no-color", "-state="+st, "-detailed-exitcode")
			must(t, r, 0, "plan after apply")
		})
	}
}

// TestEncryptionVariableUsedElsewhere: a variable of the encryption block
// used by anything else is refused at plan, naming it.
func TestEncryptionVariableUsedElsewhere(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), passVarConfig(false)+`
output "leak" {
  value     = length(var.pass)
}
`)
	r := run(t, dir, "plan", nil, "-no-color", "-var", "pass="+passVarSecret, "-out=p.tfplan")
	must(t, r, 1, "plan")
	containsFlat(t, r.stderr, "plan", "Encryption variable used elsewhere", "var.pass", "must be used only there", "main.tf")
	if _, err := os.Stat(filepath.Join(dir, "p.tfplan")); err == nil {
		t.Fatal("a refused plan wrote its archive")
	}
}
