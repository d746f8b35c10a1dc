package encryption

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

var samplePlan = append([]byte("PK\x03\x04"), bytes.Repeat([]byte("plan archive bytes "), 50)...)

func TestRoundTrip(t *testing.T) {
	tests := map[string]string{
		"pbkdf2 sha512 aes-256": pbkdf2Config("k", "correct horse battery staple", targets("k")),
		"pbkdf2 sha256 aes-128": `
key_provider "pbkdf2" "k" {
  passphrase    = "correct horse battery staple"
  iterations    = 1000
  hash_function = "sha256"
  key_length    = 16
  salt_length   = 8
}
method "aes_gcm" "k" { keys = key_provider.pbkdf2.k }
` + targets("k"),
		"pbkdf2 with aad and alias": `
key_provider "pbkdf2" "k" {
  passphrase               = "correct horse battery staple"
  iterations               = 1000
  encrypted_metadata_alias = "ci"
}
method "aes_gcm" "k" {
  keys = key_provider.pbkdf2.k
  aad  = [1, 2, 3]
}
` + targets("k"),
		"literal keys": `
method "aes_gcm" "k" {
  keys = {
    encryption_key = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31]
    decryption_key = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31]
  }
}
` + targets("k"),
		"chained pbkdf2": `
key_provider "pbkdf2" "base" {
  passphrase = "correct horse battery staple"
  iterations = 1000
}
key_provider "pbkdf2" "k" {
  chain      = key_provider.pbkdf2.base
  iterations = 1000
}
method "aes_gcm" "k" { keys = key_provider.pbkdf2.k }
` + targets("k"),
		"JSON": `{
  "key_provider": {"pbkdf2": {"k": {"passphrase": "correct horse battery staple", "iterations": 1000}}},
  "method": {"aes_gcm": {"k": {"keys": "key_provider.pbkdf2.k"}}},
  "state": {"method": "method.aes_gcm.k"},
  "plan": {"method": "method.aes_gcm.k"}
}`,
	}
	for name, src := range tests {
		t.Run(name, func(t *testing.T) {
			e := mustNew(t, src, nil)
			roundTrip(t, e)
		})
	}
}

// roundTrip encrypts the sample state and plan with e, checks nothing of
// them is readable, and decrypts them with a fresh Encryption of the same
// configuration (as the next run would).
func roundTrip(t *testing.T, e *Encryption) {
	t.Helper()
	encState, err := e.State().EncryptState([]byte(sampleState))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(encState, []byte("hunter2")) || !IsEnvelope(encState) {
		t.Fatalf("state not encrypted: %s", encState)
	}
	got, st, err := e.State().DecryptState(encState)
	if err != nil {
		t.Fatal(err)
	}
	if st != Satisfied || string(got) != sampleState {
		t.Fatalf("state round trip: status %v, %q", st, got)
	}
	encPlan, err := e.Plan().EncryptPlan(samplePlan)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(encPlan, []byte("plan archive")) || !IsEnvelope(encPlan) {
		t.Fatalf("plan not encrypted")
	}
	gotPlan, st, err := e.Plan().DecryptPlan(encPlan)
	if err != nil {
		t.Fatal(err)
	}
	if st != Satisfied || !bytes.Equal(gotPlan, samplePlan) {
		t.Fatalf("plan round trip failed (status %v)", st)
	}
}

// pbkdf2Ref is PBKDF2 (RFC 8018 section 5.2) written out from the RFC,
// independently of the implementation under test.
func pbkdf2Ref(h func() hash.Hash, password, salt []byte, iter, keyLen int) []byte {
	var out []byte
	for block := uint32(1); len(out) < keyLen; block++ {
		mac := hmac.New(h, password)
		mac.Write(salt)
		mac.Write([]byte{byte(block >> 24), byte(block >> 16), byte(block >> 8), byte(block)})
		u := mac.Sum(nil)
		t := append([]byte(nil), u...)
		for i := 1; i < iter; i++ {
			mac.Reset()
			mac.Write(u)
			u = mac.Sum(u[:0])
			for j := range t {
				t[j] ^= u[j]
			}
		}
		out = append(out, t...)
	}
	return out[:keyLen]
}

