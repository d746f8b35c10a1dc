package command

import (
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// phaseLine is one PLANKIT_PHASES report.
var phaseLine = regexp.MustCompile(`^plankit-phase (\S+) +wall_s=[0-9.]+ cpu_s=[0-9.]+ heap_mib=[0-9]+ live_mib=[0-9]+ peak_rss_mib=[0-9]+$`)

// phasesIn returns the phase names reported in stderr, in order, failing
// on a malformed report line.
func phasesIn(t *testing.T, stderr string) []string {
	t.Helper()
	var names []string
	for line := range strings.Lines(stderr) {
		line = strings.TrimSuffix(line, "\n")
		if !strings.HasPrefix(line, "plankit-phase ") {
			continue
		}
		m := phaseLine.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("malformed phase line %q", line)
		}
		names = append(names, m[1])
	}
	return names
}

// TestPhases: with PLANKIT_PHASES set, plan -out and apply report their
// phases in order on stderr; without it, nothing.
func TestPhases(t *testing.T) {
	dir := writeConfig(t, map[string]string{"main.tf": `resource "terraform_data" "a" { input = "x" }`})
	state := filepath.Join(dir, "s.tfstate")
	run := func(env []string, cmd func(*Meta, []string) int, args ...string) []string {
		var calls atomic.Int64
		m, _, errb := countingMeta(t, &calls)
		m.Env = env
		if code := cmd(m, args); code != 0 {
			t.Fatalf("exit %d\n%s", code, errb)
		}
		return phasesIn(t, errb.String())
	}
	on := []string{PhasesEnv + "=1"}
	pf := filepath.Join(dir, "p.tfplan")
	if got := run(nil, Plan, "-chdir="+dir, "-no-color", "-state="+state, "-out="+pf); len(got) != 0 {
		t.Fatalf("phases reported without %s: %v", PhasesEnv, got)
	}
	if got := run([]string{PhasesEnv + "="}, Plan, "-chdir="+dir, "-no-color", "-state="+state, "-out="+pf); len(got) != 0 {
		t.Fatalf("phases reported with %s empty: %v", PhasesEnv, got)
	}
	got := run(on, Plan, "-chdir="+dir, "-no-color", "-state="+state, "-out="+pf)
	if d := cmp.Diff([]string{"load", "graph", "walk", "render", "archive"}, got); d != "" {
		t.Errorf("plan -out phases (-want +got):\n%s", d)
	}
	got = run(on, Apply, "-no-color", "-state="+state, pf)
	if d := cmp.Diff([]string{"load", "graph", "walk", "state-write"}, got); d != "" {
		t.Errorf("apply phases (-want +got):\n%s", d)
	}
}
