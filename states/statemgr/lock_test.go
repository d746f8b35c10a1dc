package statemgr

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestLockExcludesSecondManager(t *testing.T) {
	path := filepath.Join(t.TempDir(), "terraform.tfstate")
	a, b := NewFilesystem(path), NewFilesystem(path)
	info := NewLockInfo()
	info.Operation = "OperationTypeApply"
	id, err := a.Lock(info)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(a.LockInfoPath()) != ".terraform.tfstate.lock.info" {
		t.Fatalf("lock file %s", a.LockInfoPath())
	}
	_, err = b.Lock(NewLockInfo())
	var le *LockError
	if !errors.As(err, &le) || !errors.Is(err, ErrLocked) || le.Info == nil || le.Info.ID != id || le.Info.Operation != "OperationTypeApply" || le.Info.Path != path {
		t.Fatalf("second Lock = %v", err)
	}
	if err := a.Unlock("wrong"); !errors.Is(err, ErrLockIDMismatch) {
		t.Fatalf("Unlock(wrong) = %v", err)
	}
	if err := a.Unlock(id); err != nil {
		t.Fatal(err)
	}
	id2, err := b.Lock(nil)
	if err != nil {
		t.Fatalf("Lock after release: %v", err)
	}
	if err := b.Unlock(id2); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(a.LockInfoPath()); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("lock file left after Unlock")
	}
}

func TestLockWithTimeout(t *testing.T) {
	path := filepath.Join(t.TempDir(), "terraform.tfstate")
	a, b := NewFilesystem(path), NewFilesystem(path)
	id, err := a.Lock(nil)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := b.LockWithTimeout(context.Background(), nil, 150*time.Millisecond); !errors.Is(err, ErrLocked) {
		t.Fatalf("LockWithTimeout = %v, want ErrLocked", err)
	}
	if waited := time.Since(start); waited < 150*time.Millisecond {
		t.Fatalf("gave up after %s, before the timeout", waited)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := b.LockWithTimeout(ctx, nil, time.Hour); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled LockWithTimeout = %v", err)
	}
	got := make(chan error, 1)
	go func() {
		_, err := b.LockWithTimeout(context.Background(), nil, time.Minute)
		got <- err
	}()
	if err := a.Unlock(id); err != nil {
		t.Fatal(err)
	}
	if err := <-got; err != nil {
		t.Fatalf("LockWithTimeout after the holder released: %v", err)
	}
}

const lockHolderEnv = "PLANKIT_STATEMGR_LOCK_HOLDER"

// TestLockHolderProcess is not a test: run as a child by
// TestLockAcrossProcesses, it takes the lock, reports its ID and waits for
// stdin to close, then exits without unlocking, leaving a stale lock file.
func TestLockHolderProcess(t *testing.T) {
	path := os.Getenv(lockHolderEnv)
	if path == "" {
		t.Skip("helper process for TestLockAcrossProcesses")
	}
	info := NewLockInfo()
	info.Operation = "OperationTypeApply"
	info.Who = "child@test"
	id, err := NewFilesystem(path).Lock(info)
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	fmt.Println("locked", id)
	bufio.NewReader(os.Stdin).ReadString('\n')
	os.Exit(0) // no Unlock: the process dies holding the lock
}

func TestLockAcrossProcesses(t *testing.T) {
	path := filepath.Join(t.TempDir(), "terraform.tfstate")
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockHolderProcess$")
	cmd.Env = append(os.Environ(), lockHolderEnv+"="+path)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "locked ") {
		t.Fatalf("child: %q %v", line, err)
	}
	childID := strings.TrimSpace(strings.TrimPrefix(line, "locked "))

	m := NewFilesystem(path)
	_, err = m.Lock(nil)
	var le *LockError
	if !errors.As(err, &le) || !errors.Is(err, ErrLocked) || le.Info.ID != childID || le.Info.Who != "child@test" {
		t.Fatalf("Lock while the child holds it = %v", err)
	}

	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("child: %v", err)
	}
	_, err = m.Lock(nil)
	if !errors.As(err, &le) || !errors.Is(err, ErrStaleLock) || le.Info.ID != childID {
		t.Fatalf("Lock after the child died = %v, want a stale lock", err)
	}
	msg := err.Error()
	for _, want := range []string{childID, "child@test", "plan force-unlock -force -state=" + path + " " + childID, "OperationTypeApply"} {
		if !strings.Contains(msg, want) {
			t.Errorf("stale lock message does not mention %q:\n%s", want, msg)
		}
	}
	// Waiting does not help with a stale lock: LockWithTimeout returns at once.
	if _, err := m.LockWithTimeout(context.Background(), nil, time.Hour); !errors.Is(err, ErrStaleLock) {
		t.Fatalf("LockWithTimeout on a stale lock = %v", err)
	}
	// force-unlock, then the lock is free.
	if err := m.Unlock("not-the-id"); !errors.Is(err, ErrLockIDMismatch) {
		t.Fatalf("force-unlock with a wrong ID = %v", err)
	}
	if err := m.Unlock(childID); err != nil {
		t.Fatal(err)
	}
	id, err := m.Lock(nil)
	if err != nil {
		t.Fatalf("Lock after force-unlock: %v", err)
	}
	m.Unlock(id)
}

// TestUnreadableStaleLock checks the advice for a stale lock whose file
// cannot be read: there is no ID for force-unlock, so the message says to
// remove the file by hand, and the info names the state, not the lock file.
func TestUnreadableStaleLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "terraform.tfstate")
	m := NewFilesystem(path)
	if err := os.WriteFile(m.LockInfoPath(), []byte("not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := m.Lock(NewLockInfo())
	var le *LockError
	if !errors.As(err, &le) || !errors.Is(err, ErrStaleLock) {
		t.Fatalf("Lock = %v, want a stale lock error", err)
	}
	if le.Info.Path != path || le.Info.ID != "" {
		t.Errorf("info = %+v, want the state's path and no ID", le.Info)
	}
	msg := err.Error()
	if !strings.Contains(msg, "remove the lock file by hand") || !strings.Contains(msg, m.LockInfoPath()) {
		t.Errorf("message does not say to remove %s by hand:\n%s", m.LockInfoPath(), msg)
	}
	if strings.Contains(msg, "force-unlock") {
		t.Errorf("message offers force-unlock without an ID:\n%s", msg)
	}
}

// TestHostileLockFile: a lock file that is a FIFO, or one far larger than
// any real lock info, is reported at once instead of blocking the open or
// being read whole.
func TestHostileLockFile(t *testing.T) {
	tests := []struct {
		name string
		make func(t *testing.T, path string)
		want string
	}{
		{"fifo", func(t *testing.T, path string) {
			if err := syscall.Mkfifo(path, 0o644); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
		}, "not a regular file"},
		{"huge", func(t *testing.T, path string) {
			f, err := os.Create(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if err := f.Truncate(64 << 30); err != nil { // sparse: 64 GiB read whole would exhaust memory
				t.Fatal(err)
			}
		}, "remove the lock file by hand"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := NewFilesystem(filepath.Join(t.TempDir(), "terraform.tfstate"))
			tt.make(t, m.LockInfoPath())
			done := make(chan error, 1)
			go func() { _, err := m.Lock(NewLockInfo()); done <- err }()
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("Lock = %v, want an error containing %q", err, tt.want)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("Lock blocked on the lock file")
			}
		})
	}
}