func TestPBKDF2ReferenceVector(t *testing.T) {
	// RFC 7914 section 11: PBKDF2-HMAC-SHA256, P="passwd", S="salt", c=1, dkLen=64.
	want := "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783"
	if got := hex.EncodeToString(pbkdf2Ref(sha256.New, []byte("passwd"), []byte("salt"), 1, 64)); got != want {
		t.Fatalf("reference PBKDF2 is wrong:\n got %s\nwant %s", got, want)
	}
}

// TestKnownAnswerPlan builds the envelope OpenTofu would write for fixed
// salt and nonce, by hand (reference PBKDF2, the standard library's
// AES-GCM, OpenTofu's field names and encodings), and compares bytes.
func TestKnownAnswerPlan(t *testing.T) {
	cfg, diags := ParseConfig("kat", pbkdf2Config("main", "correct horse battery staple", targets("main")))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	e, diags := New(cfg, Options{Rand: &countingRand{}, minIterations: testIterations})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	got, err := e.Plan().EncryptPlan(samplePlan)
	if err != nil {
		t.Fatal(err)
	}

	r := &countingRand{}
	salt := make([]byte, 32) // drawn first, by the key provider
	r.Read(salt)
	nonce := make([]byte, 12) // then the nonce, by the method
	r.Read(nonce)
	key := pbkdf2Ref(sha512.New, []byte("correct horse battery staple"), salt, testIterations, 32)
	block, _ := aes.NewCipher(key)
	gcm, _ := cipher.NewGCM(block)
	data := append(append([]byte(nil), nonce...), gcm.Seal(nil, nonce, samplePlan, nil)...)
	meta := fmt.Sprintf(`{"salt":"%s","iterations":1000,"hash_function":"sha512","key_length":32}`, base64.StdEncoding.EncodeToString(salt))
	want := fmt.Sprintf(`{"meta":{"key_provider.pbkdf2.main":"%s"},"encrypted_data":"%s","encryption_version":"v0"}`,
		base64.StdEncoding.EncodeToString([]byte(meta)), base64.StdEncoding.EncodeToString(data))
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Fatalf("envelope differs from the hand-built one (-want +got):\n%s", diff)
	}

	// And the hand-built envelope decrypts (it is the same bytes, but this
	// is the direction that matters for reading OpenTofu's files).
	plain, _, err := e.Plan().DecryptPlan([]byte(want))
	if err != nil || !bytes.Equal(plain, samplePlan) {
		t.Fatalf("decrypting the known answer: %v", err)
	}
}

func TestStateEnvelopeKeepsSerialAndLineageInClear(t *testing.T) {
	e := mustNew(t, pbkdf2Config("k", "correct horse battery staple", targets("k")), nil)
	enc, err := e.State().EncryptState([]byte(sampleState))
	if err != nil {
		t.Fatal(err)
	}
	prefix := `{"serial":7,"lineage":"3f0a7b0e-1111-2222-3333-444455556666","meta":{"key_provider.pbkdf2.k":"`
	if !strings.HasPrefix(string(enc), prefix) || !strings.HasSuffix(string(enc), `","encryption_version":"v0"}`) {
		t.Fatalf("unexpected envelope layout: %s", enc)
	}
	var meta map[string]map[string][]byte
	if err := json.Unmarshal(enc, &struct {
		Meta *map[string]map[string][]byte `json:"meta"`
	}{&meta}); err == nil {
		t.Fatalf("meta values must be base64 strings, as OpenTofu writes them")
	}
	env, err := DecodeEnvelope(enc)
	if err != nil {
		t.Fatal(err)
	}
	var pm map[string]any
	if err := json.Unmarshal(env.Meta["key_provider.pbkdf2.k"], &pm); err != nil {
		t.Fatal(err)
	}
	if pm["iterations"] != 1000.0 || pm["hash_function"] != "sha512" || pm["key_length"] != 32.0 {
		t.Fatalf("pbkdf2 metadata: %v", pm)
	}
	if s, _ := base64.StdEncoding.DecodeString(pm["salt"].(string)); len(s) != 32 {
		t.Fatalf("salt length %d, want the default 32", len(s))
	}

	// The clear serial must match the encrypted one.
	tampered := bytes.Replace(enc, []byte(`"serial":7`), []byte(`"serial":8`), 1)
	_, _, err = e.State().DecryptState(tampered)
	if !errors.Is(err, KindEnvelope) || !strings.Contains(err.Error(), "serial 8") {
		t.Fatalf("altered clear serial: got %v", err)
	}
}

