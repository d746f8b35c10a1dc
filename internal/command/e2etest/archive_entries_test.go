package e2etest

import (
	"archive/zip"
	"io"
	"strings"
	"testing"
)

// zipEntries returns every entry of the ZIP file at p, decompressed.
func zipEntries(t *testing.T, p string) map[string]string {
	t.Helper()
	zr, err := zip.OpenReader(p)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	out := map[string]string{}
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
		out[f.Name] = string(b)
	}
	if len(out) == 0 {
		t.Fatalf("%s has no entries", p)
	}
	return out
}

// archiveRecord returns the backend record (tfbackend.json) of the plan
// archive at path, failing the test for each entry that holds one of
// secrets.
func archiveRecord(t *testing.T, path string, secrets ...string) string {
	t.Helper()
	entries := zipEntries(t, path)
	for name, b := range entries {
		for _, s := range secrets {
			if strings.Contains(b, s) {
				t.Errorf("archive entry %s contains the secret %q", name, s)
			}
		}
	}
	return entries["tfbackend.json"]
}
