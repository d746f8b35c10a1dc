package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/plankit/plankit/internal/safeio"
)

// maxLinks bounds how many symbolic links Target follows, as the kernel's
// ELOOP limit does.
const maxLinks = 40

// ErrNotRegular is the error (wrapped) when the file to replace exists but
// is not a regular file: a device, a FIFO, a socket or a directory.
var ErrNotRegular = errors.New("it is not a regular file")

// Target returns the file a write to path must replace: path itself, or,
// when path is a symbolic link (or a chain of them), the file the link
// points to, so that the link survives and the file it names is updated.
// A link to a missing file gives the missing file's path (it is created).
// The result must be a regular file or absent; anything else (a device such
// as /dev/full or /dev/stdout, a FIFO, a socket, a directory) is refused
// with an error wrapping ErrNotRegular that names it.
func Target(path string) (string, error) {
	cur := path
	for range maxLinks {
		fi, err := os.Lstat(cur)
		if errors.Is(err, fs.ErrNotExist) {
			return cur, nil
		}
		if err != nil {
			return "", err
		}
		switch {
		case fi.Mode().IsRegular():
			return cur, nil
		case fi.Mode()&fs.ModeSymlink != 0:
			dest, err := os.Readlink(cur)
			if err != nil {
				return "", err
			}
			if !filepath.IsAbs(dest) {
				dest = filepath.Join(filepath.Dir(cur), dest)
			}
			cur = dest
		default:
			if cur != path {
				return "", fmt.Errorf("refusing to replace %s (a link to %s, which is %s): %w", path, cur, safeio.DescribeMode(fi.Mode()), ErrNotRegular)
			}
			return "", fmt.Errorf("refusing to replace %s (%s): %w", path, safeio.DescribeMode(fi.Mode()), ErrNotRegular)
		}
	}
	return "", fmt.Errorf("resolving %s: too many levels of symbolic links", path)
}