func TestWrongPassphraseRefused(t *testing.T) {
	right := mustNew(t, pbkdf2Config("k", "correct horse battery staple", targets("k")), nil)
	wrong := mustNew(t, pbkdf2Config("k", "incorrect horse battery staple", targets("k")), nil)
	encState, err := right.State().EncryptState([]byte(sampleState))
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = wrong.State().DecryptState(encState)
	if !errors.Is(err, KindKeyMismatch) || !strings.HasPrefix(err.Error(), "cannot decrypt the state: the key does not match") {
		t.Fatalf("got %v", err)
	}
	for _, secret := range []string{"horse", "hunter2"} {
		if strings.Contains(err.Error(), secret) {
			t.Fatalf("error reveals %q: %v", secret, err)
		}
	}
	encPlan, err := right.Plan().EncryptPlan(samplePlan)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = wrong.Plan().DecryptPlan(encPlan)
	if !strings.HasPrefix(fmt.Sprint(err), "cannot decrypt the plan: the key does not match") {
		t.Fatalf("got %v", err)
	}
}

func TestTamperedCiphertextRefused(t *testing.T) {
	e := mustNew(t, pbkdf2Config("k", "correct horse battery staple", targets("k")), nil)
	enc, err := e.Plan().EncryptPlan(samplePlan)
	if err != nil {
		t.Fatal(err)
	}
	env, err := DecodeEnvelope(enc)
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{0, 12, len(env.Data) / 2, len(env.Data) - 1} { // nonce, first ciphertext byte, middle, tag
		data := append([]byte(nil), env.Data...)
		data[i] ^= 0x01
		alt := &Envelope{Meta: env.Meta, Data: data, Version: EnvelopeVersion}
		b, _ := alt.MarshalPlan()
		if _, _, err := e.Plan().DecryptPlan(b); !errors.Is(err, KindKeyMismatch) {
			t.Errorf("byte %d flipped: got %v, want a key mismatch", i, err)
		}
	}
	// Another salt derives another key.
	var m pbkdf2Meta
	json.Unmarshal(env.Meta["key_provider.pbkdf2.k"], &m)
	m.Salt[0] ^= 1
	mb, _ := json.Marshal(m)
	alt := &Envelope{Meta: map[string][]byte{"key_provider.pbkdf2.k": mb}, Data: env.Data, Version: EnvelopeVersion}
	b, _ := alt.MarshalPlan()
	if _, _, err := e.Plan().DecryptPlan(b); !errors.Is(err, KindKeyMismatch) {
		t.Errorf("salt altered: got %v", err)
	}
	// Truncated to less than a nonce and a tag.
	alt = &Envelope{Meta: env.Meta, Data: env.Data[:20], Version: EnvelopeVersion}
	b, _ = alt.MarshalPlan()
	if _, _, err := e.Plan().DecryptPlan(b); err == nil {
		t.Errorf("truncated data accepted")
	}
}

func TestMigrationFromUnencrypted(t *testing.T) {
	// OpenTofu's documented first step: the new method, with the
	// unencrypted method as fallback so the clear state can still be read.
	e := mustNew(t, pbkdf2Config("k", "correct horse battery staple", `
method "unencrypted" "migrate" {}
state {
  method = method.aes_gcm.k
  fallback { method = method.unencrypted.migrate }
}`), nil)
	got, st, err := e.State().DecryptState([]byte(sampleState))
	if err != nil || st != Migration || string(got) != sampleState {
		t.Fatalf("reading the clear state: %v, status %v", err, st)
	}
	enc, err := e.State().EncryptState(got)
	if err != nil || !IsEnvelope(enc) {
		t.Fatalf("writing it encrypted: %v", err)
	}
	// Second step: the fallback is removed, and the state is encrypted.
	after := mustNew(t, pbkdf2Config("k", "correct horse battery staple", `state { method = method.aes_gcm.k }`), nil)
	if _, st, err := after.State().DecryptState(enc); err != nil || st != Satisfied {
		t.Fatalf("reading after migration: %v, %v", err, st)
	}
	// Without the fallback a clear state is refused, saying how to migrate.
	_, _, err = after.State().DecryptState([]byte(sampleState))
	if !errors.Is(err, KindUnencrypted) || !strings.Contains(err.Error(), "fallback { method = method.unencrypted.") {
		t.Fatalf("clear state with encryption required: %v", err)
	}
}

