//go:build crashtest

package crashtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/states/statefile"
)

// TestKillSavedApplyThenResume kills `apply FILE` at many points, then
// applies the same archive again: it must resume and complete the plan,
// leaving the state an uninterrupted apply leaves (ids aside), and then
// refuse the archive as applied.
func TestKillSavedApplyThenResume(t *testing.T) {
	s := *seed
	if s == 0 {
		s = uint64(time.Now().UnixNano())
	}
	t.Logf("seed %d", s)
	rng := rand.New(rand.NewPCG(s, 0))

	ref := newDir(t, false)
	mustRun(t, ref, "plan", "-no-color", "-out=p.tfplan")
	start := time.Now()
	mustRun(t, ref, "apply", "-no-color", "-parallelism="+strconv.Itoa(*parallelism), "p.tfplan")
	full := time.Since(start)
	want := stateObjects(t, ref)

	var ks []killer
	for _, k := range []int{1, 2, *parallelism, *resources / 3, *resources / 2, *resources - 5} {
		ks = append(ks, afterFiles(k))
	}
	for _, k := range []int{1, 3} {
		ks = append(ks, afterStateWrite(k), duringStateWrite(k))
	}
	for range max(*trials/5, 2) {
		ks = append(ks, afterDelay(time.Duration(rng.Int64N(int64(full)))))
	}
	resumed := 0
	for i, k := range ks {
		t.Run(fmt.Sprintf("%02d %s", i, k.name), func(t *testing.T) {
			dir := newDir(t, false)
			mustRun(t, dir, "plan", "-no-color", "-out=p.tfplan")
			cmd := exec.Command(filepath.Join(binDir, "apply"), "-no-color", "-parallelism="+strconv.Itoa(*parallelism), "p.tfplan")
			cmd.Dir = dir
			cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan struct{})
			go func() { cmd.Wait(); close(exited) }()
			killed := k.wait(dir, exited) && cmd.Process.Signal(syscall.SIGKILL) == nil
			<-exited

			ap := run(t, dir, "apply", "-no-color", "p.tfplan")
			if m := unlockCmd.FindStringSubmatch(ap.out); ap.code != 0 && m != nil {
				if r := run(t, dir, "plan", strings.Fields(m[1])[1:]...); r.code != 0 {
					t.Fatalf("%s: exit %d\n%s", m[1], r.code, r.out)
				}
				ap = run(t, dir, "apply", "-no-color", "p.tfplan")
			}
			applied := ap.code == 1 && strings.Contains(strings.Join(strings.Fields(ap.out), " "), "Saved plan is stale: already applied")
			if !killed || applied {
				// The apply ended, or was killed after its last change:
				// the archive is applied.
				if !applied {
					t.Fatalf("second apply of a completed archive: exit %d\n%s", ap.code, ap.out)
				}
			} else if ap.code != 0 {
				t.Fatalf("resumed apply after the kill: exit %d\n%s", ap.code, ap.out)
			} else if strings.Contains(ap.out, "Resuming plan ") {
				resumed++
			}
			if diff := cmp.Diff(want, stateObjects(t, dir)); diff != "" {
				t.Errorf("state after the resumed apply differs from an uninterrupted apply's (-want +got):\n%s", diff)
			}
			if r := run(t, dir, "plan", "-no-color", "-detailed-exitcode"); r.code != 0 {
				t.Errorf("re-plan after the resumed apply: exit %d, want 0\n%s", r.code, r.out)
			}
			again := run(t, dir, "apply", "-no-color", "p.tfplan")
			if again.code != 1 || !strings.Contains(strings.Join(strings.Fields(again.out), " "), "Saved plan is stale: already applied") {
				t.Errorf("apply of the completed archive: exit %d\n%s", again.code, again.out)
			}
		})
	}
	t.Logf("%d of %d kills resumed (the others killed before anything was recorded, or after the end)", resumed, len(ks))
	if resumed < len(ks)/2 {
		t.Errorf("only %d of %d kills led to a resume", resumed, len(ks))
	}
}

func mustRun(t *testing.T, dir, bin string, args ...string) {
	t.Helper()
	if r := run(t, dir, bin, args...); r.code != 0 {
		t.Fatalf("%s %v: exit %d\n%s", bin, args, r.code, r.out)
	}
}

// stateObjects reads the state file in dir: each instance's attributes
// with the id taken out, by address.
func stateObjects(t *testing.T, dir string) map[string]map[string]any {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := statefile.Read(bytes.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]map[string]any{}
	for _, addr := range f.State.AllResourceInstances() {
		o := f.State.ResourceInstanceObject(addr, addrs.NotDeposed)
		if o == nil {
			continue
		}
		var attrs map[string]any
		if err := json.Unmarshal(o.AttrsJSON, &attrs); err != nil {
			t.Fatal(err)
		}
		delete(attrs, "id")
		attrs["status"] = string(rune(o.Status))
		got[addr.String()] = attrs
	}
	return got
}
