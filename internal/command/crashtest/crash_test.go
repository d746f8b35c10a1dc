//go:build crashtest

package crashtest

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/states/statefile"
)

var (
	trials      = flag.Int("crash.trials", 30, "random kills (boundary kills come on top)")
	resources   = flag.Int("crash.resources", 300, "local_file instances in the generated configuration")
	parallelism = flag.Int("crash.parallelism", 10, "apply -parallelism")
	seed        = flag.Uint64("crash.seed", 0, "random seed (0: from the clock)")
	// The state file's lag behind the journal: apply writes the state once
	// 100 changes are unwritten (command's stateLagChanges) as soon as the
	// persister's gap after the last write allows, so a kill finds at most
	// that many plus those finished during one write and its gap. With
	// instant creates (thousands a second) that second part is time, not a
	// count: the bound is asserted for the paced apply, whose creates take
	// a provisioner's run each, as real ones take an API call.
	lagBound = flag.Int("crash.lagbound", 150, "most objects the state file alone may be wrong about after a kill of the paced apply")
)

var binDir string

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "plankit-crash-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	cmd := exec.Command("go", "build", "-o", dir+string(os.PathSeparator), "../../../cmd/plan", "../../../cmd/apply")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building the binaries:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// config is count local_file instances writing out/f<i>.txt; paced, each
// runs a provisioner that sleeps a little after its create.
func config(n int, paced bool) string {
	prov := ""
	if paced {
		prov = `
  provisioner "local-exec" {
    command = "sleep 0.02"
  }`
	}
	return fmt.Sprintf(`resource "local_file" "f" {
  count    = %d
  filename = "${path.module}/out/f${count.index}.txt"
  content  = "file ${count.index}\n"%s
}
`, n, prov)
}

type result struct {
	out  string
	code int
}

func run(t *testing.T, dir, bin string, args ...string) result {
	t.Helper()
	cmd := exec.Command(filepath.Join(binDir, bin), args...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return result{out.String(), ee.ExitCode()}
	case err != nil:
		t.Fatalf("running %s: %v", bin, err)
	}
	return result{out.String(), 0}
}

// killer decides when to kill a running apply in dir: it returns once the
// moment has come (or the process ended by itself).
type killer struct {
	name    string
	paced   bool                                          // each create runs a short provisioner (a real API's pace)
	destroy bool                                          // kill an apply -destroy of everything, not the creates
	wait    func(dir string, exited <-chan struct{}) bool // false: the process ended first
}

// poll calls cond until it holds or the process exits.
func poll(exited <-chan struct{}, cond func() bool) bool {
	for {
		select {
		case <-exited:
			return false
		default:
		}
		if cond() {
			return true
		}
		time.Sleep(50 * time.Microsecond)
	}
}

// afterDelay kills d after the first object's file appears (d is drawn
// over the time the creates take, so the kills spread over them).
func afterDelay(d time.Duration) killer {
	return killer{name: fmt.Sprintf("%v into the creates", d.Round(time.Millisecond)), wait: func(dir string, exited <-chan struct{}) bool {
		if !afterFiles(1).wait(dir, exited) {
			return false
		}
		select {
		case <-exited:
			return false
		case <-time.After(d):
			return true
		}
	}}
}

// duringDestroy kills d after the first object's file disappears, in an
// apply -destroy of all of them.
func duringDestroy(d time.Duration) killer {
	return killer{name: fmt.Sprintf("%v into the destroys", d.Round(time.Millisecond)), destroy: true, wait: func(dir string, exited <-chan struct{}) bool {
		out := filepath.Join(dir, "out")
		if !poll(exited, func() bool {
			es, _ := os.ReadDir(out)
			return len(es) < *resources
		}) {
			return false
		}
		select {
		case <-exited:
			return false
		case <-time.After(d):
			return true
		}
	}}
}

