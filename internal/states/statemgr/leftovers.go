package statemgr

import (
	"os"
	"path/filepath"
	"time"

	"github.com/plankit/plankit/internal/atomicfile"
)

// lockTempAge is how old a lock file's temporary must be before it counts
// as left behind: a live process holds one only for the moment between
// creating it and linking it into place.
const lockTempAge = time.Minute

// removeLeftovers deletes the temporary files a killed process left beside
// the state, its backup and its lock: ".NAME.tmp-*" of an atomic write that
// never reached its rename. Called with the lock held, so no other writer
// of this state is running: every such file is a leftover. Failures are
// ignored (the files are harmless, and the next run tries again).
func (s *Filesystem) removeLeftovers() {
	for _, p := range []string{s.path, s.backupPath} {
		if p == "" {
			continue
		}
		t, err := atomicfile.Target(p)
		if err != nil {
			continue
		}
		dir, base := filepath.Split(t)
		matches, _ := filepath.Glob(filepath.Join(dir, "."+escapeGlob(base)+".tmp-*"))
		for _, m := range matches {
			os.Remove(m)
		}
	}
	if t, err := atomicfile.Target(s.LockInfoPath()); err == nil {
		dir, base := filepath.Split(t)
		matches, _ := filepath.Glob(filepath.Join(dir, escapeGlob(base)+".tmp-*"))
		for _, m := range matches {
			if fi, err := os.Stat(m); err == nil && time.Since(fi.ModTime()) > lockTempAge {
				os.Remove(m)
			}
		}
	}
}

// escapeGlob quotes the characters filepath.Match treats specially.
func escapeGlob(s string) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '*', '?', '[', '\\':
			out = append(out, '\\')
		}
		out = append(out, s[i])
	}
	return string(out)
}
