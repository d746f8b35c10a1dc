package install

import (
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// A command may verify the same package twice: once to start its
// provider early, from the lock file alone, and again when it resolves
// every provider the configuration and state need. Hashing is O(bytes)
// (tens of milliseconds for a typical provider, most of a second for the
// largest), so Find remembers, for the life of the process, the hashes
// it computed, each with a fingerprint of the files hashed: their names,
// sizes, modes, modification and status-change times and inode numbers.
// A fingerprint that differs (any file written, replaced, added or
// removed changes it; the status-change time cannot be set back) means
// the files are hashed again. Where the platform gives no status-change
// time, nothing is remembered.

type hashMemoEntry struct {
	once sync.Once
	fp   string
	sum  string
	err  error
}

var hashMemo = struct {
	mu sync.Mutex
	m  map[string]*hashMemoEntry
}{m: map[string]*hashMemoEntry{}}

// memoHash returns compute() for the files fingerprint describes under
// key, computing it once per fingerprint; concurrent callers for the same
// key and fingerprint wait for one computation.
func memoHash(key string, fingerprint func() (string, bool), compute func() (string, error)) (string, error) {
	fp, ok := fingerprint()
	if !ok {
		return compute()
	}
	hashMemo.mu.Lock()
	e := hashMemo.m[key]
	if e == nil || e.fp != fp {
		e = &hashMemoEntry{fp: fp}
		hashMemo.m[key] = e
	}
	hashMemo.mu.Unlock()
	e.once.Do(func() { e.sum, e.err = compute() })
	if e.err != nil {
		// Errors are not remembered: the next call tries again.
		hashMemo.mu.Lock()
		if hashMemo.m[key] == e {
			delete(hashMemo.m, key)
		}
		hashMemo.mu.Unlock()
	}
	return e.sum, e.err
}

// fileFingerprint describes one file for the memo; ok is false when the
// platform gives no status-change time or inode (fingerprint_*.go).
func fileFingerprint(b *strings.Builder, name string, fi fs.FileInfo) bool {
	ctime, ino, ok := statExtra(fi)
	if !ok {
		return false
	}
	b.WriteString(strconv.Quote(name))
	for _, n := range []int64{fi.Size(), int64(fi.Mode()), fi.ModTime().UnixNano(), ctime, int64(ino)} {
		b.WriteByte(' ')
		b.WriteString(strconv.FormatInt(n, 10))
	}
	b.WriteByte('\n')
	return true
}

// dirFingerprint fingerprints every entry below dir (symlinks resolved
// for dir itself, as HashDir does, and for the entries, whose targets
// HashDir reads).
func dirFingerprint(dir string) (string, bool) {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", false
	}
	var b strings.Builder
	b.WriteString(real + "\n")
	ok := true
	err = filepath.WalkDir(real, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Stat(path)
		if err != nil {
			return err
		}
		if !fileFingerprint(&b, path, fi) {
			ok = false
			return filepath.SkipAll
		}
		return nil
	})
	return b.String(), ok && err == nil
}

// pathFingerprint fingerprints one file.
func pathFingerprint(path string) (string, bool) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", false
	}
	var b strings.Builder
	ok := fileFingerprint(&b, path, fi)
	return b.String(), ok
}

// hashDirMemo is HashDir, remembered (see above).
func hashDirMemo(dir string) (string, error) {
	return memoHash("dir\x00"+dir, func() (string, bool) { return dirFingerprint(dir) }, func() (string, error) { return HashDir(dir) })
}

// hashZipMemo is HashZip, remembered.
func hashZipMemo(zip string) (string, error) {
	return memoHash("h1zip\x00"+zip, func() (string, bool) { return pathFingerprint(zip) }, func() (string, error) { return HashZip(zip) })
}

// hashZipFileMemo is HashZipFile, remembered.
func hashZipFileMemo(zip string) (string, error) {
	return memoHash("zh\x00"+zip, func() (string, bool) { return pathFingerprint(zip) }, func() (string, error) { return HashZipFile(zip) })
}
