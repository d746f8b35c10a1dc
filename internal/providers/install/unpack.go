package install

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// maxUnpacked bounds the bytes a packed package may unpack to (the
// largest published providers are a few hundred MiB).
const maxUnpacked = 4 << 30

// unpack extracts the zip into cacheDir/<zh hex> unless that directory
// already exists with hash h1, and returns the directory. Extraction goes
// to a temporary directory beside it, whose h1: hash must equal the
// archive's before it is renamed into place, so the cache never holds a
// half-extracted or altered package under a valid name.
func unpack(cacheDir, zipPath, zh, h1 string) (string, error) {
	dest := filepath.Join(cacheDir, strings.TrimPrefix(zh, "zh:"))
	if _, err := os.Stat(dest); err == nil {
		if got, err := hashDirMemo(dest); err == nil && got == h1 {
			return dest, nil
		}
		// A damaged cache entry: replace it.
		if err := os.RemoveAll(dest); err != nil {
			return "", fmt.Errorf("removing the damaged cache entry %s: %w", dest, err)
		}
	}
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return "", fmt.Errorf("creating the provider cache %s: %w", cacheDir, err)
	}
	tmp, err := os.MkdirTemp(cacheDir, ".unpack-")
	if err != nil {
		return "", fmt.Errorf("creating a directory in the provider cache: %w", err)
	}
	defer os.RemoveAll(tmp) // a no-op once renamed
	if err := extract(zipPath, tmp); err != nil {
		return "", err
	}
	if err := VerifyPackage(tmp, h1); err != nil {
		return "", fmt.Errorf("the archive %s does not unpack to the files it lists (%v)", zipPath, err)
	}
	if err := os.Rename(tmp, dest); err != nil {
		// Another process may have unpacked it meanwhile.
		if VerifyPackage(dest, h1) == nil {
			return dest, nil
		}
		return "", fmt.Errorf("moving the unpacked package into %s: %w", dest, err)
	}
	return dest, nil
}

// extract writes every regular file of the zip below dir. Entries with
// absolute or escaping paths, links and other special files are refused.
func extract(zipPath, dir string) error {
	z, err := zip.OpenReader(zipPath)
	if err != nil {
		return fmt.Errorf("opening %s: %w", zipPath, err)
	}
	defer z.Close()
	var total int64
	for _, zf := range z.File {
		name := zf.Name
		if !filepath.IsLocal(filepath.FromSlash(name)) || strings.Contains(name, `\`) {
			return fmt.Errorf("the archive %s has an entry outside its root: %q", zipPath, name)
		}
		mode := zf.Mode()
		target := filepath.Join(dir, filepath.FromSlash(name))
		switch {
		case mode.IsDir():
			if err := os.MkdirAll(target, 0o755); err != nil {
				return err
			}
			continue
		case !mode.IsRegular():
			return fmt.Errorf("the archive %s has an entry that is not a regular file: %q (%s)", zipPath, name, mode.Type())
		}
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		n, err := extractFile(zf, target, mode.Perm()|0o600, maxUnpacked-total)
		if err != nil {
			return fmt.Errorf("unpacking %q from %s: %w", name, zipPath, err)
		}
		total += n
	}
	return nil
}

var errTooLarge = errors.New("the archive unpacks to more than 4 GiB")

func extractFile(zf *zip.File, target string, perm fs.FileMode, limit int64) (int64, error) {
	rc, err := zf.Open()
	if err != nil {
		return 0, err
	}
	defer rc.Close()
	out, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return 0, err
	}
	n, err := io.Copy(out, io.LimitReader(rc, limit+1))
	if err == nil && n > limit {
		err = errTooLarge
	}
	if err == nil {
		err = out.Sync()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return n, err
}
