//go:build linux

package plugin

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/providers/plugin/plugintest"
	"github.com/plankit/plankit/providers"
)

// pidOf returns the process id behind a plugin provider.
func pidOf(t *testing.T, p providers.Interface) int {
	t.Helper()
	switch p := p.(type) {
	case *provider5:
		return p.proc.pid
	case *provider6:
		return p.proc.pid
	}
	t.Fatalf("%T is not a plugin provider", p)
	return 0
}

// gone reports whether pid no longer runs (absent, or a zombie waiting
// for its reaper).
func gone(pid int) bool {
	if err := syscall.Kill(pid, 0); err == syscall.ESRCH {
		return true
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return os.IsNotExist(err)
	}
	// pid (comm) STATE ...
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] == 'Z' || s[i+2] == 'X'
	}
	return false
}

func waitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !gone(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("provider process %d is still running", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestCrashMidApply(t *testing.T) {
	for _, which := range []string{"fw", "sdk"} {
		t.Run(which, func(t *testing.T) {
			p, _ := testProvider(t, which)
			configure(t, p)
			typeName, addr := "fwtest_thing", plugintest.FWAddress
			if which == "sdk" {
				typeName, addr = "sdktest_thing", plugintest.SDKAddress
			}
			b := p.GetProviderSchema().ResourceTypes[typeName].Block
			null := cty.NullVal(b.ImpliedType())
			cfg := with(b, map[string]cty.Value{"name": cty.StringVal("boom"), "crash": cty.True})
			plan := p.PlanResourceChange(providers.PlanResourceChangeRequest{TypeName: typeName, PriorState: null, ProposedNewState: cfg, Config: cfg})
			noErrors(t, "plan", plan.Diagnostics)
			pid := pidOf(t, p)
			r := p.ApplyResourceChange(providers.ApplyResourceChangeRequest{TypeName: typeName, PriorState: null, PlannedState: plan.PlannedState, Config: cfg})
			if !r.Diagnostics.HasErrors() {
				t.Fatalf("apply succeeded: %#v", r.NewState)
			}
			d := r.Diagnostics[0]
			want := []string{addr, "ApplyResourceChange", "panic: " + which + "test: crash requested while creating \"boom\""}
			for _, w := range want {
				if !strings.Contains(d.Detail, w) {
					t.Errorf("diagnostic %q: %s\ndoes not mention %q", d.Summary, d.Detail, w)
				}
			}
			if d.Summary != "Provider crashed" {
				t.Errorf("summary %q", d.Summary)
			}
			if !r.NewState.RawEquals(null) {
				t.Errorf("new state after crash = %#v, want the prior state", r.NewState)
			}
			waitGone(t, pid)
			// Later calls fail cleanly and Close returns.
			if rr := p.ReadResource(providers.ReadResourceRequest{TypeName: typeName, PriorState: null}); !rr.Diagnostics.HasErrors() {
				t.Errorf("call after crash succeeded")
			}
			p.Close()
		})
	}
}

func TestCloseAndCleanupClients(t *testing.T) {
	p1, _ := testProvider(t, "fw")
	p2, _ := testProvider(t, "sdk")
	p3, _ := testProvider(t, "fw")
	pids := []int{pidOf(t, p1), pidOf(t, p2), pidOf(t, p3)}
	for _, pid := range pids {
		if gone(pid) {
			t.Fatalf("process %d not running", pid)
		}
	}
	p1.Close()
	waitGone(t, pids[0])
	CleanupClients()
	for _, pid := range pids[1:] {
		waitGone(t, pid)
	}
	CleanupClients() // idempotent
	r := p2.ImportResourceState(providers.ImportResourceStateRequest{TypeName: "sdktest_thing", ID: "x"})
	if !r.Diagnostics.HasErrors() || r.Diagnostics[0].Summary != "Provider stopped" {
		t.Errorf("call after CleanupClients: %v", r.Diagnostics)
	}
	p2.Close()
}

// TestNoOrphanWhenKilled starts a provider from a helper process (this
// test binary again), SIGKILLs the helper and checks that the provider
// dies with it.
func TestNoOrphanWhenKilled(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("Pdeathsig is Linux-only")
	}
	bins := plugintest.Build(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestOrphanHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), "PLANKIT_ORPHAN_HELPER="+bins.FW, "FWTEST_STATE_DIR="+t.TempDir())
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	sc := bufio.NewScanner(out)
	pid := 0
	for sc.Scan() {
		if s, ok := strings.CutPrefix(sc.Text(), "provider-pid "); ok {
			pid, _ = strconv.Atoi(s)
			break
		}
	}
	if pid == 0 {
		t.Fatalf("helper printed no provider pid")
	}
	if gone(pid) {
		t.Fatalf("provider %d not running", pid)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	waitGone(t, pid)
}

// TestOrphanHelper is the helper process of TestNoOrphanWhenKilled.
func TestOrphanHelper(t *testing.T) {
	exe := os.Getenv("PLANKIT_ORPHAN_HELPER")
	if exe == "" {
		t.Skip("helper process only")
	}
	pa, _ := addrs.ParseProviderSourceString(plugintest.FWAddress)
	p, err := Factory(Meta{Provider: pa, Executable: exe}, Options{})()
	if err != nil {
		t.Fatal(err)
	}
	// Make sure the start thread has long moved on before being killed.
	p.GetProviderSchema()
	fmt.Printf("provider-pid %d\n", pidOf(t, p))
	time.Sleep(time.Minute)
}