// afterFiles kills right after the k-th object's file appears: its
// provider call has just returned.
func afterFiles(k int) killer {
	return killer{name: fmt.Sprintf("after file %d", k), wait: func(dir string, exited <-chan struct{}) bool {
		out := filepath.Join(dir, "out")
		return poll(exited, func() bool {
			es, _ := os.ReadDir(out)
			return len(es) >= k
		})
	}}
}

// afterStateWrite kills right after the k-th replacement of the state
// file (a persistence boundary).
func afterStateWrite(k int) killer {
	return killer{name: fmt.Sprintf("after state write %d", k), wait: func(dir string, exited <-chan struct{}) bool {
		path := filepath.Join(dir, "terraform.tfstate")
		var last uint64
		seen := 0
		return poll(exited, func() bool {
			var st syscall.Stat_t
			if syscall.Stat(path, &st) != nil || st.Ino == last {
				return false
			}
			last = st.Ino
			seen++
			return seen >= k
		})
	}}
}

// duringStateWrite kills while a temporary state file exists (a write in
// progress), the k-th time one is seen.
func duringStateWrite(k int) killer {
	return killer{name: fmt.Sprintf("during state write %d", k), wait: func(dir string, exited <-chan struct{}) bool {
		seen, inTmp := 0, false
		return poll(exited, func() bool {
			m, _ := filepath.Glob(filepath.Join(dir, ".terraform.tfstate.tmp-*"))
			switch {
			case len(m) > 0 && !inTmp:
				inTmp = true
				seen++
				return seen >= k
			case len(m) == 0:
				inTmp = false
			}
			return false
		})
	}}
}

type outcome struct {
	killed     bool
	unrecorded int
	lag        int // created objects the state file alone lacked after the kill
}

func TestKillApply(t *testing.T) {
	s := *seed
	if s == 0 {
		s = uint64(time.Now().UnixNano())
	}
	t.Logf("seed %d", s)
	rng := rand.New(rand.NewPCG(s, 0))

	// One undisturbed apply measures how long the creates take here.
	calib := newDir(t, false)
	cmd := exec.Command(filepath.Join(binDir, "apply"), "-no-color", "-auto-approve", "-parallelism="+strconv.Itoa(*parallelism))
	cmd.Dir = calib
	var calibOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &calibOut, &calibOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	var calibErr error
	go func() { calibErr = cmd.Wait(); close(exited) }()
	afterFiles(1).wait(calib, exited)
	start := time.Now()
	<-exited
	full := time.Since(start)
	if calibErr != nil {
		t.Fatalf("undisturbed apply: %v\n%s", calibErr, calibOut.String())
	}
	t.Logf("undisturbed apply of %d instances: %v from the first file to the exit", *resources, full)

	var ks []killer
	for range *trials {
		ks = append(ks, afterDelay(time.Duration(rng.Int64N(int64(full)))))
	}
	for _, k := range []int{1, 2, 3, 5, 8} {
		ks = append(ks, afterStateWrite(k), duringStateWrite(k))
	}
	for _, k := range []int{1, 2, *parallelism, *resources / 3, *resources / 2, *resources - 5} {
		ks = append(ks, afterFiles(k))
	}
	for range max(*trials/4, 1) {
		ks = append(ks, duringDestroy(time.Duration(rng.Int64N(int64(full)))))
	}
	for _, k := range []int{*resources / 2, *resources * 3 / 4, *resources - 10} {
		pk := afterFiles(k)
		pk.name, pk.paced = "paced, "+pk.name, true
		ks = append(ks, pk)
	}

	var got []outcome
	for i, k := range ks {
		t.Run(fmt.Sprintf("%02d %s", i, k.name), func(t *testing.T) {
			got = append(got, killOnce(t, k))
		})
	}
	var sum, most, n int
	var dist, lags, pacedLags []int
	for i, o := range got {
		if !o.killed {
			continue
		}
		n++
		sum += o.unrecorded
		most = max(most, o.unrecorded)
		dist = append(dist, o.unrecorded)
		if ks[i].paced {
			pacedLags = append(pacedLags, o.lag)
		} else {
			lags = append(lags, o.lag)
		}
	}
	slices.Sort(dist)
	slices.Sort(lags)
	slices.Sort(pacedLags)
	if n > 0 {
		t.Logf("objects the state is wrong about per kill (created and unrecorded, or destroyed and still recorded) over %d kills: mean %.2f, max %d (parallelism %d); sorted: %v", n, float64(sum)/float64(n), most, *parallelism, dist)
		t.Logf("objects the state file alone is wrong about per kill (what a tool ignoring the journal misses), instant creates: sorted %v; paced creates (bound %d): sorted %v", lags, *lagBound, pacedLags)
	}
	if n < len(ks)/2 {
		t.Errorf("only %d of %d trials killed the apply before it ended", n, len(ks))
	}
}

