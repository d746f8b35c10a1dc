package command

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// interruptAfterGraph is a Stderr that sends an interrupt when the core
// reports its graph built (PLANKIT_PHASES), before the walk, and lets
// the core go on only once the interrupt has cancelled the run (the
// watcher cancels, then says so on Stderr).
type interruptAfterGraph struct {
	mu        sync.Mutex
	buf       bytes.Buffer
	ints      chan struct{}
	cancelled chan struct{}
	sent      bool
}

func (w *interruptAfterGraph) Write(b []byte) (int, error) {
	switch {
	case strings.HasPrefix(string(b), "plankit-phase graph ") && !w.sent:
		w.sent = true
		w.ints <- struct{}{}
		<-w.cancelled
	case strings.Contains(string(b), "Interrupt received"):
		close(w.cancelled)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.Write(b)
}

// TestPlanOutInterruptedBeforeWalk: a plan -out interrupted once the
// show -json members are being made (they start when the schemas are
// loaded, before the graph) ends as an interrupted plan does: an error,
// no archive, and the members' goroutine finishes without effect.
func TestPlanOutInterruptedBeforeWalk(t *testing.T) {
	var src strings.Builder
	for i := range 200 {
		fmt.Fprintf(&src, "resource \"terraform_data\" \"r%d\" {\n  input = \"v%d\"\n}\n", i, i)
	}
	dir := writeConfig(t, map[string]string{"main.tf": src.String()})
	ints := make(chan struct{}, 1)
	stderr := &interruptAfterGraph{ints: ints, cancelled: make(chan struct{})}
	m, out, _ := countingMeta(t, new(atomic.Int64))
	m.Stderr, m.Interrupts, m.Env = stderr, ints, []string{PhasesEnv + "=1"}
	pf := filepath.Join(dir, "p.tfplan")
	code := Plan(m, []string{"-chdir=" + dir, "-no-color", "-state=" + filepath.Join(dir, "s.tfstate"), "-out=" + pf})
	stderr.mu.Lock()
	errs := stderr.buf.String()
	stderr.mu.Unlock()
	if code != ExitError || !stderr.sent || !strings.Contains(errs, "Operation cancelled") {
		t.Fatalf("exit %d (want %d), interrupt sent %v\nstdout:\n%s\nstderr:\n%s", code, ExitError, stderr.sent, out, errs)
	}
	if _, err := os.Stat(pf); !os.IsNotExist(err) {
		t.Errorf("an interrupted plan left an archive (stat: %v)", err)
	}
}