func TestMigrationToUnencrypted(t *testing.T) {
	e := mustNew(t, pbkdf2Config("k", "correct horse battery staple", targets("k")), nil)
	enc, _ := e.State().EncryptState([]byte(sampleState))
	back := mustNew(t, pbkdf2Config("k", "correct horse battery staple", `
method "unencrypted" "migrate" {}
state {
  method = method.unencrypted.migrate
  fallback { method = method.aes_gcm.k }
}`), nil)
	got, st, err := back.State().DecryptState(enc)
	if err != nil || st != Migration {
		t.Fatalf("reading the encrypted state: %v, %v", err, st)
	}
	out, err := back.State().EncryptState(got)
	if err != nil || string(out) != sampleState {
		t.Fatalf("the state is written in clear: %v %q", err, out)
	}
	if _, st, err := back.State().DecryptState(out); err != nil || st != Satisfied {
		t.Fatalf("clear state after migration: %v %v", err, st)
	}
}

func TestKeyRotationThroughFallback(t *testing.T) {
	old := mustNew(t, pbkdf2Config("old", "the old passphrase, long enough", targets("old")), nil)
	enc, _ := old.State().EncryptState([]byte(sampleState))
	rotating := mustNew(t, pbkdf2Config("old", "the old passphrase, long enough", "")+pbkdf2Config("new", "the new passphrase, long enough", `
state {
  method = method.aes_gcm.new
  fallback { method = method.aes_gcm.old }
}`), nil)
	got, st, err := rotating.State().DecryptState(enc)
	if err != nil || st != Migration {
		t.Fatalf("read with the old key: %v %v", err, st)
	}
	reenc, err := rotating.State().EncryptState(got)
	if err != nil {
		t.Fatal(err)
	}
	env, _ := DecodeEnvelope(reenc)
	if _, ok := env.Meta["key_provider.pbkdf2.new"]; !ok || len(env.Meta) != 1 {
		t.Fatalf("rewritten with metadata %v, want only the new key provider's", metaKeys(env.Meta))
	}
	newOnly := mustNew(t, pbkdf2Config("new", "the new passphrase, long enough", targets("new")), nil)
	if _, st, err := newOnly.State().DecryptState(reenc); err != nil || st != Satisfied {
		t.Fatalf("new key alone: %v %v", err, st)
	}
	// The old state needs the old key provider: the error names both.
	_, _, err = newOnly.State().DecryptState(enc)
	if !errors.Is(err, KindKeyProvider) || !strings.Contains(err.Error(), "key_provider.pbkdf2.old") {
		t.Fatalf("old state with only the new key: %v", err)
	}
}