func newDir(t *testing.T, paced bool) string {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(config(*resources, paced)), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

var (
	unlockCmd = regexp.MustCompile(`(?m)^\s*(plan force-unlock .*)$`)
	inFlight  = regexp.MustCompile(`local_file\.f\[(\d+)\]`)
	creates   = regexp.MustCompile(`(?m)^\s*# local_file\.f\[(\d+)\] will be created$`)
	deletedRe = regexp.MustCompile(`(?m)^\s*# local_file\.f\[(\d+)\] has been deleted$`)
)

// stateFileIndexes decodes the state file alone, as a tool that ignores
// the journal (Terraform, OpenTofu) reads it, and returns the indexes of
// the local_file.f instances it holds.
func stateFileIndexes(t *testing.T, dir string) map[int]bool {
	t.Helper()
	recorded := map[int]bool{}
	src, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
	if err != nil {
		return recorded
	}
	f, err := statefile.Read(bytes.NewReader(src))
	if err != nil && !errors.Is(err, statefile.ErrNoState) {
		t.Fatalf("the state file does not parse: %v", err)
	}
	if f == nil {
		return recorded
	}
	for _, addr := range f.State.AllResourceInstances() {
		if f.State.ResourceInstanceObject(addr, addrs.NotDeposed) == nil {
			continue
		}
		idx, err := strconv.Atoi(strings.Trim(addr.Resource.Key.String(), "[]"))
		if err != nil {
			t.Fatalf("unexpected instance %s", addr)
		}
		recorded[idx] = true
	}
	return recorded
}

// fileIndexes returns the indexes of the files in out/.
func fileIndexes(t *testing.T, dir string) map[int]bool {
	t.Helper()
	files := map[int]bool{}
	es, _ := os.ReadDir(filepath.Join(dir, "out"))
	for _, e := range es {
		idx, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(e.Name(), "f"), ".txt"))
		if err != nil {
			t.Fatalf("unexpected file out/%s", e.Name())
		}
		files[idx] = true
	}
	return files
}

// fileStamp is what a plan must leave unchanged in the state file.
type fileStamp struct {
	data  []byte
	mtime time.Time
	ok    bool
}

func stampOf(path string) fileStamp {
	fi, err := os.Stat(path)
	if err != nil {
		return fileStamp{}
	}
	data, err := os.ReadFile(path)
	return fileStamp{data: data, mtime: fi.ModTime(), ok: err == nil}
}

// checkUntouched fails when path changed since st (a plan wrote it).
func checkUntouched(t *testing.T, what, path string, st fileStamp) {
	t.Helper()
	now := stampOf(path)
	if now.ok != st.ok || !bytes.Equal(now.data, st.data) || !now.mtime.Equal(st.mtime) {
		t.Errorf("%s changed the state file %s (it must never write the state): before %d bytes at %v, after %d bytes at %v",
			what, filepath.Base(path), len(st.data), st.mtime, len(now.data), now.mtime)
	}
}

