package planfile

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"os"
	"strings"
	"testing"
)

const testPolicyResult = `{
  "format_version": "1.0",
  "policy_digest": "sha256:0000000000000000000000000000000000000000000000000000000000000000",
  "namespaces": ["main"],
  "failures": 0,
  "warnings": 0,
  "rules": [{"namespace": "main", "rule": "deny", "kind": "failure", "outcome": "pass"}]
}
`

// TestPolicyEntry: CreateArgs.PolicyResult is stored as EntryPolicy,
// covered by the manifest, read back as written, byte-reproducibly; an
// archive without it (as every older archive is) opens and has none.
func TestPolicyEntry(t *testing.T) {
	args := testArgs(t)
	args.SignKey = testKey(1)
	args.PolicyResult = []byte(testPolicyResult)
	path := writeArchive(t, args)
	r, err := Open(path, WithVerifyKey(testKey(1).Public().(ed25519.PublicKey)))
	if err != nil {
		t.Fatal(err)
	}
	got, ok, err := r.PolicyResult()
	if err != nil || !ok || string(got) != testPolicyResult {
		t.Fatalf("PolicyResult() = %q, %v, %v; want the bytes written", got, ok, err)
	}
	manifest, _ := r.Entry(EntryManifest)
	if !bytes.Contains(manifest, []byte("  "+EntryPolicy+"\n")) {
		t.Errorf("the manifest does not cover %s:\n%s", EntryPolicy, manifest)
	}
	a, _ := os.ReadFile(path)
	b, _ := os.ReadFile(writeArchive(t, args))
	if !bytes.Equal(a, b) {
		t.Error("two archives of the same arguments differ")
	}

	args.PolicyResult = nil
	without := writeArchive(t, args)
	r, err = Open(without)
	if err != nil {
		t.Fatal(err)
	}
	if got, ok, err := r.PolicyResult(); ok || got != nil || err != nil {
		t.Errorf("an archive without the entry: %q, %v, %v", got, ok, err)
	}
	if names := strings.Join(r.EntryNames(), " "); strings.Contains(names, EntryPolicy) {
		t.Errorf("entries %s", names)
	}
}

// TestPolicyEntryTampered: a changed record fails the integrity check;
// with the manifest recomputed it fails the signature.
func TestPolicyEntryTampered(t *testing.T) {
	key := testKey(1)
	pub := key.Public().(ed25519.PublicKey)
	args := testArgs(t)
	args.SignKey = key
	args.PolicyResult = []byte(strings.Replace(testPolicyResult, `"failures": 0`, `"failures": 1`, 1))
	r, err := Open(writeArchive(t, args))
	if err != nil {
		t.Fatal(err)
	}
	ents := r.entries
	ents[EntryPolicy] = []byte(testPolicyResult) // "no failures"
	if _, err := OpenBytes(rezip(t, ents, false)); !errors.Is(err, KindIntegrity) {
		t.Errorf("record changed: %v, want an integrity failure", err)
	}
	forged := rezip(t, ents, true)
	if _, err := OpenBytes(forged, WithVerifyKey(pub)); !errors.Is(err, KindSignature) {
		t.Errorf("record changed, manifest recomputed: %v, want a signature failure", err)
	}
	// Taking the record out is tampering too.
	delete(ents, EntryPolicy)
	if _, err := OpenBytes(rezip(t, ents, true), WithVerifyKey(pub)); !errors.Is(err, KindSignature) {
		t.Errorf("record removed, manifest recomputed: %v, want a signature failure", err)
	}
}

func TestPolicyEntryRefusesBadContent(t *testing.T) {
	for name, content := range map[string][]byte{
		"not JSON":       []byte("{"),
		"not an object":  []byte(`["x"]`),
		"empty":          {},
		"over the bound": append(append([]byte(`{"x":"`), bytes.Repeat([]byte("a"), MaxPolicySize)...), `"}`...),
	} {
		args := testArgs(t)
		args.PolicyResult = content
		if err := WriteTo(&bytes.Buffer{}, args); err == nil || !strings.Contains(err.Error(), EntryPolicy) {
			t.Errorf("%s: write error %v", name, err)
		}
		r := &Reader{entries: map[string][]byte{EntryPolicy: content}}
		_, ok, err := r.PolicyResult()
		want := KindCorrupt
		if name == "over the bound" {
			want = KindTooLarge
		}
		if !ok || !errors.Is(err, want) {
			t.Errorf("%s: read %v, %v; want %v", name, ok, err, want)
		}
	}
}