func TestEncryptedButNotConfigured(t *testing.T) {
	e := mustNew(t, pbkdf2Config("k", "correct horse battery staple", targets("k")), nil)
	enc, _ := e.State().EncryptState([]byte(sampleState))
	none, diags := New(nil, Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	_, _, err := none.State().DecryptState(enc)
	if !errors.Is(err, KindNotConfigured) || !strings.Contains(err.Error(), "TF_ENCRYPTION") {
		t.Fatalf("got %v", err)
	}
	// Clear data with no configuration passes through unchanged.
	if out, st, err := none.State().DecryptState([]byte(sampleState)); err != nil || st != Satisfied || string(out) != sampleState {
		t.Fatalf("clear state, no configuration: %v", err)
	}
	if out, err := none.Plan().EncryptPlan(samplePlan); err != nil || !bytes.Equal(out, samplePlan) {
		t.Fatalf("no configuration must not encrypt")
	}
}

func TestConfigErrors(t *testing.T) {
	tests := []struct {
		name, src string
		want      string
		secret    string
	}{
		{"short passphrase", pbkdf2Config("k", "tooshort", targets("k")), "at least 16 characters", "tooshort"},
		{"enforced with unencrypted", `
method "unencrypted" "migrate" {}
state {
  enforced = true
  method   = method.unencrypted.migrate
}`, "Unencrypted method is forbidden", ""},
		{"enforced with unencrypted fallback", pbkdf2Config("k", "correct horse battery staple", `
method "unencrypted" "migrate" {}
plan {
  enforced = true
  method   = method.aes_gcm.k
  fallback { method = method.unencrypted.migrate }
}`), "Unencrypted method is forbidden", "horse"},
		{"low iterations", strings.Replace(pbkdf2Config("k", "correct horse battery staple", targets("k")), "1000", "100", 1), "iterations must be at least 1000", "horse"},
		{"unknown hash", strings.Replace(pbkdf2Config("k", "correct horse battery staple", targets("k")), "iterations", "hash_function = \"md5\"\n  iterations", 1), `"md5"`, "horse"},
		{"undeclared method", `state { method = method.aes_gcm.nope }`, `no method "aes_gcm" "nope"`, ""},
		{"undeclared key provider", `
method "aes_gcm" "k" { keys = key_provider.pbkdf2.nope }
state { method = method.aes_gcm.k }`, `no key_provider "pbkdf2" "nope"`, ""},
		{"unsupported key provider", `
key_provider "aws_kms" "k" { kms_key_id = "x" }
method "aes_gcm" "k" { keys = key_provider.aws_kms.k }
state { method = method.aes_gcm.k }`, "not \"aws_kms\"", ""},
		{"bad method reference", `state { method = "aes" }`, "method.TYPE.NAME", ""},
		{"duplicate key provider", pbkdf2Config("k", "correct horse battery staple", "") + `key_provider "pbkdf2" "k" { passphrase = "x" }`, "declared twice", "horse"},
		{"unknown argument", strings.Replace(pbkdf2Config("k", "correct horse battery staple", targets("k")), "iterations", "rounds = 3\n  iterations", 1), `argument "rounds"`, "horse"},
		{"no passphrase", `
key_provider "pbkdf2" "k" {}
method "aes_gcm" "k" { keys = key_provider.pbkdf2.k }
state { method = method.aes_gcm.k }`, "passphrase", ""},
		{"variable without value", `
key_provider "pbkdf2" "k" { passphrase = var.pass }
method "aes_gcm" "k" { keys = key_provider.pbkdf2.k }
state { method = method.aes_gcm.k }`, "TF_VAR_pass", ""},
		{"local reference", `
key_provider "pbkdf2" "k" { passphrase = local.pass }
method "aes_gcm" "k" { keys = key_provider.pbkdf2.k }
state { method = method.aes_gcm.k }`, "only to input variables", ""},
		{"wrong key length", `
key_provider "pbkdf2" "k" {
  passphrase = "correct horse battery staple"
  key_length = 20
  iterations = 1000
}
method "aes_gcm" "k" { keys = key_provider.pbkdf2.k }
state { method = method.aes_gcm.k }`, "", ""}, // found when keys are derived: see TestBadKeyLength
	}
	for _, tc := range tests {
		if tc.want == "" {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			_, diags := build(tc.src, nil)
			if !diags.HasErrors() {
				t.Fatalf("accepted")
			}
			text := diagText(diags)
			if !strings.Contains(text, tc.want) {
				t.Fatalf("error %q does not say %q", text, tc.want)
			}
			if tc.secret != "" && strings.Contains(text, tc.secret) {
				t.Fatalf("error reveals the passphrase: %s", text)
			}
		})
	}
}

func TestBadKeyLength(t *testing.T) {
	e := mustNew(t, `
key_provider "pbkdf2" "k" {
  passphrase = "correct horse battery staple"
  key_length = 20
  iterations = 1000
}
method "aes_gcm" "k" { keys = key_provider.pbkdf2.k }
state { method = method.aes_gcm.k }`, nil)
	_, err := e.State().EncryptState([]byte(sampleState))
	if err == nil || !strings.Contains(err.Error(), "16, 24 or 32 bytes") || strings.Contains(err.Error(), "horse") {
		t.Fatalf("got %v", err)
	}
}