// journalFiles lists the journal segments beside the state.
func journalFiles(dir string) []string {
	m, _ := filepath.Glob(filepath.Join(dir, ".terraform.tfstate.journal.*"))
	return m
}

// killOnce runs one apply, kills it when k says, and checks what is left.
func killOnce(t *testing.T, k killer) outcome {
	dir := newDir(t, k.paced)
	args := []string{"-no-color", "-auto-approve", "-parallelism=" + strconv.Itoa(*parallelism)}
	if k.destroy {
		if r := run(t, dir, "apply", args...); r.code != 0 {
			t.Fatalf("apply before the destroy: exit %d\n%s", r.code, r.out)
		}
		args = append(args, "-destroy")
	}
	cmd := exec.Command(filepath.Join(binDir, "apply"), args...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	var waitErr error
	go func() { waitErr = cmd.Wait(); close(exited) }()
	killed := k.wait(dir, exited)
	if killed {
		killed = cmd.Process.Signal(syscall.SIGKILL) == nil
	}
	<-exited
	if !killed {
		if waitErr != nil {
			t.Fatalf("apply ended by itself with %v\n%s", waitErr, out.String())
		}
		t.Logf("the apply ended before the kill")
	}

	// The state file alone, as a tool that ignores the journal reads it,
	// parses and lags what was done by at most the bound: created files it
	// lacks, and (during a destroy) objects it still holds whose files
	// are gone.
	statePath := filepath.Join(dir, "terraform.tfstate")
	fileOnly, onDisk := stateFileIndexes(t, dir), fileIndexes(t, dir)
	lag := 0
	for i := range onDisk {
		if !fileOnly[i] {
			lag++
		}
	}
	for i := range fileOnly {
		if !onDisk[i] {
			lag++
		}
	}
	if k.paced && lag > *lagBound {
		t.Errorf("the state file alone is wrong about %d objects after the kill of the paced apply (more than the bound %d): a tool that reads only it would create or keep them again", lag, *lagBound)
	}
	journal := journalFiles(dir)
	before := stampOf(statePath)

	// The next plan: a stale lock names the command that removes it; that
	// command works without a terminal.
	plan := run(t, dir, "plan", "-no-color", "-out=next.tfplan")
	if killed && plan.code != 0 && strings.Contains(plan.out, "no longer running") {
		m := unlockCmd.FindStringSubmatch(plan.out)
		if m == nil {
			t.Fatalf("stale lock without a force-unlock command:\n%s", plan.out)
		}
		args := strings.Fields(m[1])[1:]
		if r := run(t, dir, "plan", args...); r.code != 0 {
			t.Errorf("%s (no terminal): exit %d\n%s", m[1], r.code, r.out)
			// Go on with -force, to check the rest.
			if r := run(t, dir, "plan", append([]string{args[0], "-force"}, args[1:]...)...); r.code != 0 {
				t.Fatalf("force-unlock -force: exit %d\n%s", r.code, r.out)
			}
		}
		plan = run(t, dir, "plan", "-no-color", "-out=next.tfplan")
	}
	if plan.code != 0 {
		t.Fatalf("plan after the kill: exit %d\n%s", plan.code, plan.out)
	}
	// The plan does not write the state, journal or not.
	checkUntouched(t, "the plan after the kill", statePath, before)
	if len(journal) > 0 {
		if msg := strings.Join(strings.Fields(plan.out), " "); !strings.Contains(msg, "The state file lacks the changes of an interrupted apply") || !strings.Contains(msg, "Its journal (.terraform.tfstate.journal.*") || !strings.Contains(msg, "does not write them to the state") {
			t.Errorf("the plan does not say that the journal %v is not in the state file yet:\n%s", journal, plan.out)
		}
		if got := journalFiles(dir); len(got) == 0 {
			t.Errorf("the plan removed the journal")
		}
	}

	// What the plan knows (the state with the killed run's journal folded
	// in): every instance except those it creates, and those it found
	// deleted; against the files on disk.
	recorded := map[int]bool{}
	for i := range *resources {
		recorded[i] = true
	}
	for _, m := range creates.FindAllStringSubmatch(plan.out, -1) {
		i, _ := strconv.Atoi(m[1])
		delete(recorded, i)
	}
	for _, m := range deletedRe.FindAllStringSubmatch(plan.out, -1) {
		i, _ := strconv.Atoi(m[1])
		recorded[i] = true
	}
	files := fileIndexes(t, dir)
	named := map[int]bool{}
	for _, m := range inFlight.FindAllStringSubmatch(warningText(plan.out), -1) {
		i, _ := strconv.Atoi(m[1])
		named[i] = true
	}
	gone := 0
	for i := range recorded {
		if !files[i] {
			// Only a destroy in flight may have removed a recorded object.
			gone++
			if !named[i] {
				t.Errorf("the state records local_file.f[%d] but out/f%d.txt does not exist, and the plan did not name it as in flight", i, i)
			}
		}
	}
	if gone > *parallelism {
		t.Errorf("%d recorded objects are gone (more than -parallelism=%d)", gone, *parallelism)
	}
	var unrecorded []int
	for i := range files {
		if !recorded[i] {
			unrecorded = append(unrecorded, i)
		}
	}
	slices.Sort(unrecorded)
	if len(unrecorded) > *parallelism {
		t.Errorf("%d created files are not in the state (more than -parallelism=%d): %v", len(unrecorded), *parallelism, unrecorded)
	}
	for _, i := range unrecorded {
		if !named[i] {
			t.Errorf("out/f%d.txt exists, the state does not record it, and the plan did not name local_file.f[%d] as in flight", i, i)
		}
	}
	t.Logf("killed=%v files=%d recorded=%d unrecorded=%d named in flight=%d state file alone wrong about %d", killed, len(files), len(recorded), len(unrecorded), len(named), lag)

	// The follow-up apply folds the journal in first, as a step it
	// reports and records, applies the saved plan (made from the state
	// with the journal), converges to a clean re-plan, and nothing is left
	// behind.
	ap := run(t, dir, "apply", "-no-color", "next.tfplan")
	if ap.code != 0 {
		t.Fatalf("follow-up apply: exit %d\n%s", ap.code, ap.out)
	}
	if len(journal) > 0 {
		msg := strings.Join(strings.Fields(ap.out), " ")
		for _, want := range []string{"Recovered the state of an interrupted apply", "Its journal (.terraform.tfstate.journal.*", "now written to the state (serial", "is in terraform.tfstate.backup", "recorded in terraform.tfstate.recovery.log"} {
			if !strings.Contains(msg, want) {
				t.Errorf("the follow-up apply's recovery message lacks %q:\n%s", want, ap.out)
			}
		}
		logged, err := os.ReadFile(statePath + ".recovery.log")
		if err != nil || !bytes.Contains(logged, []byte(`"journal":`)) {
			t.Errorf("no record of the recovery in terraform.tfstate.recovery.log (%v): %s", err, logged)
		}
	}
	clean := stampOf(statePath)
	if r := run(t, dir, "plan", "-no-color", "-detailed-exitcode"); r.code != 0 {
		t.Errorf("re-plan after the follow-up apply: exit %d, want 0 (no changes)\n%s", r.code, r.out)
	}
	checkUntouched(t, "the plan after a clean apply", statePath, clean)
	if len(files) < *resources {
		if es, _ := os.ReadDir(filepath.Join(dir, "out")); len(es) != *resources {
			t.Errorf("%d files after the follow-up apply, want %d", len(es), *resources)
		}
	}
	var left []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") || strings.Contains(e.Name(), "journal") || strings.HasSuffix(e.Name(), ".lock.info") {
			left = append(left, e.Name())
		}
	}
	if len(left) > 0 {
		t.Errorf("left behind after the follow-up apply: %v", left)
	}
	return outcome{killed: killed, unrecorded: len(unrecorded) + gone, lag: lag}
}

