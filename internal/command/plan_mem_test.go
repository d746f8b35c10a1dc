package command

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"weak"

	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/planfile"
)

// phaseProbe is a Stderr that runs probe when a PLANKIT_PHASES line for
// phase is written.
type phaseProbe struct {
	bytes.Buffer
	phase string
	probe func()
}

func (p *phaseProbe) Write(b []byte) (int, error) {
	if strings.HasPrefix(string(b), "plankit-phase "+p.phase+" ") {
		p.probe()
	}
	return p.Buffer.Write(b)
}

// TestPlanFreesConfigBeforeRender: once the walk is done, plan -out keeps
// nothing of the configuration's decoded tree (the largest part of the
// heap of a big configuration) while it renders and writes the archive,
// and the archive still carries the configuration's files. Apply without
// a plan file keeps the tree: it applies with it.
func TestPlanFreesConfigBeforeRender(t *testing.T) {
	const src = `resource "terraform_data" "a" { input = "x" }` + "\n"
	dir := writeConfig(t, map[string]string{"main.tf": src})
	var tree weak.Pointer[configs.Config]
	configLoadedHook = func(c *configs.Config) { tree = weak.Make(c) }
	t.Cleanup(func() { configLoadedHook = nil })

	var calls atomic.Int64
	m, _, _ := countingMeta(t, &calls)
	m.Env = []string{PhasesEnv + "=1"}
	var alive []bool
	stderr := &phaseProbe{phase: "render", probe: func() {
		runtime.GC()
		alive = append(alive, tree.Value() != nil)
	}}
	m.Stderr = stderr
	pf := filepath.Join(dir, "p.tfplan")
	if code := Plan(m, []string{"-chdir=" + dir, "-no-color", "-state=" + filepath.Join(dir, "s.tfstate"), "-out=" + pf}); code != 0 {
		t.Fatalf("plan exit %d\n%s", code, stderr.String())
	}
	if len(alive) != 1 || alive[0] {
		t.Errorf("configuration tree reachable after rendering: %v (want [false])", alive)
	}
	r, err := planfile.Open(pf)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	snap, err := r.ReadConfigSnapshot()
	if err != nil {
		t.Fatal(err)
	}
	if got := string(snap.Modules[""].Files["main.tf"]); got != src {
		t.Errorf("archive's main.tf = %q, want %q", got, src)
	}

	// apply without a plan file gets the tree from the plan step.
	var f planFlags
	fs := newFlagSetT("plan", &bytes.Buffer{}, planUsage)
	f.register(fs, dir)
	m2, _, errb := countingMeta(t, &calls)
	if _, ok := fs.parse(m2, []string{"-state=" + filepath.Join(dir, "s2.tfstate")}); !ok {
		t.Fatal("flags refused")
	}
	f.inline = true
	res := runPlan(m2, newUI(m2.Streams, false, true), dir, &f)
	if res.code != ExitOK || res.config == nil {
		t.Fatalf("inline plan: exit %d, config %v\n%s", res.code, res.config, errb)
	}
}

// TestPlanArchiveErrorAfterRender: the archive is written while the plan
// is rendered, but a failure to write it is still reported after the
// whole rendered plan, the command fails and no archive is left; an
// incomplete plan is not saved at all.
func TestPlanArchiveErrorAfterRender(t *testing.T) {
	dir := writeConfig(t, map[string]string{"main.tf": `resource "terraform_data" "a" { input = "x" }` + "\n"})
	blocker := filepath.Join(dir, "file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var calls atomic.Int64
	m, out, errb := countingMeta(t, &calls)
	pf := filepath.Join(blocker, "p.tfplan") // under a file: cannot be created
	if code := Plan(m, []string{"-chdir=" + dir, "-no-color", "-state=" + filepath.Join(dir, "s.tfstate"), "-out=" + pf}); code != ExitError {
		t.Fatalf("exit %d, want %d\n%s%s", code, ExitError, out, errb)
	}
	all := out.String() + errb.String()
	render, fail := strings.Index(all, "Plan: 1 to add"), strings.Index(all, "Failed to write plan file")
	if render < 0 || fail < 0 || fail < render {
		t.Fatalf("want the rendered plan, then the write error:\n%s", all)
	}
	if strings.Contains(all, "Saved the plan") {
		t.Fatalf("a failed write reported as saved:\n%s", all)
	}

	bad := writeConfig(t, map[string]string{"main.tf": `resource "terraform_data" "a" { input = nonexistent.x }` + "\n"})
	pf = filepath.Join(bad, "p.tfplan")
	m, out, errb = countingMeta(t, &calls)
	if code := Plan(m, []string{"-chdir=" + bad, "-no-color", "-state=" + filepath.Join(bad, "s.tfstate"), "-out=" + pf}); code != ExitError {
		t.Fatalf("exit %d, want %d\n%s%s", code, ExitError, out, errb)
	}
	if _, err := os.Stat(pf); !os.IsNotExist(err) {
		t.Fatalf("a failed plan left an archive (stat: %v)", err)
	}
}
