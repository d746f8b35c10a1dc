// Package atomicfile replaces files so that a crash at any point leaves
// either the old file or the new one, never a mix. The state manager, the
// plan archive writer and the lock-file writer all write through it.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
)

// Write replaces path with what write produces. When path is a symbolic
// link, the file it points to is replaced and the link kept (see Target);
// a path that exists but is not a regular file is refused before anything
// is written. It writes a temporary file in the target's directory, sets perm, fsyncs it, renames it over path and
// fsyncs the directory so the rename itself is durable. An error from write
// is returned as it is (callers recognise their own errors); the other
// errors name the step and the file. beforeRename, when not nil, runs
// between the fsync and the rename (tests inject a crash there). Nothing is
// left behind on failure.
func Write(path string, perm os.FileMode, write func(io.Writer) error, beforeRename func() error) error {
	path, err := Target(path)
	if err != nil {
		return err
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return fmt.Errorf("creating a temporary file beside %s: %w", path, err)
	}
	tmpName := tmp.Name()
	renamed := false
	defer func() {
		if !renamed {
			tmp.Close()
			os.Remove(tmpName)
		}
	}()
	if err := write(tmp); err != nil {
		return err
	}
	if err := tmp.Chmod(perm); err != nil {
		return fmt.Errorf("setting the mode of %s: %w", tmpName, err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("syncing %s: %w", tmpName, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("closing %s: %w", tmpName, err)
	}
	if beforeRename != nil {
		if err := beforeRename(); err != nil {
			return err
		}
	}
	// Checked again just before the rename: a FIFO or device put in the
	// file's place while we wrote is refused too.
	if _, err := Target(path); err != nil {
		return err
	}
	if err := os.Rename(tmpName, path); err != nil {
		return fmt.Errorf("replacing %s: %w", path, err)
	}
	renamed = true
	return SyncDir(dir)
}

// WriteBytes is Write for data already in memory.
func WriteBytes(path string, data []byte, perm os.FileMode, beforeRename func() error) error {
	return Write(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		if err != nil {
			return fmt.Errorf("writing beside %s: %w", path, err)
		}
		return nil
	}, beforeRename)
}

// SyncDir fsyncs a directory so that a rename in it survives a crash. Some
// platforms cannot open or sync directories; that is not an error there.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return nil
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) && !errors.Is(err, os.ErrPermission) {
		return fmt.Errorf("syncing directory %s: %w", dir, err)
	}
	return nil
}
