//go:build !linux && !darwin

package install

import "io/fs"

// statExtra reports nothing where no status-change time is known: the
// hash memo is not used.
func statExtra(fs.FileInfo) (int64, uint64, bool) { return 0, 0, false }
