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
	cmd := exec.Command("go", "build", "-o", dir+string(os.PathSeparator), "../../cmd/plan", "../../cmd/apply")
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

// config is count local_file instances writing out/f<i>.txt.
func config(n int) string {
	return fmt.Sprintf(`resource "local_file" "f" {
  count    = %d
  filename = "${path.module}/out/f${count.index}.txt"
  content  = "file ${count.index}\n"
}
`, n)
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
}

func TestKillApply(t *testing.T) {
	s := *seed
	if s == 0 {
		s = uint64(time.Now().UnixNano())
	}
	t.Logf("seed %d", s)
	rng := rand.New(rand.NewPCG(s, 0))

	// One undisturbed apply measures how long the creates take here.
	calib := newDir(t)
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

	var got []outcome
	for i, k := range ks {
		t.Run(fmt.Sprintf("%02d %s", i, k.name), func(t *testing.T) {
			got = append(got, killOnce(t, k))
		})
	}
	var sum, most, n int
	var dist []int
	for _, o := range got {
		if !o.killed {
			continue
		}
		n++
		sum += o.unrecorded
		most = max(most, o.unrecorded)
		dist = append(dist, o.unrecorded)
	}
	slices.Sort(dist)
	if n > 0 {
		t.Logf("objects the state is wrong about per kill (created and unrecorded, or destroyed and still recorded) over %d kills: mean %.2f, max %d (parallelism %d); sorted: %v", n, float64(sum)/float64(n), most, *parallelism, dist)
	}
	if n < len(ks)/2 {
		t.Errorf("only %d of %d trials killed the apply before it ended", n, len(ks))
	}
}

func newDir(t *testing.T) string {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(config(*resources)), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

var (
	unlockCmd = regexp.MustCompile(`(?m)^\s*(plan force-unlock .*)$`)
	inFlight  = regexp.MustCompile(`local_file\.f\[(\d+)\]`)
)

// killOnce runs one apply, kills it when k says, and checks what is left.
func killOnce(t *testing.T, k killer) outcome {
	dir := newDir(t)
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

	// The state on disk, if any, parses.
	if src, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate")); err == nil {
		if _, err := statefile.Read(bytes.NewReader(src)); err != nil && !errors.Is(err, statefile.ErrNoState) {
			t.Errorf("the state left by the kill does not parse: %v", err)
		}
	}

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

	// What the state knows now (the next plankit command folded in what
	// the killed run recorded) against the files on disk.
	recorded := map[int]bool{}
	if src, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate")); err == nil {
		f, err := statefile.Read(bytes.NewReader(src))
		if err != nil && !errors.Is(err, statefile.ErrNoState) {
			t.Fatalf("the state after plan does not parse: %v", err)
		}
		if f != nil {
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
		}
	}
	files := map[int]bool{}
	es, _ := os.ReadDir(filepath.Join(dir, "out"))
	for _, e := range es {
		idx, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(e.Name(), "f"), ".txt"))
		if err != nil {
			t.Fatalf("unexpected file out/%s", e.Name())
		}
		files[idx] = true
	}
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
	t.Logf("killed=%v files=%d recorded=%d unrecorded=%d named in flight=%d", killed, len(files), len(recorded), len(unrecorded), len(named))

	// The follow-up apply converges to a clean re-plan, and nothing is
	// left behind.
	if r := run(t, dir, "apply", "-no-color", "next.tfplan"); r.code != 0 {
		t.Fatalf("follow-up apply: exit %d\n%s", r.code, r.out)
	}
	if r := run(t, dir, "plan", "-no-color", "-detailed-exitcode"); r.code != 0 {
		t.Errorf("re-plan after the follow-up apply: exit %d, want 0 (no changes)\n%s", r.code, r.out)
	}
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
	return outcome{killed: killed, unrecorded: len(unrecorded) + gone}
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
