package e2etest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/plankit/plankit/planfile/planfiletest"
)

// tamper rewrites one entry of a plan archive. With rehash, the integrity
// manifest is recomputed to match (an attacker who knows the format), so
// only the signature can catch the change.
func tamper(t *testing.T, from, to, entry string, edit func([]byte) []byte, rehash bool) {
	t.Helper()
	planfiletest.Rewrite(t, from, to, rehash, func(entries map[string][]byte) {
		if _, ok := entries[entry]; !ok {
			t.Fatalf("no entry %s in %v", entry, slices.Sorted(maps.Keys(entries)))
		}
		entries[entry] = edit(entries[entry])
	})
}

// TestSignedPlan: apply -verify-key accepts only archives signed with the
// matching key; a tampered archive is refused before anything is applied
// (no state is written, no file is created).
func TestSignedPlan(t *testing.T) {
	t.Parallel()
	work := fixture(t, "e2e-basic")
	keys := t.TempDir()
	outDir := t.TempDir()
	state := filepath.Join(t.TempDir(), "s.tfstate")
	priv, pub := planfiletest.WriteKeyPair(t, keys, "ci")
	otherPriv, _ := planfiletest.WriteKeyPair(t, keys, "other")
	args := []string{"-no-color", "-state=" + state, "-var", "out_dir=" + outDir}
	must(t, plan(t, work, append(args, "-sign-key="+priv, "-out=signed.tfplan")...), 0, "signed plan")
	must(t, plan(t, work, append(args, "-sign-key="+otherPriv, "-out=other.tfplan")...), 0, "plan signed with another key")
	must(t, plan(t, work, append(args, "-out=unsigned.tfplan")...), 0, "unsigned plan")
	edit := func(b []byte) []byte {
		return bytes.ReplaceAll(b, []byte(`join(",", var.names)`), []byte(`join(";", var.names)`))
	}
	signed := filepath.Join(work, "signed.tfplan")
	tamper(t, signed, filepath.Join(work, "resigned.tfplan"), "tfconfig/main.tf", edit, true)
	tamper(t, signed, filepath.Join(work, "altered.tfplan"), "tfconfig/main.tf", edit, false)

	refused := []struct{ file, want string }{
		{"unsigned.tfplan", "archive not signed"},
		{"other.tfplan", "bad signature"},
		{"resigned.tfplan", "bad signature"},
		{"altered.tfplan", "integrity check failed"},
	}
	for _, tt := range refused {
		r := apply(t, work, "-no-color", "-state="+state, "-verify-key="+pub, tt.file)
		must(t, r, 1, "apply -verify-key "+tt.file)
		contains(t, r.stderr, "apply -verify-key "+tt.file, tt.want)
		if strings.Contains(r.stdout, "Creating...") {
			t.Errorf("%s: apply started work:\n%s", tt.file, r.stdout)
		}
	}
	// Without -verify-key the integrity manifest still catches a plain edit.
	must(t, apply(t, work, "-no-color", "-state="+state, "altered.tfplan"), 1, "apply an altered archive")
	for _, p := range []string{state, filepath.Join(outDir, "out.txt")} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Fatalf("a refused apply left %s behind: %v", p, err)
		}
	}
	r := apply(t, work, "-no-color", "-state="+state, "-verify-key="+pub, "signed.tfplan")
	must(t, r, 0, "apply a signed plan")
	contains(t, r.stdout, "apply a signed plan", "Apply complete! Resources: 5 added")
}

// lineReader collects a pipe's lines and signals when one matches.
type lineReader struct {
	mu    sync.Mutex
	lines []string
	done  chan struct{}
}

// readLines reads r to EOF in the background; found is closed at the first
// line containing want (or at EOF, when want never came).
func readLines(r io.Reader, want string) (*lineReader, <-chan struct{}) {
	lr := &lineReader{done: make(chan struct{})}
	found := make(chan struct{})
	go func() {
		defer close(lr.done)
		once := sync.OnceFunc(func() { close(found) })
		defer once()
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			lr.mu.Lock()
			lr.lines = append(lr.lines, sc.Text())
			lr.mu.Unlock()
			if strings.Contains(sc.Text(), want) {
				once()
			}
		}
	}()
	return lr, found
}

