// Package planfiletest helps tests make damaged or edited plan archives.
package planfiletest

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/plankit/plankit/planfile"
)

// Rewrite writes to the file at to a copy of the archive at from, whose
// entries (name to content) edit may change, add or remove; the copy has
// them in name order. With rehash the integrity manifest is made again to match (as
// an attacker who knows the format would), so that only a signature, or
// the reading of the edited entry, can tell.
func Rewrite(t testing.TB, from, to string, rehash bool, edit func(entries map[string][]byte)) {
	t.Helper()
	zr, err := zip.OpenReader(from)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	entries := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		entries[f.Name] = b
	}
	edit(entries)
	if rehash {
		var manifest strings.Builder
		for _, n := range slices.Sorted(maps.Keys(entries)) {
			if n != planfile.EntryManifest && n != planfile.EntrySignature {
				sum := sha256.Sum256(entries[n])
				fmt.Fprintf(&manifest, "%s  %s\n", hex.EncodeToString(sum[:]), n)
			}
		}
		entries[planfile.EntryManifest] = []byte(manifest.String())
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, n := range slices.Sorted(maps.Keys(entries)) {
		w, err := zw.Create(n)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(entries[n]); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