func TestVariablesAndEnvironmentMerge(t *testing.T) {
	// The configuration takes the passphrase from a variable...
	base := `
key_provider "pbkdf2" "k" {
  passphrase = var.passphrase
  iterations = 1000
}
method "aes_gcm" "k" { keys = key_provider.pbkdf2.k }
state { method = method.aes_gcm.k }
`
	vars := map[string]cty.Value{"passphrase": cty.StringVal("passphrase from a variable")}
	fromVar := mustNew(t, base, vars)
	enc, err := fromVar.State().EncryptState([]byte(sampleState))
	if err != nil {
		t.Fatal(err)
	}
	// ...and TF_ENCRYPTION (JSON) overrides the passphrase only, keeping
	// the rest; it also adds a plan block.
	cfg, diags := ParseConfig("test", base)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	env, diags := ParseConfig("TF_ENCRYPTION", `{"key_provider":{"pbkdf2":{"k":{"passphrase":"passphrase from TF_ENCRYPTION"}}},"plan":{"method":"method.aes_gcm.k","enforced":true}}`)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	merged, diags := New(Merge(cfg, env), Options{Variables: vars, minIterations: testIterations})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if !merged.Plan().Encrypted() || !merged.Plan().enforced {
		t.Fatalf("the plan block from TF_ENCRYPTION was not merged")
	}
	if _, _, err := merged.State().DecryptState(enc); !errors.Is(err, KindKeyMismatch) {
		t.Fatalf("the merged passphrase must be TF_ENCRYPTION's: %v", err)
	}
	encMerged, err := merged.State().EncryptState([]byte(sampleState))
	if err != nil {
		t.Fatal(err)
	}
	envOnly := mustNew(t, `{"key_provider":{"pbkdf2":{"k":{"passphrase":"passphrase from TF_ENCRYPTION","iterations":1000}}},"method":{"aes_gcm":{"k":{"keys":"key_provider.pbkdf2.k"}}},"state":{"method":"method.aes_gcm.k"}}`, nil)
	if _, _, err := envOnly.State().DecryptState(encMerged); err != nil {
		t.Fatalf("TF_ENCRYPTION alone reads what the merged configuration wrote: %v", err)
	}
	// The base is unchanged by the merge.
	if _, ok := cfg.KeyProviders[0].Attrs["passphrase"]; !ok || cfg.Plan != nil {
		t.Fatalf("Merge modified its input")
	}
}

// TestDefaultsAndMinimum checks OpenTofu's pbkdf2 defaults (sha512,
// 600000 iterations, 32-byte salt and key) and minimum (200000 iterations)
// without the tests' lowered minimum.
func TestDefaultsAndMinimum(t *testing.T) {
	cfg, diags := ParseConfig("test", `
key_provider "pbkdf2" "k" { passphrase = "correct horse battery staple" }
method "aes_gcm" "k" { keys = key_provider.pbkdf2.k }
plan { method = method.aes_gcm.k }`)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	e, diags := New(cfg, Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	enc, err := e.Plan().EncryptPlan(samplePlan)
	if err != nil {
		t.Fatal(err)
	}
	env, _ := DecodeEnvelope(enc)
	var m pbkdf2Meta
	if err := json.Unmarshal(env.Meta["key_provider.pbkdf2.k"], &m); err != nil {
		t.Fatal(err)
	}
	if m.Iterations != 600000 || m.HashFunction != "sha512" || m.KeyLength != 32 || len(m.Salt) != 32 {
		t.Fatalf("defaults: %+v", m)
	}
	if len(env.Data) != 12+len(samplePlan)+16 {
		t.Fatalf("AES-GCM output is %d bytes, want nonce + plaintext + tag", len(env.Data))
	}

	cfg, _ = ParseConfig("test", pbkdf2Config("k", "correct horse battery staple", targets("k")))
	_, diags = New(cfg, Options{})
	if !strings.Contains(diagText(diags), "iterations must be at least 200000") {
		t.Fatalf("1000 iterations accepted with the real minimum: %v", diags)
	}
}
