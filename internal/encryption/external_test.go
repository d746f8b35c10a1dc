package encryption

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeScript writes an executable shell script into a temporary
// directory and returns its path.
func writeScript(t *testing.T, name, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte("#!/bin/sh\nset -e\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// keyProviderScript follows OpenTofu's external key provider protocol: a
// header line, then the keys. It records its input (null or the stored
// metadata) next to itself, and gives a decryption key only when it got
// metadata, as the protocol says.
const keyProviderScript = `
echo '{"magic":"OpenTofu-External-Key-Provider","version":1}'
INPUT=$(cat)
printf '%s\n' "$INPUT" >> "$(dirname "$0")/inputs"
KEY=AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=
if [ "$INPUT" = "null" ]; then
  echo '{"keys":{"encryption_key":"'$KEY'"},"meta":{"external_data":{"key_id":"k1"}}}'
else
  echo '{"keys":{"encryption_key":"'$KEY'","decryption_key":"'$KEY'"},"meta":{"external_data":{"key_id":"k1"}}}'
fi
`

func TestExternalKeyProvider(t *testing.T) {
	script := writeScript(t, "keys.sh", keyProviderScript)
	src := `
key_provider "external" "kms" { command = ["` + script + `"] }
method "aes_gcm" "k" { keys = key_provider.external.kms }
` + targets("k")
	e := mustNew(t, src, nil)
	roundTrip(t, e)

	enc, err := e.State().EncryptState([]byte(sampleState))
	if err != nil {
		t.Fatal(err)
	}
	env, _ := DecodeEnvelope(enc)
	if got := string(env.Meta["key_provider.external.kms"]); got != `{"external_data":{"key_id":"k1"}}` {
		t.Fatalf("stored metadata %s", got)
	}
	inputs, _ := os.ReadFile(filepath.Join(filepath.Dir(script), "inputs"))
	lines := strings.Split(strings.TrimSpace(string(inputs)), "\n")
	// Encrypting sends null; decrypting sends the stored metadata back.
	if lines[0] != "null" || lines[1] != `{"external_data":{"key_id":"k1"}}` {
		t.Fatalf("the script got %q", lines)
	}
}

func TestExternalKeyProviderFailures(t *testing.T) {
	tests := map[string]struct{ body, want string }{
		"exit code": {`echo "vault is sealed" >&2; exit 3`, "exited with code 3; its stderr says: vault is sealed"},
		"bad magic": {`echo '{"magic":"Something-Else","version":1}'; cat >/dev/null; echo '{}'`, `header magic "Something-Else"`},
		"version":   {`echo '{"magic":"OpenTofu-External-Key-Provider","version":2}'; cat >/dev/null`, "protocol version 2"},
		"no header": {`cat >/dev/null; printf '{}'`, "header line"},
		"unknown field": {`echo '{"magic":"OpenTofu-External-Key-Provider","version":1}'; cat >/dev/null
echo '{"keys":{"encryption_key":"AAAA"},"meta":{},"extra":1}'`, "invalid response"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			script := writeScript(t, "keys.sh", tc.body)
			e := mustNew(t, `
key_provider "external" "kms" { command = ["`+script+`"] }
method "aes_gcm" "k" { keys = key_provider.external.kms }
state { method = method.aes_gcm.k }`, nil)
			_, err := e.State().EncryptState([]byte(sampleState))
			if !errors.Is(err, KindKeyProvider) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want it to say %q", err, tc.want)
			}
		})
	}
}

// TestExternalMethod runs this test binary as an external method
// (OpenTofu's protocol; see TestMain): it XORs the payload with the key.
func TestExternalMethod(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(xorMethodEnv, "1")
	script := exe
	keys := "[" + strings.TrimSuffix(strings.Repeat("7, ", 16), ", ") + "]"
	e := mustNew(t, `
method "external" "xor" {
  keys            = { encryption_key = `+keys+`, decryption_key = `+keys+` }
  encrypt_command = ["`+script+`"]
  decrypt_command = ["`+script+`"]
}
state { method = method.external.xor }
plan  { method = method.external.xor }`, nil)
	roundTrip(t, e)
	enc, _ := e.Plan().EncryptPlan(samplePlan)
	var raw map[string]json.RawMessage
	json.Unmarshal(enc, &raw)
	if string(raw["meta"]) != "{}" || string(raw["encryption_version"]) != `"v0"` {
		t.Fatalf("envelope %s", enc)
	}
}

// xorMethodEnv makes the test binary act as an external method.
const xorMethodEnv = "PLANKIT_TEST_XOR_METHOD"

func TestMain(m *testing.M) {
	if os.Getenv(xorMethodEnv) == "1" {
		os.Exit(xorMethod())
	}
	os.Exit(m.Run())
}

func xorMethod() int {
	fmt.Println(`{"magic":"OpenTofu-External-Encryption-Method","version":1}`)
	var in struct{ Key, Payload []byte }
	if err := json.NewDecoder(os.Stdin).Decode(&in); err != nil || len(in.Key) == 0 {
		fmt.Fprintln(os.Stderr, "bad input or no key", err)
		return 1
	}
	out := make([]byte, len(in.Payload))
	for i, b := range in.Payload {
		out[i] = b ^ in.Key[i%len(in.Key)]
	}
	fmt.Printf(`{"payload":%q}`, base64.StdEncoding.EncodeToString(out))
	return 0
}
