package encryption

import (
	"bytes"
	"testing"
)

// literalKeys is a configuration with no key derivation, so that fuzzing
// spends its time in the decoder.
const literalKeys = `
method "aes_gcm" "k" {
  keys = {
    encryption_key = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]
    decryption_key = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]
  }
}
state { method = method.aes_gcm.k }
plan  { method = method.aes_gcm.k }
`

// FuzzDecryptState feeds arbitrary bytes to the envelope decoder and the
// state decryption: never a panic, and whatever decrypts must be what was
// encrypted (the only way to get past GCM).
func FuzzDecryptState(f *testing.F) {
	e := mustNew(f, literalKeys, nil)
	good, err := e.State().EncryptState([]byte(sampleState))
	if err != nil {
		f.Fatal(err)
	}
	plan, _ := e.Plan().EncryptPlan(samplePlan)
	for _, seed := range [][]byte{good, plan, []byte(sampleState), []byte(`{"encryption_version":"v0"}`),
		[]byte(`{"encryption_version":"v1","encrypted_data":"AA=="}`), []byte(`{"encryption_version":"v0","encrypted_data":"AA==","meta":{"x":"!"}}`),
		[]byte(`{"serial":-1,"encryption_version":"v0"}`), []byte("PK\x03\x04"), nil, []byte("{")} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		IsEnvelope(data)
		if env, err := DecodeEnvelope(data); err == nil {
			if _, err := env.MarshalState(); err != nil {
				t.Fatalf("a decoded envelope does not encode: %v", err)
			}
		}
		out, _, err := e.State().DecryptState(data)
		if err == nil && IsEnvelope(data) && !bytes.Equal(out, []byte(sampleState)) {
			t.Fatalf("decrypted something that was never encrypted: %q", out)
		}
		e.Plan().DecryptPlan(data)
	})
}

// FuzzParseConfig feeds arbitrary TF_ENCRYPTION text (HCL or JSON) to the
// configuration decoder and New's checks: errors, never a panic.
func FuzzParseConfig(f *testing.F) {
	for _, seed := range []string{literalKeys, pbkdf2Config("k", "correct horse battery staple", targets("k")),
		`{"key_provider":{"pbkdf2":{"k":{"passphrase":"x"}}},"method":{"aes_gcm":{"k":{"keys":"key_provider.pbkdf2.k"}}},"state":{"method":"method.aes_gcm.k","fallback":{"method":"method.aes_gcm.k"}}}`,
		`state { fallback { fallback {} } }`, `method "aes_gcm" "x" { keys = key_provider.a.b.c }`, "{"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src string) {
		cfg, diags := ParseConfig("fuzz", src)
		if diags.HasErrors() {
			return
		}
		New(Merge(cfg, cfg), Options{minIterations: testIterations})
	})
}
