package planfile

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// The integrity manifest, tfplan.sha256, lists the SHA-256 of every other
// entry (except the signature) in the format `sha256sum` writes and checks:
// "<64 lowercase hex>  <name>\n", sorted by name. Signing signs exactly these
// bytes, so one signature covers the whole archive.

// parseManifest reads tfplan.sha256 strictly: well-formed lines, sorted,
// no duplicates, valid names.
func parseManifest(b []byte) (map[string][sha256.Size]byte, error) {
	out := map[string][sha256.Size]byte{}
	if len(b) == 0 {
		return out, nil
	}
	if b[len(b)-1] != '\n' {
		return nil, fmt.Errorf("the manifest does not end with a newline")
	}
	prev := ""
	for i, line := range strings.Split(string(b[:len(b)-1]), "\n") {
		hexSum, name, ok := strings.Cut(line, "  ")
		if !ok || len(hexSum) != 2*sha256.Size {
			return nil, fmt.Errorf("line %d is not \"<sha256>  <name>\"", i+1)
		}
		var sum [sha256.Size]byte
		if n, err := hex.Decode(sum[:], []byte(hexSum)); err != nil || n != sha256.Size || hexSum != strings.ToLower(hexSum) {
			return nil, fmt.Errorf("line %d has an invalid SHA-256", i+1)
		}
		if err := checkEntryName(name); err != nil {
			return nil, fmt.Errorf("line %d: %v", i+1, err)
		}
		if name == EntryManifest || name == EntrySignature {
			return nil, fmt.Errorf("line %d lists %s, which cannot hash itself", i+1, name)
		}
		if i > 0 && name <= prev {
			return nil, fmt.Errorf("line %d: %q is out of order or repeated", i+1, name)
		}
		prev = name
		out[name] = sum
	}
	return out, nil
}

// checkIntegrity compares every entry with the manifest, both ways, and
// names the first entry (in name order) that does not match.
func checkIntegrity(entries map[string][]byte) error {
	raw, ok := entries[EntryManifest]
	if !ok {
		return newErr(KindIntegrity, EntryManifest, "the archive has no integrity manifest; it was not written by plankit or was altered")
	}
	sums, err := parseManifest(raw)
	if err != nil {
		return wrapErr(KindIntegrity, EntryManifest, err)
	}
	for _, name := range slices.Sorted(maps.Keys(entries)) {
		if name == EntryManifest || name == EntrySignature {
			continue
		}
		want, ok := sums[name]
		if !ok {
			return newErr(KindIntegrity, name, "the entry is not listed in %s; it was added after the plan was written", EntryManifest)
		}
		if sha256.Sum256(entries[name]) != want {
			return newErr(KindIntegrity, name, "the entry's SHA-256 does not match %s; it was altered after the plan was written", EntryManifest)
		}
	}
	for name := range sums {
		if _, ok := entries[name]; !ok {
			return newErr(KindMissingEntry, name, "%s lists the entry but the archive does not have it", EntryManifest)
		}
	}
	return nil
}

// verifySignature checks the signature entry against pub.
func verifySignature(entries map[string][]byte, pub ed25519.PublicKey) error {
	if len(pub) != ed25519.PublicKeySize {
		return newErr(KindSignature, "", "the verify key is not an Ed25519 public key (%d bytes)", len(pub))
	}
	sig, ok := entries[EntrySignature]
	if !ok {
		return newErr(KindUnsigned, EntrySignature, "the plan is not signed, but a verify key was given; sign it at plan time with -sign-key")
	}
	if len(sig) != ed25519.SignatureSize || !ed25519.Verify(pub, entries[EntryManifest], sig) {
		return newErr(KindSignature, EntrySignature, "the signature does not match the verify key: the plan was altered or signed with another key")
	}
	return nil
}
