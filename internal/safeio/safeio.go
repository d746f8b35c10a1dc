// Package safeio reads files plankit does not control (configuration,
// variables, state, lock files, keys, files read by functions) without
// letting them hang or exhaust the process: only regular files are read
// (a FIFO would block forever, /dev/zero never ends), and every read has a
// limit, generous for real use but finite. The errors name the file and the
// limit, so a user knows what was refused and why.
package safeio

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Limits for each kind of file, in bytes. Each is far above what a real
// project has and far below what exhausts a machine; a file over its limit
// is refused before it is read into memory.
const (
	// ConfigFileLimit bounds one .tf or .tf.json file.
	ConfigFileLimit = 64 << 20
	// VarFileLimit bounds one .tfvars or .tfvars.json file.
	VarFileLimit = 64 << 20
	// LockFileLimit bounds .terraform.lock.hcl.
	LockFileLimit = 16 << 20
	// StateFileLimit bounds one state file (the plan archive accepts
	// entries of the same size).
	StateFileLimit = 1 << 30
	// KeyFileLimit bounds a signing or verifying key file.
	KeyFileLimit = 1 << 20
	// FunctionFileLimit bounds one file read by file(), templatefile(),
	// the file hash functions and the local_file data source: what they
	// read is also recorded in the plan archive.
	FunctionFileLimit = 128 << 20
)

// NotRegularError is returned for a path that exists but is not a regular
// file (after following symlinks): a directory, a named pipe, a device or a
// socket.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file; plankit reads only regular files", e.Path, DescribeMode(e.Mode))
}

// TooLargeError is returned for a file longer than the limit it is read
// with.
type TooLargeError struct {
	Path  string
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %s, the most plankit reads from such a file", e.Path, FormatSize(e.Limit))
}

// FormatSize renders a byte count for a message: "64 MiB", "512 KiB",
// "100 bytes".
func FormatSize(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// DescribeMode names the type of a file that is not a regular file, with
// its article ("a named pipe (FIFO)"), for error messages.
func DescribeMode(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeIrregular != 0:
		return "an irregular file"
	}
	return "not a regular file"
}

// Open opens path for reading if it is a regular file. The open itself
// never blocks (a FIFO is opened non-blocking and then refused), and the
// file's type is checked on the opened descriptor, so a file swapped in
// between a check and the open cannot slip through.
func Open(path string) (*os.File, error) {
	f, err := openNonBlocking(path)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, &NotRegularError{Path: path, Mode: fi.Mode()}
	}
	return f, nil
}

// ReadFile reads the regular file at path, refusing anything else and any
// file longer than limit bytes. A file whose size already exceeds limit is
// refused without reading it; one that grows while read is cut at limit+1
// bytes and refused. Memory: O(min(size, limit)).
func ReadFile(path string, limit int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.Size() > limit {
		return nil, &TooLargeError{Path: path, Limit: limit}
	}
	return readAll(f, path, limit, fi.Size())
}

// ReadAll reads r to its end, refusing more than limit bytes; name is what
// the error calls the input. A reader that knows how much it holds (a
// *bytes.Reader, *bytes.Buffer or *strings.Reader: a Len method) is read
// into a buffer of that size at once, not one grown by doubling (a state
// file of 100,000 resources is tens of megabytes).
func ReadAll(r io.Reader, name string, limit int64) ([]byte, error) {
	hint := int64(512)
	if l, ok := r.(interface{ Len() int }); ok {
		hint = int64(l.Len())
	}
	return readAll(r, name, limit, hint)
}

func readAll(r io.Reader, name string, limit, sizeHint int64) ([]byte, error) {
	// One read past the limit tells a file of exactly limit bytes from a
	// longer one.
	b := make([]byte, 0, min(max(sizeHint, 0), limit)+1)
	lr := io.LimitReader(r, limit+1)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := lr.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if int64(len(b)) > limit {
		return nil, &TooLargeError{Path: name, Limit: limit}
	}
	return b, nil
}

// IsNotRegular reports whether err is (or wraps) a NotRegularError.
func IsNotRegular(err error) bool {
	var nr *NotRegularError
	return errors.As(err, &nr)
}

// IsTooLarge reports whether err is (or wraps) a TooLargeError.
func IsTooLarge(err error) bool {
	var tl *TooLargeError
	return errors.As(err, &tl)
}
