package encryption

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadsFilesWrittenByOpenTofu decrypts files that OpenTofu 1.9.4's own
// encryption code wrote (testdata/opentofu; see README there): a state
// with the pbkdf2 defaults and a plan with sha256, a 16-byte key, aad and
// an encrypted_metadata_alias.
func TestReadsFilesWrittenByOpenTofu(t *testing.T) {
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("testdata", "opentofu", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	state := mustNew(t, `
key_provider "pbkdf2" "main" { passphrase = "a passphrase of some length" }
method "aes_gcm" "main" { keys = key_provider.pbkdf2.main }
state { method = method.aes_gcm.main }`, nil)
	got, st, err := state.State().DecryptState(read("state.tofu-1.9.4.json"))
	if err != nil || st != Satisfied || !bytes.Equal(got, read("state.json")) {
		t.Fatalf("state: %v (status %v)\n%s", err, st, got)
	}
	plan := mustNew(t, `
key_provider "pbkdf2" "ci" {
  passphrase               = "a passphrase of some length"
  hash_function            = "sha256"
  key_length               = 16
  iterations               = 200000
  encrypted_metadata_alias = "ci-key"
}
method "aes_gcm" "ci" {
  keys = key_provider.pbkdf2.ci
  aad  = [104, 105]
}
plan { method = method.aes_gcm.ci }`, nil)
	got, _, err = plan.Plan().DecryptPlan(read("plan.tofu-1.9.4.json"))
	if err != nil || !bytes.Equal(got, read("plan.bin")) {
		t.Fatalf("plan: %v", err)
	}
	// Without the aad the same key does not authenticate.
	noAAD := mustNew(t, `
key_provider "pbkdf2" "ci" {
  passphrase               = "a passphrase of some length"
  hash_function            = "sha256"
  key_length               = 16
  iterations               = 200000
  encrypted_metadata_alias = "ci-key"
}
method "aes_gcm" "ci" { keys = key_provider.pbkdf2.ci }
plan { method = method.aes_gcm.ci }`, nil)
	if _, _, err := noAAD.Plan().DecryptPlan(read("plan.tofu-1.9.4.json")); err == nil {
		t.Fatal("decrypted without the aad")
	}
}

// TestReadsExternalKeyProviderStateWrittenByOpenTofu: OpenTofu 1.12.6
// wrote this state with an external key provider giving the same key as
// keyProviderScript; its stored metadata goes back to the script.
func TestReadsExternalKeyProviderStateWrittenByOpenTofu(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "opentofu", "state.tofu-1.12.6-external.json"))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := os.ReadFile(filepath.Join("testdata", "opentofu", "state.json"))
	script := writeScript(t, "keys.sh", keyProviderScript)
	e := mustNew(t, `
key_provider "external" "kms" { command = ["`+script+`"] }
method "aes_gcm" "k" { keys = key_provider.external.kms }
state { method = method.aes_gcm.k }`, nil)
	got, _, err := e.State().DecryptState(b)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("%v\n%s", err, got)
	}
	inputs, _ := os.ReadFile(filepath.Join(filepath.Dir(script), "inputs"))
	if strings.TrimSpace(string(inputs)) != `{"external_data":{"v":1}}` {
		t.Fatalf("the script got %q", inputs)
	}
}
