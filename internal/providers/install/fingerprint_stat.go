//go:build linux || darwin

package install

import (
	"io/fs"
	"syscall"
)

// statExtra is fi's status-change time (ns) and inode number.
func statExtra(fi fs.FileInfo) (ctime int64, ino uint64, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, false
	}
	return ctimeNanos(st), uint64(st.Ino), true
}
