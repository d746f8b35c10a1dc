package plugin

import (
	"strings"
	"testing"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/providers/plugin/plugintest"
)

func rawMeta(t *testing.T) Meta {
	t.Helper()
	bins := plugintest.Build(t)
	pa, err := addrs.ParseProviderSourceString(plugintest.RawAddress)
	if err != nil {
		t.Fatal(err)
	}
	return Meta{Provider: pa, Version: "1.0.0", Executable: bins.Raw}
}

// TestPrestartTaken checks that the Factory call after Prestart takes the
// process started early, schema included, instead of starting another.
func TestPrestartTaken(t *testing.T) {
	m := rawMeta(t)
	before := ProcessesStarted()
	Prestart(m, Options{})
	Prestart(m, Options{}) // one is pending already: nothing more
	if n := PrestartedPending(); n != 1 {
		t.Fatalf("%d prestarted processes pending, want 1", n)
	}
	p, err := Factory(m, Options{})()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if n := PrestartedPending(); n != 0 {
		t.Errorf("%d prestarted processes pending after the Factory call, want 0", n)
	}
	s := p.GetProviderSchema()
	noErrors(t, "GetProviderSchema", s.Diagnostics)
	if _, ok := s.ResourceTypes["rawtest_thing"]; !ok {
		t.Errorf("schema lacks rawtest_thing: %v", s.ResourceTypes)
	}
	if got := ProcessesStarted() - before; got != 1 {
		t.Errorf("%d processes started, want 1", got)
	}
	// A Prestart after the take (a command's early start finishing late)
	// starts no spare.
	Prestart(m, Options{})
	if n := PrestartedPending(); n != 0 {
		t.Errorf("%d prestarted processes pending after a late Prestart, want 0", n)
	}
	// A second Factory call starts a process of its own.
	p2, err := Factory(m, Options{})()
	if err != nil {
		t.Fatal(err)
	}
	defer p2.Close()
	if pidOf(t, p) == pidOf(t, p2) {
		t.Error("two Factory calls got the same process")
	}
}

// TestPrestartOtherOptions checks that a process prestarted with other
// options (environment) is not handed to a Factory with different ones.
func TestPrestartOtherOptions(t *testing.T) {
	m := rawMeta(t)
	Prestart(m, Options{Env: []string{"RAWTEST_A=1"}})
	defer DiscardPrestarted()
	before := ProcessesStarted()
	p, err := Factory(m, Options{Env: []string{"RAWTEST_A=2"}})()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if n := PrestartedPending(); n != 1 {
		t.Errorf("%d prestarted processes pending, want 1 (not taken)", n)
	}
	if got := ProcessesStarted() - before; got < 1 {
		t.Errorf("the Factory call started no process of its own")
	}
}

// TestPrestartDiscarded checks that a prestarted process nobody takes is
// stopped by DiscardPrestarted and by CleanupClients.
func TestPrestartDiscarded(t *testing.T) {
	m := rawMeta(t)
	for _, discard := range []func(){DiscardPrestarted, CleanupClients} {
		Prestart(m, Options{})
		key, _ := prestartKey(m, Options{})
		early.mu.Lock()
		ps := early.m[key]
		early.mu.Unlock()
		<-ps.done
		if ps.err != nil {
			t.Fatal(ps.err)
		}
		pid := pidOf(t, ps.inst)
		if gone(pid) {
			t.Fatalf("prestarted process %d not running", pid)
		}
		discard()
		if n := PrestartedPending(); n != 0 {
			t.Errorf("%d prestarted processes pending after discarding", n)
		}
		waitGone(t, pid)
	}
}

// TestPrestartError checks that a prestart that fails hands its error to
// the Factory call, as a start of its own would have failed.
func TestPrestartError(t *testing.T) {
	m := rawMeta(t)
	m.Executable = t.TempDir() + "/terraform-provider-missing"
	Prestart(m, Options{})
	_, err := Factory(m, Options{})()
	if err == nil || !strings.Contains(err.Error(), "failed to start provider") {
		t.Fatalf("Factory error = %v, want the start failure", err)
	}
	if n := PrestartedPending(); n != 0 {
		t.Errorf("%d prestarted processes pending", n)
	}
}

// TestPrestartDiscardedWhileLaunching checks that CleanupClients called
// at once after Prestart, while the process is still launching (an
// interrupt or an early error of the command), waits for the launch and
// leaves no process running.
func TestPrestartDiscardedWhileLaunching(t *testing.T) {
	m := rawMeta(t)
	Prestart(m, Options{})
	key, _ := prestartKey(m, Options{})
	early.mu.Lock()
	ps := early.m[key]
	early.mu.Unlock()
	CleanupClients()
	select {
	case <-ps.launched:
	default:
		t.Fatal("CleanupClients returned before the prestarted launch ended")
	}
	if n := PrestartedPending(); n != 0 {
		t.Errorf("%d prestarted processes pending after CleanupClients", n)
	}
	live.mu.Lock()
	n := len(live.m)
	live.mu.Unlock()
	if n != 0 {
		t.Errorf("%d provider processes live after CleanupClients", n)
	}
	if ps.err != nil {
		t.Fatal(ps.err)
	}
	waitGone(t, pidOf(t, ps.inst))
}
