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

// TestLockHolderProcess is not a test: run as a child by the tests below,
// it locks the state named by lockHolderEnv ("HOW WHO PATH"), reports the
// lock ID and waits to be killed, or for stdin to close, then exits
// without unlocking. HOW is "plankit" (this package's Lock) or "posix": a
// POSIX record lock on the state file and a lock file with no flock, as
// Terraform and OpenTofu lock a local state.
func TestLockHolderProcess(t *testing.T) {
	arg := os.Getenv(lockHolderEnv)
	if arg == "" {
		t.Skip("helper process for the lock tests")
	}
	how, rest, _ := strings.Cut(arg, " ")
	who, path, _ := strings.Cut(rest, " ")
	info := NewLockInfo()
	info.Operation = "OperationTypeApply"
	if who != "" {
		info.Who = who
	}
	switch how {
	case "plankit":
		id, err := NewFilesystem(path).Lock(info)
		if err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		fmt.Println("locked", id)
	case "posix":
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err == nil {
			err = syscall.FcntlFlock(f.Fd(), syscall.F_SETLK, &syscall.Flock_t{Type: syscall.F_WRLCK})
		}
		if err == nil {
			info.Path = path
			err = os.WriteFile(NewFilesystem(path).LockInfoPath(), info.Marshal(), 0o644)
		}
		if err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		fmt.Println("locked", info.ID)
	}
	bufio.NewReader(os.Stdin).ReadString('\n')
	os.Exit(0) // no Unlock: the process dies holding the lock
}

// lockHolder starts TestLockHolderProcess holding the lock of the state
// at path and returns it, running, with its lock ID.
func lockHolder(t *testing.T, how, who, path string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockHolderProcess$")
	cmd.Env = append(os.Environ(), lockHolderEnv+"="+how+" "+who+" "+path)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "locked ") {
		t.Fatalf("lock holder: %q %v", line, err)
	}
	return cmd, strings.TrimSpace(strings.TrimPrefix(line, "locked "))
}

// kill ends the lock holder with SIGKILL, as a pipeline's SIGPIPE or the
// OOM killer would: nothing of it runs on the way out.
func kill(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
}

// TestLockAcrossProcesses: a lock held by a running process refuses the
// next one; a lock file left by a dead process of this host is taken over
// (TookOver names the dead holder), whether it died killed or by exiting
// without unlocking; one naming another host, or one Terraform or
// OpenTofu holds with its POSIX lock on the state file, is refused.
func TestLockAcrossProcesses(t *testing.T) {
	host, _ := os.Hostname()
	tests := []struct {
		name, how, who string
		exit           bool // the holder exits by itself instead of being killed
		wantAlive      error
		wantDead       error // nil: taken over
	}{
		{"this host, killed", "plankit", "", false, ErrLocked, nil},
		{"this host, exited without unlocking", "plankit", "", true, ErrLocked, nil},
		{"this host, named user", "plankit", "ci@" + host, false, ErrLocked, nil},
		{"another host", "plankit", "child@build-7.example", false, ErrLocked, ErrLockedElsewhere},
		{"no host", "plankit", "child", false, ErrLocked, ErrLockedElsewhere},
		{"terraform's posix lock, this host", "posix", "", false, ErrLocked, nil},
		{"terraform's posix lock, another host", "posix", "child@build-7.example", false, ErrLocked, ErrLockedElsewhere},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "terraform.tfstate")
			cmd, childID := lockHolder(t, tt.how, tt.who, path)
			m := NewFilesystem(path)
			_, err := m.Lock(nil)
			var le *LockError
			if !errors.As(err, &le) || !errors.Is(err, tt.wantAlive) || le.Info == nil || le.Info.ID != childID {
				t.Fatalf("Lock while the holder runs = %v, want %v naming %s", err, tt.wantAlive, childID)
			}
			if m.TookOver() != nil {
				t.Fatalf("TookOver after a refused Lock = %+v", m.TookOver())
			}
			if tt.exit {
				cmd.Process.Signal(syscall.SIGTERM) // the test binary exits at once, without Unlock
				cmd.Wait()
			} else {
				kill(t, cmd)
			}
			id, err := m.Lock(nil)
			if tt.wantDead != nil {
				if !errors.As(err, &le) || !errors.Is(err, tt.wantDead) || le.Info.ID != childID {
					t.Fatalf("Lock after the holder died = %v, want %v", err, tt.wantDead)
				}
				for _, want := range []string{childID, "OperationTypeApply", "plan force-unlock -force -state=" + path + " " + childID} {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("message does not mention %q:\n%s", want, err)
					}
				}
				// force-unlock, then the lock is free.
				if err := m.Unlock(childID); err != nil {
					t.Fatal(err)
				}
				id, err = m.Lock(nil)
				if err != nil {
					t.Fatalf("Lock after force-unlock: %v", err)
				}
				if m.TookOver() != nil {
					t.Errorf("TookOver after a free lock = %+v", m.TookOver())
				}
				m.Unlock(id)
				return
			}
			if err != nil {
				t.Fatalf("Lock after the holder died = %v, want it taken over", err)
			}
			if prev := m.TookOver(); prev == nil || prev.ID != childID || prev.Operation != "OperationTypeApply" {
				t.Fatalf("TookOver = %+v, want the dead holder %s", prev, childID)
			}
			// The lock taken over is a real one: another manager is refused.
			other := NewFilesystem(path)
			if _, err := other.Lock(nil); !errors.As(err, &le) || !errors.Is(err, ErrLocked) || le.Info.ID != id {
				t.Fatalf("second Lock after the takeover = %v, want ErrLocked naming %s", err, id)
			}
			if err := m.Unlock(id); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(m.LockInfoPath()); !errors.Is(err, os.ErrNotExist) {
				t.Fatal("lock file left after Unlock")
			}
			entries, _ := os.ReadDir(filepath.Dir(path))
			for _, e := range entries {
				if e.Name() != "terraform.tfstate" {
					t.Errorf("left beside the state: %s", e.Name())
				}
			}
		})
	}
}

// TestLockTakeoverRace: processes that find the same dead holder's lock at
// once take it over one at a time: exactly one wins, the others are
// refused as locked by it.
func TestLockTakeoverRace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "terraform.tfstate")
	cmd, _ := lockHolder(t, "plankit", "", path)
	kill(t, cmd)
	const n = 8
	type result struct {
		m   *Filesystem
		id  string
		err error
	}
	results := make(chan result, n)
	for range n {
		go func() {
			m := NewFilesystem(path)
			id, err := m.Lock(nil)
			results <- result{m, id, err}
		}()
	}
	var won []result
	for range n {
		r := <-results
		switch {
		case r.err == nil:
			won = append(won, r)
		case !errors.Is(r.err, ErrLocked):
			t.Errorf("a loser got %v, want ErrLocked", r.err)
		}
	}
	if len(won) != 1 {
		t.Fatalf("%d managers hold the lock at once", len(won))
	}
	won[0].m.Unlock(won[0].id)
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
