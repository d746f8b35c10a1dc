package encryption

import (
	"bytes"
	"testing"
)

// BenchmarkPBKDF2Default is one key derivation with OpenTofu's defaults
// (sha512, 600000 iterations): what each plan or apply pays once per
// target it encrypts or decrypts.
func BenchmarkPBKDF2Default(b *testing.B) {
	cfg, diags := ParseConfig("bench", `
key_provider "pbkdf2" "k" { passphrase = "correct horse battery staple" }
method "aes_gcm" "k" { keys = key_provider.pbkdf2.k }
plan { method = method.aes_gcm.k }`)
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	for b.Loop() {
		e, _ := New(cfg, Options{})
		if _, err := e.Plan().EncryptPlan([]byte("PK")); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEncryptState10MB is AES-GCM and the envelope for a 10 MB
// state, keys already derived (the apply's repeated state writes).
func BenchmarkEncryptState10MB(b *testing.B) {
	e := mustNew(b, literalKeys, nil)
	state := []byte(`{"serial":1,"lineage":"x","pad":"` + string(bytes.Repeat([]byte("a"), 10<<20)) + `"}`)
	b.SetBytes(int64(len(state)))
	for b.Loop() {
		if _, err := e.State().EncryptState(state); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecryptState10MB is the reverse.
func BenchmarkDecryptState10MB(b *testing.B) {
	e := mustNew(b, literalKeys, nil)
	state := []byte(`{"serial":1,"lineage":"x","pad":"` + string(bytes.Repeat([]byte("a"), 10<<20)) + `"}`)
	enc, err := e.State().EncryptState(state)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(state)))
	for b.Loop() {
		if _, _, err := e.State().DecryptState(enc); err != nil {
			b.Fatal(err)
		}
	}
}
