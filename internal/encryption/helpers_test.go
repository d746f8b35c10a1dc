package encryption

import (
	"crypto/sha256"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// countingRand is a deterministic io.Reader: SHA-256 of a counter, so
// known-answer tests get fixed salts and nonces.
type countingRand struct {
	n   uint64
	buf []byte
}

func (r *countingRand) Read(p []byte) (int, error) {
	for i := range p {
		if len(r.buf) == 0 {
			var c [8]byte
			binary.BigEndian.PutUint64(c[:], r.n)
			r.n++
			sum := sha256.Sum256(c[:])
			r.buf = sum[:]
		}
		p[i] = r.buf[0]
		r.buf = r.buf[1:]
	}
	return len(p), nil
}

// mustNew parses src (HCL or JSON, as TF_ENCRYPTION) and builds it.
func mustNew(t testing.TB, src string, vars map[string]cty.Value) *Encryption {
	t.Helper()
	e, diags := build(src, vars)
	if diags.HasErrors() {
		t.Fatalf("configuration refused: %s", diags.Error())
	}
	return e
}

func build(src string, vars map[string]cty.Value) (*Encryption, hcl.Diagnostics) {
	cfg, diags := ParseConfig("test.tfenc", src)
	if diags.HasErrors() {
		return nil, diags
	}
	e, ds := New(cfg, Options{Variables: vars, minIterations: testIterations})
	return e, append(diags, ds...)
}

// testIterations is the PBKDF2 iteration count of most tests, which lower
// the minimum to it: the parameters are what is tested, not the cost.
// TestDefaultsAndMinimum keeps the real ones.
const testIterations = 1000

// pbkdf2Config is a state and plan configuration with one pbkdf2 key
// provider (testIterations, to keep tests fast).
func pbkdf2Config(name, passphrase string, extra string) string {
	return `
key_provider "pbkdf2" "` + name + `" {
  passphrase = "` + passphrase + `"
  iterations = 1000
}
method "aes_gcm" "` + name + `" {
  keys = key_provider.pbkdf2.` + name + `
}
` + extra
}

const stateAndPlan = `
state { method = method.aes_gcm.%s }
plan  { method = method.aes_gcm.%s }
`

func targets(name string) string {
	return strings.ReplaceAll(stateAndPlan, "%s", name)
}

const sampleState = `{
  "version": 4,
  "terraform_version": "1.9.0",
  "serial": 7,
  "lineage": "3f0a7b0e-1111-2222-3333-444455556666",
  "outputs": {"password": {"value": "hunter2-very-secret", "type": "string", "sensitive": true}},
  "resources": [],
  "check_results": null
}
`
