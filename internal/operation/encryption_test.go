package operation

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/encryption"
	"github.com/plankit/plankit/internal/states/statemgr"
	"github.com/plankit/plankit/internal/terraform"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/states/statefile"
)

// literalKeyEncryption encrypts states with a fixed AES key (no key
// derivation, so the test is fast).
const literalKeyEncryption = `
method "aes_gcm" "k" {
  keys = {
    encryption_key = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]
    decryption_key = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]
  }
}
state { method = method.aes_gcm.k }
`

// TestErroredStateIsEncrypted: the recovery copy of a state that could
// not be written is encrypted like the state itself, and decrypts to it.
func TestErroredStateIsEncrypted(t *testing.T) {
	enc, diags := LoadEncryption([]string{EncryptionEnv + "=" + literalKeyEncryption}, nil, nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	st := states.NewState()
	st.SetOutputValue(addrs.OutputValue{Name: "x"}.Absolute(nil), cty.StringVal("kept-secret"), false)
	wd := t.TempDir()
	ds := SaveErroredStateCodec(wd, "s.tfstate", &statefile.File{Lineage: "lin", Serial: 7}, st, &bytes.Buffer{}, CodecFor(enc))
	if len(ds) != 1 || strings.Contains(ds[0].Detail, "in clear") {
		t.Fatalf("diagnostics %v", ds)
	}
	b, err := os.ReadFile(filepath.Join(wd, "errored.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	if !encryption.IsEnvelope(b) || bytes.Contains(b, []byte("kept-secret")) {
		t.Fatalf("recovery copy in clear: %s", b)
	}
	plain, _, err := enc.State().DecryptState(b)
	if err != nil {
		t.Fatal(err)
	}
	f, err := statefile.Read(bytes.NewReader(plain))
	if err != nil || f.Serial != 8 || f.Lineage != "lin" {
		t.Fatalf("decrypted recovery copy: %v %+v", err, f)
	}

	// The same for a state kept in a remote backend (pushed back later).
	wd = t.TempDir()
	ds = SaveErroredRemote(wd, "workspace \"default\"", &statefile.File{Lineage: "lin", Serial: 7}, st, &bytes.Buffer{}, CodecFor(enc))
	if len(ds) != 1 || !strings.Contains(ds[0].Detail, "plan state push") {
		t.Fatalf("diagnostics %v", ds)
	}
	b, _ = os.ReadFile(filepath.Join(wd, "errored.tfstate"))
	if !encryption.IsEnvelope(b) || bytes.Contains(b, []byte("kept-secret")) {
		t.Fatalf("remote recovery copy in clear: %s", b)
	}
}

// TestLoadEncryption: the working directory's block, its override file
// and TF_ENCRYPTION merge in that order; variables come from the values
// given, else their defaults.
func TestLoadEncryption(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"main.tf": `
variable "pass" {
  type    = string
  default = "a default passphrase"
}
terraform {
  encryption {
    key_provider "pbkdf2" "k" {
      passphrase = var.pass
    }
    method "aes_gcm" "k" { keys = key_provider.pbkdf2.k }
    state { method = method.aes_gcm.k }
  }
}
`,
		"enc_override.tf": `
terraform {
  encryption {
    plan { method = method.aes_gcm.k }
  }
}
`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	config, diags := configs.LoadConfigDir(dir)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	enc, diags := LoadEncryption(nil, config, nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if !enc.State().Encrypted() || !enc.Plan().Encrypted() {
		t.Fatalf("state %v plan %v", enc.State().Methods(), enc.Plan().Methods())
	}
	// TF_ENCRYPTION's plan block wins over the override file's.
	env := EncryptionEnv + `={"method":{"unencrypted":{"off":{}}},"plan":{"method":"method.unencrypted.off"}}`
	enc, diags = LoadEncryption([]string{env}, config, nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if enc.Plan().Encrypted() || !enc.State().Encrypted() {
		t.Fatalf("after TF_ENCRYPTION: state %v plan %v", enc.State().Methods(), enc.Plan().Methods())
	}
	// A short passphrase from a variable is refused without showing it.
	_, diags = LoadEncryption(nil, config, terraform.InputValues{"pass": {Value: cty.StringVal("short")}})
	if !diags.HasErrors() || !strings.Contains(diags.Error(), "at least 16 characters") || strings.Contains(diags.Error(), "short\"") {
		t.Fatalf("got %v", diags)
	}
}

func TestClearPlanOfEncryptedStateWarns(t *testing.T) {
	enc, diags := LoadEncryption([]string{EncryptionEnv + "=" + literalKeyEncryption}, nil, nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if ds := ClearPlanOfEncryptedState(enc, "p.tfplan"); len(ds) != 1 || ds[0].Summary != "Plan file not encrypted" {
		t.Fatalf("got %v", ds)
	}
	if ds := ClearPlanOfEncryptedState(enc, ""); len(ds) != 0 {
		t.Fatalf("no -out, no warning: %v", ds)
	}
}

// TestEncryptedStateJournal: apply's journal is kept for an encrypted
// state too, with every record encrypted (the object's attributes appear
// nowhere in clear), and the next run reads it back.
func TestEncryptedStateJournal(t *testing.T) {
	enc, diags := LoadEncryption([]string{EncryptionEnv + "=" + literalKeyEncryption}, nil, nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	for _, tc := range []struct {
		name      string
		codec     statemgr.Codec
		encrypted bool
	}{{"clear", CodecFor(nil), false}, {"encrypted", CodecFor(enc), true}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "terraform.tfstate")
			fs := statemgr.NewFilesystem(path)
			fs.SetCodec(tc.codec)
			s := &StateSaver{mgr: fs, wd: dir, spath: path, dump: &bytes.Buffer{}, codec: tc.codec}
			live := states.NewState().SyncWrapper()
			s.Start(live)
			addr := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: "a"}.Instance(addrs.NoKey).Absolute(nil)
			if err := s.Begin(addr, addrs.NotDeposed, plans.Create); err != nil {
				t.Fatal(err)
			}
			live.SetResourceInstanceCurrent(addr, &states.ResourceInstanceObjectSrc{AttrsJSON: []byte(`{"id":"secret-id"}`), Status: states.ObjectReady},
				addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")})
			s.Changed(addr)
			s.End(addr)
			journals, _ := filepath.Glob(filepath.Join(dir, ".terraform.tfstate.journal*"))
			if len(journals) == 0 {
				t.Fatal("no journal was written")
			}
			for _, j := range journals {
				b, _ := os.ReadFile(j)
				if tc.encrypted == bytes.Contains(b, []byte("secret-id")) {
					t.Fatalf("journal %s holds the object in clear: %v (encrypted state: %v)", j, !tc.encrypted, tc.encrypted)
				}
			}
			// A run that dies here leaves the journal: a new manager
			// reads the object back from it, decrypting each record.
			again := statemgr.NewFilesystem(path)
			again.SetCodec(tc.codec)
			if err := again.RefreshState(); err != nil {
				t.Fatalf("reading the state with its journal: %v", err)
			}
			if again.State() == nil || again.State().ResourceInstance(addr) == nil {
				t.Fatalf("the journal's object was not recovered: %v", again.State())
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			b, _ := os.ReadFile(path)
			if encryption.IsEnvelope(b) != tc.encrypted || (tc.encrypted && bytes.Contains(b, []byte("secret-id"))) {
				t.Fatalf("state file: %.100s", b)
			}
		})
	}
}

// LoadEncryptionIn loads the working directory's configuration only when
// it could configure encryption: a directory whose files never mention
// an encryption block (here one that does not even parse) is not loaded,
// and one whose files could (a block, a JSON file that might spell it
// with escapes, TF_ENCRYPTION set) is loaded and its errors reported.
func TestLoadEncryptionInLoadsOnlyWhenNeeded(t *testing.T) {
	const broken = "resource \"terraform_data\" \"a\" {\n" // unclosed block
	const block = `
terraform {
  encryption {
    key_provider "pbkdf2" "k" { passphrase = "a long enough passphrase" }
    method "aes_gcm" "k" { keys = key_provider.pbkdf2.k }
    plan { method = method.aes_gcm.k }
  }
}
`
	tests := []struct {
		name      string
		files     map[string]string
		env       []string
		wantErr   bool // the configuration was loaded (and its error reported)
		encrypted bool
	}{
		{"no encryption, broken file", map[string]string{"main.tf": broken}, nil, false, false},
		{"encryption block", map[string]string{"main.tf": block}, nil, false, true},
		{"encryption block and a broken file", map[string]string{"enc.tf": block, "main.tf": broken}, nil, true, false},
		{"word in a comment", map[string]string{"main.tf": "# no encryption here\n" + broken}, nil, true, false},
		{"JSON escapes", map[string]string{"main.tf.json": `{"terraform": [{"\u0065ncryption": [{}]}], "resource": 1}`}, nil, true, false},
		{"TF_ENCRYPTION set", map[string]string{"main.tf": broken}, []string{EncryptionEnv + `={"method":{"unencrypted":{"off":{}}}}`}, true, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, src := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			enc, diags := LoadEncryptionIn(tc.env, dir)
			if diags.HasErrors() != tc.wantErr {
				t.Fatalf("errors: %v, want errors %v", diags, tc.wantErr)
			}
			if tc.wantErr {
				return
			}
			if got := enc.Plan().Encrypted(); got != tc.encrypted {
				t.Errorf("plan encrypted = %v, want %v", got, tc.encrypted)
			}
		})
	}
}
