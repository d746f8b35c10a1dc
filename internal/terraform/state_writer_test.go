package terraform

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/providers/providertest"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/states"
)

// recordingWriter is a StateWriter that records the calls per instance.
type recordingWriter struct {
	mu     sync.Mutex
	calls  map[string][]string
	failOn string // Begin of this instance fails
	closed bool
	live   *states.SyncState
}

func (w *recordingWriter) add(addr addrs.AbsResourceInstance, call string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.calls == nil {
		w.calls = map[string][]string{}
	}
	w.calls[addr.String()] = append(w.calls[addr.String()], call)
}

func (w *recordingWriter) Start(live *states.SyncState) { w.live = live }
func (w *recordingWriter) Begin(addr addrs.AbsResourceInstance, _ addrs.DeposedKey, a plans.Action) error {
	w.add(addr, "begin "+a.String())
	if addr.String() == w.failOn {
		return errors.New("disk full")
	}
	return nil
}
func (w *recordingWriter) Changed(addr addrs.AbsResourceInstance) {
	// The change is in the live state when it is announced.
	if w.live.ResourceInstance(addr) == nil {
		w.add(addr, "changed (gone)")
		return
	}
	w.add(addr, "changed")
}
func (w *recordingWriter) End(addr addrs.AbsResourceInstance) { w.add(addr, "end") }
func (w *recordingWriter) Close() error                       { w.closed = true; return nil }

// TestApplyStateWriterCalls: every provider call that changes an object is
// announced before it runs and ended after; each change is announced when
// it is in the live state; an instance with provisioners stays in flight
// until they finished; a failed Begin stops the operation before the
// provider is called.
func TestApplyStateWriterCalls(t *testing.T) {
	files := map[string]string{"main.tf": `
resource "test_thing" "plain" { name = "plain" }
resource "test_thing" "prov" {
  name = "prov"
  provisioner "local-exec" { command = "true" }
}
resource "test_thing" "bad" { name = "bad" }
resource "test_thing" "unrecorded" { name = "unrecorded" }`}
	p := newTestProvider()
	p.Inject(&providertest.Fault{Method: providertest.ApplyResourceChange, Key: "bad", Err: errors.New("nope")})
	cfg := loadConfig(t, files)
	c := testContext(t, p, 2)
	plan := mustPlan(t, c, cfg, nil, nil)
	p.ResetCalls()
	w := &recordingWriter{failOn: "test_thing.unrecorded"}
	st, diags := c.Apply(context.Background(), plan, cfg, &ApplyOpts{State: w})
	if !w.closed {
		t.Error("Close was not called")
	}
	want := map[string][]string{
		"test_thing.plain":      {"begin Create", "changed", "end"},
		"test_thing.prov":       {"begin Create", "changed", "begin Create", "end"},
		"test_thing.bad":        {"begin Create", "end"},
		"test_thing.unrecorded": {"begin Create", "end"},
	}
	if d := cmp.Diff(want, w.calls); d != "" {
		t.Errorf("state writer calls (-want +got):\n%s", d)
	}
	for _, call := range p.CallStrings(providertest.ApplyResourceChange) {
		if strings.Contains(call, "unrecorded") {
			t.Errorf("the provider was called for an operation whose start could not be recorded: %s", call)
		}
	}
	var summaries []string
	for _, d := range diags {
		summaries = append(summaries, d.Summary)
	}
	if !slices.Contains(summaries, "Failed to record the operation in the state") {
		t.Errorf("diagnostics %q lack the failed record", summaries)
	}
	if d := cmp.Diff([]string{"test_thing.plain", "test_thing.prov"}, stateNames(st)); d != "" {
		t.Errorf("final state (-want +got):\n%s", d)
	}

	// Destroying them: each destroy is announced, removed, ended.
	plan = mustPlan(t, c, cfg, st, &PlanOpts{Mode: plans.DestroyMode})
	w = &recordingWriter{}
	if _, diags := c.Apply(context.Background(), plan, cfg, &ApplyOpts{State: w}); diags.HasErrors() {
		t.Fatal(diags)
	}
	want = map[string][]string{
		"test_thing.plain": {"begin Delete", "changed (gone)", "end"},
		"test_thing.prov":  {"begin Delete", "changed (gone)", "end"},
	}
	if d := cmp.Diff(want, w.calls); d != "" {
		t.Errorf("state writer calls of the destroy (-want +got):\n%s", d)
	}
}
