package statemgr

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// writeFileAtomic replaces path with data so that a crash at any point
// leaves either the old file or the new one, never a mix: it writes a temp
// file in the same directory, fsyncs it, renames it over path and fsyncs the
// directory so the rename itself is durable. beforeRename, when not nil, runs
// between the fsync and the rename (tests inject a crash there).
func writeFileAtomic(path string, data []byte, perm os.FileMode, beforeRename func() error) (err error) {
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
	if _, err := tmp.Write(data); err != nil {
		return fmt.Errorf("writing %s: %w", tmpName, err)
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
	if err := os.Rename(tmpName, path); err != nil {
		return fmt.Errorf("replacing %s: %w", path, err)
	}
	renamed = true
	return syncDir(dir)
}

// syncDir fsyncs a directory so that a rename in it survives a crash. Some
// platforms cannot open or sync directories; that is not an error there.
func syncDir(dir string) error {
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