func (lr *lineReader) String() string {
	lr.mu.Lock()
	defer lr.mu.Unlock()
	return strings.Join(lr.lines, "\n")
}

func (lr *lineReader) has(s string) bool { return strings.Contains(lr.String(), s) }

// startWatched starts cmd with its stdout and stderr read line by line
// (readLines, until outWant and errWant); a watchdog kills a hung cmd after
// two minutes, so the test fails instead of hanging.
func startWatched(t *testing.T, cmd *exec.Cmd, outWant, errWant string) (outLines *lineReader, outSeen <-chan struct{}, errLines *lineReader, errSeen <-chan struct{}) {
	t.Helper()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	watchdog := time.AfterFunc(2*time.Minute, func() { _ = cmd.Process.Kill() })
	t.Cleanup(func() { watchdog.Stop() })
	outLines, outSeen = readLines(stdout, outWant)
	errLines, errSeen = readLines(stderr, errWant)
	return outLines, outSeen, errLines, errSeen
}

// TestInterruptedApply sends SIGINT while a provisioner is in flight. It
// synchronises on the processes' output, not on time: it reads the
// apply's stdout until the provisioner says "ready", interrupts, and reads
// stderr until the interrupt is acknowledged (which happens after the
// apply stopped starting new work) before letting the provisioner finish.
// The apply exits non-zero, the state records what completed, and a
// re-plan continues from there.
func TestInterruptedApply(t *testing.T) {
	t.Parallel()
	work := fixture(t, "e2e-interrupt")
	ctl := t.TempDir()
	release := filepath.Join(ctl, "release")
	state := filepath.Join(ctl, "s.tfstate")
	vars := []string{"-no-color", "-var", "release=" + release, "-state=" + state}
	must(t, plan(t, work, append(vars, "-out=p.tfplan")...), 0, "plan")

	cmd := command(work, "apply", nil, "-no-color", "-state="+state, "p.tfplan")
	outLines, ready, errLines, acked := startWatched(t, cmd, "null_resource.slow (local-exec): ready", "Interrupt received.")
	<-ready
	if !outLines.has("(local-exec): ready") {
		_ = cmd.Process.Kill()
		<-outLines.done
		<-errLines.done
		_ = cmd.Wait()
		t.Fatalf("the provisioner never started:\n%s\n%s", outLines, errLines)
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	<-acked
	writeFile(t, release, "") // in case the provisioner was left running
	<-outLines.done
	<-errLines.done
	err := cmd.Wait()
	if err == nil {
		t.Fatalf("an interrupted apply exited 0\n%s\n%s", outLines, errLines)
	}
	if !errLines.has("Interrupt received.") {
		t.Errorf("no interrupt acknowledgement on stderr:\n%s", errLines)
	}
	if outLines.has("null_resource.after: Creating...") {
		t.Errorf("work started after the interrupt:\n%s", outLines)
	}
	noTrace(t, result{outLines.String(), errLines.String(), 1}, "interrupted apply")

	st, err := os.ReadFile(state)
	if err != nil {
		t.Fatalf("no state after the interrupt: %v", err)
	}
	var sf struct {
		Serial    int `json:"serial"`
		Resources []struct {
			Name      string `json:"name"`
			Instances []struct {
				Status string `json:"status"`
			} `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(st, &sf); err != nil {
		t.Fatalf("the state is not valid JSON: %v", err)
	}
	names := map[string]bool{}
	for _, r := range sf.Resources {
		names[r.Name] = true
	}
	if !names["first"] || names["after"] {
		t.Errorf("state after the interrupt holds %v: want first (and slow, maybe tainted), not after", names)
	}
	if _, err := os.Stat(filepath.Join(ctl, ".s.tfstate.lock.info")); !os.IsNotExist(err) {
		t.Errorf("the state lock was left behind: %v", err)
	}
	// The next plan picks up where the apply stopped.
	r := plan(t, work, append(vars, "-detailed-exitcode")...)
	must(t, r, 2, "plan after the interrupt")
	contains(t, r.stdout, "plan after the interrupt", "# null_resource.after will be created")
	if names["slow"] {
		contains(t, r.stdout, "plan after the interrupt", "# null_resource.slow is tainted, so must be replaced")
	}
}

// TestForceUnlock: a lock file naming another host (ci@runner), whose
// holder plankit cannot check, stops plan with a message naming the
// command that removes it; that command works.
func TestForceUnlock(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), "resource \"null_resource\" \"a\" {}\n")
	must(t, apply(t, dir, "-no-color", "-auto-approve"), 0, "apply")
	const id = "6f1b8d3c-0000-4000-8000-00000000dead"
	info := `{"ID":"` + id + `","Operation":"OperationTypeApply","Info":"","Who":"ci@runner","Version":"0.1.0","Created":"2026-01-02T03:04:05Z","Path":"terraform.tfstate"}`
	writeFile(t, filepath.Join(dir, ".terraform.tfstate.lock.info"), info)

	r := plan(t, dir, "-no-color")
	must(t, r, 1, "plan with a stale lock")
	m := regexp.MustCompile(`plan force-unlock -force (-state=\S+) (\S+)`).FindStringSubmatch(r.stderr)
	if m == nil || m[2] != id {
		t.Fatalf("the stale lock message does not name plan force-unlock %s:\n%s", id, r.stderr)
	}
	must(t, plan(t, dir, "-no-color", "-lock=false", "-detailed-exitcode"), 0, "plan -lock=false ignores the lock")
	must(t, plan(t, dir, "force-unlock", "-state=terraform.tfstate", id), 1, "force-unlock without -force or a terminal")
	must(t, plan(t, dir, "force-unlock", "-force", "-state=terraform.tfstate", "wrong-id"), 1, "force-unlock with the wrong ID")
	u := plan(t, dir, "force-unlock", "-force", m[1], m[2])
	must(t, u, 0, "force-unlock")
	contains(t, u.stdout, "force-unlock", "successfully unlocked")
	must(t, plan(t, dir, "-no-color", "-detailed-exitcode"), 0, "plan after force-unlock")
}

// TestPlanKilledBySIGPIPELeavesNoBlockingLock: plan whose stdout is a
// closed pipe (plan | head) dies of SIGPIPE while it holds the state lock,
// leaving the lock file; the next plan takes the dead process's lock over
// with a warning instead of refusing, and releases it. The plan file of
// the killed run is absent, never half written.
func TestPlanKilledBySIGPIPELeavesNoBlockingLock(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), "resource \"terraform_data\" \"a\" {\n  count = 50\n  input = count.index\n}\n")
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close() // the reader is gone, as head is after its lines
	cmd := command(dir, "plan", nil, "-no-color", "-out=killed.tfplan")
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = w, &stderr
	err = cmd.Run()
	w.Close()
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("plan writing to a closed pipe: %v, want it killed by SIGPIPE\n%s", err, stderr.String())
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGPIPE {
		t.Fatalf("plan writing to a closed pipe ended with %v, want SIGPIPE\n%s", err, stderr.String())
	}
	lockFile := filepath.Join(dir, ".terraform.tfstate.lock.info")
	if _, err := os.Stat(lockFile); err != nil {
		t.Fatalf("the killed plan left no lock file, so this test checks nothing: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "killed.tfplan")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the killed plan left killed.tfplan: %v", err)
	}

	next := plan(t, dir, "-no-color", "-out=next.tfplan")
	must(t, next, 0, "plan after a plan killed by SIGPIPE")
	contains(t, next.stdout+next.stderr, "plan after the SIGPIPE", "Warning: Took over a stale state lock",
		"left behind by a process that is no longer running", "OperationTypePlan")
	contains(t, next.stdout, "plan after the SIGPIPE", "Plan: 50 to add, 0 to change, 0 to destroy.")
	if _, err := os.Stat(lockFile); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the lock was not released after the plan: %v", err)
	}
	must(t, apply(t, dir, "-no-color", "next.tfplan"), 0, "apply of the plan made after the takeover")
	again := plan(t, dir, "-no-color", "-detailed-exitcode")
	must(t, again, 0, "plan with the lock free")
	if strings.Contains(again.stdout+again.stderr, "stale state lock") {
		t.Errorf("a warning about a stale lock with none left:\n%s%s", again.stdout, again.stderr)
	}
}
