package depsfile

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"

	"github.com/plankit/plankit/internal/atomicfile"
	"github.com/plankit/plankit/internal/safeio"
)

// UpdateLockFile writes l to path, keeping the header comment of the file
// already there: a lock file written by terraform init or tofu init
// keeps its "# This file is maintained automatically by ..." lines, so
// rewriting it changes only the provider blocks that changed. A file
// without one (or no file) gets plankit's header. The write is atomic.
// It refuses to write empty locks over an existing file.
func UpdateLockFile(l *Locks, path string) error {
	h := header
	old, err := safeio.ReadFile(path, safeio.LockFileLimit)
	switch {
	case err == nil:
		if got := leadingComment(old); got != "" {
			h = got
		}
	case !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("reading the lock file %s: %w", path, err)
	}
	if l.Empty() {
		return fmt.Errorf("refusing to write an empty lock file over %s", path)
	}
	src, diags := saveLocks(l, h)
	if diags.HasErrors() {
		return diags
	}
	if bytes.Equal(src, old) {
		return nil
	}
	if err := atomicfile.WriteBytes(path, src, 0o644, nil); err != nil {
		return fmt.Errorf("writing the lock file %s: %w", path, err)
	}
	return nil
}

// leadingComment returns the lines starting with "#" that open src, each
// with its newline ("" when src does not open with a comment).
func leadingComment(src []byte) string {
	n := 0
	for n < len(src) && src[n] == '#' {
		i := bytes.IndexByte(src[n:], '\n')
		if i < 0 {
			return ""
		}
		n += i + 1
	}
	return string(src[:n])
}
