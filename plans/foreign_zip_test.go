package plans

import (
	"archive/zip"
	"bytes"
	"io"
	"testing"
)

// tfplanEntry is the tfplan entry of a plan file.
func tfplanEntry(t testing.TB, archive []byte) []byte {
	zr, err := zip.NewReader(bytes.NewReader(archive), int64(len(archive)))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range zr.File {
		if f.Name == "tfplan" {
			rc, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			b, err := io.ReadAll(rc)
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
	}
	t.Fatal("no tfplan entry")
	return nil
}
