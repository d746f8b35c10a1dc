package statemgr

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash"
	"io"

	"github.com/plankit/plankit/states/statefile"
)

// stateSum identifies a state's v4 encoding apart from its serial: the
// SHA-256 of the encoded bytes with the serial's digits left out. Two
// encodings of states at the same serial are equal exactly when their sums
// are (up to SHA-256 collisions), so a manager can tell whether a state
// changed since the last one it read or wrote without keeping that one's
// bytes: a large state is never held twice in memory.
type stateSum [sha256.Size]byte

// sumWriter passes an encoded state on to dst (when not nil) while
// hashing it without the serial's digits. The writer puts the serial on
// the file's fourth line, in its first write (statefile.Write hands over
// its header in one piece); a first write without it is an internal error.
type sumWriter struct {
	dst     io.Writer
	h       hash.Hash
	started bool
	err     error // a write to dst failed
}

var serialKey = []byte("\n  \"serial\": ")

func newSumWriter(dst io.Writer) *sumWriter {
	return &sumWriter{dst: dst, h: sha256.New()}
}

func (w *sumWriter) Write(p []byte) (int, error) {
	if !w.started {
		w.started = true
		i := bytes.Index(p, serialKey)
		if i < 0 {
			return 0, errors.New("internal error: the encoded state does not start with its serial")
		}
		j := i + len(serialKey)
		for j < len(p) && p[j] >= '0' && p[j] <= '9' {
			j++
		}
		w.h.Write(p[:i+len(serialKey)])
		w.h.Write(p[j:])
	} else {
		w.h.Write(p)
	}
	if w.dst != nil {
		if _, err := w.dst.Write(p); err != nil {
			w.err = err
			return 0, err
		}
	}
	return len(p), nil
}

func (w *sumWriter) sum() (s stateSum) {
	w.h.Sum(s[:0])
	return s
}

// sumOf returns f's stateSum. O(size of the state), no copy of it kept.
func sumOf(f *statefile.File) (stateSum, error) {
	w := newSumWriter(nil)
	if err := statefile.Write(f, w); err != nil {
		return stateSum{}, err
	}
	return w.sum(), nil
}

// errUnchanged stops a streamed write whose state turned out unchanged:
// the temporary file is dropped and the stored one kept.
var errUnchanged = errors.New("state unchanged")

// encodeTo writes f to dst, returning its stateSum. Errors writing to dst
// are wrapped with where (the file being written); encoding errors are
// wrapped as PrepareWrite wraps them.
func encodeTo(f *statefile.File, dst io.Writer, where string) (stateSum, error) {
	w := newSumWriter(dst)
	if err := statefile.Write(f, w); err != nil {
		if w.err != nil {
			return stateSum{}, fmt.Errorf("writing beside %s: %w", where, err)
		}
		return stateSum{}, fmt.Errorf("encoding the state: %w", err)
	}
	return w.sum(), nil
}
