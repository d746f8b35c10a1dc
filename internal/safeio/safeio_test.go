//go:build unix

package safeio

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, n int) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, bytes.Repeat([]byte("x"), n), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	exact := write("exact", 100)
	over := write("over", 101)
	empty := write("empty", 0)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "zero")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	sparse := filepath.Join(dir, "sparse")
	f, err := os.Create(sparse)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1 << 40); err != nil { // 1 TiB of nothing: must not be read
		t.Fatal(err)
	}
	f.Close()
	dangling := filepath.Join(dir, "dangling")
	if err := os.Symlink("gone", dangling); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name, path string
		wantLen    int
		wantErr    string
		check      func(error) bool
	}{
		{"exactly the limit", exact, 100, "", nil},
		{"empty", empty, 0, "", nil},
		{"one byte over", over, 0, "larger than 100 bytes", IsTooLarge},
		{"fifo", fifo, 0, "named pipe (FIFO), not a regular file", IsNotRegular},
		{"symlink to /dev/zero", link, 0, "character device", IsNotRegular},
		{"directory", dir, 0, "a directory", IsNotRegular},
		{"sparse terabyte", sparse, 0, "larger than 100 bytes", IsTooLarge},
		{"dangling symlink", dangling, 0, "no such file", func(err error) bool { return errors.Is(err, fs.ErrNotExist) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			done := make(chan struct{})
			var b []byte
			var err error
			go func() { b, err = ReadFile(tt.path, 100); close(done) }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("ReadFile hung")
			}
			if tt.wantErr == "" {
				if err != nil || len(b) != tt.wantLen {
					t.Fatalf("got %d bytes, %v; want %d bytes", len(b), err, tt.wantLen)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), tt.path) {
				t.Fatalf("got %v, want an error naming %s and containing %q", err, tt.path, tt.wantErr)
			}
			if tt.check != nil && !tt.check(err) {
				t.Fatalf("error %v has the wrong type", err)
			}
		})
	}
}

func TestReadAll(t *testing.T) {
	if b, err := ReadAll(strings.NewReader("abc"), "x", 3); err != nil || string(b) != "abc" {
		t.Fatalf("got %q, %v", b, err)
	}
	if _, err := ReadAll(strings.NewReader("abcd"), "the input", 3); err == nil || err.Error() != "the input is larger than 3 bytes, the most plankit reads from such a file" {
		t.Fatalf("got %v", err)
	}
}

func TestFormatSize(t *testing.T) {
	for n, want := range map[int64]string{1 << 30: "1 GiB", 64 << 20: "64 MiB", 2048: "2 KiB", 1000: "1000 bytes"} {
		if got := FormatSize(n); got != want {
			t.Errorf("FormatSize(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestReadAllSizedOnce: a reader that says how much it holds is read into
// one buffer of that size (plus the byte that detects an overlong input),
// not a buffer grown from 512 bytes by doubling; the limit still holds.
func TestReadAllSizedOnce(t *testing.T) {
	src := bytes.Repeat([]byte("x"), 100_000)
	b, err := ReadAll(bytes.NewReader(src), "x", 1<<20)
	if err != nil || !bytes.Equal(b, src) {
		t.Fatalf("read %d bytes, %v", len(b), err)
	}
	if cap(b) != len(src)+1 {
		t.Errorf("buffer capacity %d, want %d", cap(b), len(src)+1)
	}
	if _, err := ReadAll(bytes.NewReader(src), "the input", 99_999); !IsTooLarge(err) {
		t.Fatalf("over the limit: %v", err)
	}
}
