package initwd

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// maxArchive bounds a module archive's unpacked size.
const maxArchive = 1 << 30

// isArchive reports an https:// URL of a .zip, .tar.gz or .tgz file (the
// archive= query parameter names the format otherwise).
func isArchive(src string) bool {
	src = strings.TrimPrefix(src, "https::")
	u, err := url.Parse(src)
	if err != nil || u.Scheme != "https" {
		return false
	}
	return archiveKind(u) != ""
}

func archiveKind(u *url.URL) string {
	if k := u.Query().Get("archive"); k != "" {
		return k
	}
	p := strings.ToLower(u.Path)
	switch {
	case strings.HasSuffix(p, ".zip"):
		return "zip"
	case strings.HasSuffix(p, ".tar.gz"), strings.HasSuffix(p, ".tgz"):
		return "tar.gz"
	}
	return ""
}

// fetchArchive downloads an archive into tmp and unpacks it into dest.
// Entries that leave dest, links and special files are refused.
func (in *installer) fetchArchive(src, tmp, dest string) error {
	u, err := url.Parse(src)
	if err != nil {
		return err
	}
	kind := archiveKind(u)
	q := u.Query()
	q.Del("archive")
	u.RawQuery = q.Encode()
	req, err := http.NewRequestWithContext(in.ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return err
	}
	resp, err := in.client.Do(req)
	if err != nil {
		return fmt.Errorf("cannot reach %s: %w", u, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("downloading %s: %s", u, resp.Status)
	}
	f, err := os.CreateTemp(tmp, "archive-")
	if err != nil {
		return err
	}
	defer f.Close()
	n, err := io.Copy(f, io.LimitReader(resp.Body, maxArchive+1))
	if err != nil {
		return fmt.Errorf("downloading %s: %w", u, err)
	}
	if n > maxArchive {
		return fmt.Errorf("%s is larger than 1 GiB", u)
	}
	if err := os.Mkdir(dest, 0o755); err != nil {
		return err
	}
	switch kind {
	case "zip":
		err = unzip(f, n, dest)
	case "tar.gz", "tgz":
		if _, err = f.Seek(0, io.SeekStart); err == nil {
			err = untarGz(f, dest)
		}
	default:
		err = fmt.Errorf("unsupported archive format %q", kind)
	}
	if err != nil {
		return fmt.Errorf("unpacking %s: %w", u, err)
	}
	return nil
}

func entryPath(dest, name string) (string, error) {
	clean := filepath.FromSlash(strings.TrimPrefix(name, "./"))
	if clean == "" || clean == "." {
		return "", nil
	}
	if !filepath.IsLocal(clean) || strings.Contains(name, `\`) {
		return "", fmt.Errorf("the archive has an entry outside its root: %q", name)
	}
	return filepath.Join(dest, clean), nil
}

func writeEntry(target string, r io.Reader, mode os.FileMode, budget *int64) error {
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return err
	}
	out, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode.Perm()|0o600)
	if err != nil {
		return err
	}
	n, err := io.Copy(out, io.LimitReader(r, *budget+1))
	*budget -= n
	if err == nil && *budget < 0 {
		err = errors.New("the archive unpacks to more than 1 GiB")
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}

func unzip(f *os.File, size int64, dest string) error {
	z, err := zip.NewReader(f, size)
	if err != nil {
		return err
	}
	budget := int64(maxArchive)
	for _, zf := range z.File {
		target, err := entryPath(dest, zf.Name)
		if err != nil {
			return err
		}
		if target == "" {
			continue
		}
		mode := zf.Mode()
		switch {
		case mode.IsDir():
			if err := os.MkdirAll(target, 0o755); err != nil {
				return err
			}
			continue
		case !mode.IsRegular():
			return fmt.Errorf("the archive has an entry that is not a regular file: %q", zf.Name)
		}
		rc, err := zf.Open()
		if err != nil {
			return err
		}
		err = writeEntry(target, rc, mode, &budget)
		rc.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

func untarGz(r io.Reader, dest string) error {
	gz, err := gzip.NewReader(r)
	if err != nil {
		return err
	}
	tr := tar.NewReader(gz)
	budget := int64(maxArchive)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		target, err := entryPath(dest, h.Name)
		if err != nil {
			return err
		}
		if target == "" {
			continue
		}
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(target, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := writeEntry(target, tr, os.FileMode(h.Mode), &budget); err != nil {
				return err
			}
		case tar.TypeXGlobalHeader:
		default:
			return fmt.Errorf("the archive has an entry that is not a regular file or directory: %q", h.Name)
		}
	}
}