// warningText is the part of the plan's output that warns about the
// interrupted apply (empty when there is none).
func warningText(out string) string {
	i := strings.Index(out, "Warning: ")
	if i < 0 {
		return ""
	}
	return out[i:]
}

// TestKillDuringProvisioner kills the apply while a created object's
// provisioner runs: the object exists, its provisioners did not finish.
// The next plan says so and plans to replace it, as Terraform does after a
// failed provisioner (the object is tainted); the plan writes nothing, and
// the apply that folds the journal in stores the object tainted before it
// replaces it.
func TestKillDuringProvisioner(t *testing.T) {
	dir := t.TempDir()
	cfg := `resource "local_file" "p" {
  filename = "${path.module}/out/p.txt"
  content  = "p\n"
  provisioner "local-exec" {
    command = "if [ ! -e provisioned-once ]; then touch provisioned-once; sleep 60; fi"
  }
}
`
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(binDir, "apply"), "-no-color", "-auto-approve")
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}
	// Its own process group: the kill takes the provisioner's shell too.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	if !poll(exited, func() bool { _, err := os.Stat(filepath.Join(dir, "provisioned-once")); return err == nil }) {
		t.Fatalf("the apply ended before its provisioner ran:\n%s", out.String())
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-exited

	statePath := filepath.Join(dir, "terraform.tfstate")
	before := stampOf(statePath)
	plan := run(t, dir, "plan", "-no-color")
	if plan.code != 0 && strings.Contains(plan.out, "no longer running") {
		// The dead apply's lock (not the subject here).
		m := unlockCmd.FindStringSubmatch(plan.out)
		if m == nil {
			t.Fatalf("stale lock without a force-unlock command:\n%s", plan.out)
		}
		if r := run(t, dir, "plan", strings.Fields(m[1])[1:]...); r.code != 0 {
			t.Fatalf("%s: exit %d\n%s", m[1], r.code, r.out)
		}
		plan = run(t, dir, "plan", "-no-color")
	}
	if plan.code != 0 {
		t.Fatalf("plan after the kill: exit %d\n%s", plan.code, plan.out)
	}
	msg := strings.Join(strings.Fields(plan.out), " ")
	for _, want := range []string{
		"were created but their provisioners did not finish, so they are marked tainted",
		"- local_file.p",
		"local_file.p is tainted, so must be replaced",
		"Plan: 1 to add, 0 to change, 1 to destroy.",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("the plan after the kill lacks %q:\n%s", want, plan.out)
		}
	}
	checkUntouched(t, "the plan after the kill", statePath, before)

	ap := run(t, dir, "apply", "-no-color", "-auto-approve")
	if ap.code != 0 {
		t.Fatalf("apply after the kill: exit %d\n%s", ap.code, ap.out)
	}
	if msg := strings.Join(strings.Fields(ap.out), " "); !strings.Contains(msg, "Recovered the state of an interrupted apply") || !strings.Contains(msg, "marked tainted") {
		t.Errorf("the apply does not report the recovery of the tainted object:\n%s", ap.out)
	}
	// The recorded step names the tainted object.
	logged, err := os.ReadFile(statePath + ".recovery.log")
	if err != nil || !bytes.Contains(logged, []byte(`"tainted":["local_file.p"]`)) {
		t.Errorf("the recovery log does not record local_file.p as tainted (%v): %s", err, logged)
	}
	clean := stampOf(statePath)
	if r := run(t, dir, "plan", "-no-color", "-detailed-exitcode"); r.code != 0 {
		t.Errorf("re-plan after the apply: exit %d, want 0\n%s", r.code, r.out)
	}
	checkUntouched(t, "the plan after a clean apply", statePath, clean)
}
