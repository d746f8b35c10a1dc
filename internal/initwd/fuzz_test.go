package initwd

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzUnpack checks that no archive, however malformed, panics the
// unpackers or writes outside the destination directory.
func FuzzUnpack(f *testing.F) {
	f.Add(makeZip(f, []entry{{"mod/main.tf", "x", false}, {"../evil", "x", false}}), true)
	f.Add(makeTarGz(f, []entry{{"mod/main.tf", "x", false}, {"mod/l", "/etc", true}}), false)
	f.Fuzz(func(t *testing.T, data []byte, isZip bool) {
		base := t.TempDir()
		dest := filepath.Join(base, "d")
		os.Mkdir(dest, 0o755)
		if isZip {
			tmp := filepath.Join(base, "a.zip")
			os.WriteFile(tmp, data, 0o644)
			fh, _ := os.Open(tmp)
			_ = unzip(fh, int64(len(data)), dest)
			fh.Close()
			os.Remove(tmp)
		} else {
			_ = untarGz(bytes.NewReader(data), dest)
		}
		filepath.Walk(base, func(p string, info os.FileInfo, err error) error {
			if err == nil && p != base && p != dest && !strings.HasPrefix(p, dest+string(filepath.Separator)) {
				t.Errorf("wrote %s outside %s", p, dest)
			}
			return nil
		})
	})
}
