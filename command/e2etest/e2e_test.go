// Package e2etest builds the plan and apply binaries once and runs them on
// testdata/fixtures the way CI does: plan in one directory, apply the
// archive alone somewhere else.
package e2etest

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	tfjson "github.com/hashicorp/terraform-json"
)

var update = flag.Bool("update", false, "rewrite golden files")

var binDir string

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "plankit-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	cmd := exec.Command("go", "build", "-o", dir+string(os.PathSeparator), "../../cmd/plan", "../../cmd/apply")
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building binaries:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

type result struct {
	stdout, stderr string
	code           int
}

// run runs a binary in dir with args; the environment is cleaned of
// TF_VAR_ so the host cannot leak values in.
func run(t *testing.T, dir, bin string, args ...string) result {
	t.Helper()
	cmd := exec.Command(filepath.Join(binDir, bin), args...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running %s: %v", bin, err)
	}
	return result{out.String(), errb.String(), code}
}

// fixture copies testdata/fixtures/NAME to a temp dir.
func fixture(t *testing.T, name string) string {
	t.Helper()
	src := filepath.Join("..", "..", "testdata", "fixtures", name)
	dst := t.TempDir()
	err := filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if info.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func must(t *testing.T, r result, code int, what string) {
	t.Helper()
	if r.code != code {
		t.Fatalf("%s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", what, r.code, code, r.stdout, r.stderr)
	}
	if strings.Contains(r.stderr, "goroutine ") || strings.Contains(r.stderr, "panic:") {
		t.Fatalf("%s: a Go panic reached the user:\n%s", what, r.stderr)
	}
}

// normalise replaces volatile values (temp paths, random hex, ids,
// timestamps) so golden files are stable.
func normalise(s string, dirs ...string) string {
	for _, d := range dirs {
		s = strings.ReplaceAll(s, d, "$DIR")
	}
	for _, re := range []struct{ re, repl string }{
		{`\b[0-9]{15,}\b`, "$$ID"},
		{`\b[0-9a-f]{8}\b`, "$$HEX"},
		{`"[A-Za-z0-9_-]{11}"`, `"$$B64"`},
		{`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ`, "$$TIME"},
	} {
		s = regexp.MustCompile(re.re).ReplaceAllString(s, re.repl)
	}
	return s
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./command/e2etest -update)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s (-want +got):\n%s", name, diff)
	}
}

// TestTwoStepWorkflow is the CI recipe: plan with -out in one directory,
// apply the archive alone in another with -state, re-plan to no changes,
// refuse a stale plan, destroy.
func TestTwoStepWorkflow(t *testing.T) {
	work := fixture(t, "e2e-basic")
	elsewhere := t.TempDir()
	outDir := t.TempDir()
	state := filepath.Join(elsewhere, "prod.tfstate")
	vars := []string{"-var", "out_dir=" + outDir}

	r := run(t, work, "plan", append([]string{"-no-color", "-out=first.tfplan", "-state=" + state, "-detailed-exitcode"}, vars...)...)
	must(t, r, 2, "first plan")
	golden(t, "basic-plan.txt", normalise(r.stdout, work, outDir, elsewhere))

	show := run(t, work, "plan", "show", "-no-color", "first.tfplan")
	must(t, show, 0, "plan show")
	if !strings.Contains(r.stdout, strings.TrimSpace(strings.SplitN(show.stdout, "Plan:", 2)[0])) {
		t.Errorf("plan show differs from plan output:\n%s", show.stdout)
	}
	js := run(t, work, "plan", "show", "-json", "first.tfplan")
	must(t, js, 0, "plan show -json")
	var tp tfjson.Plan
	if err := json.Unmarshal([]byte(js.stdout), &tp); err != nil {
		t.Fatalf("tfjson cannot read show -json: %v", err)
	}
	if err := tp.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(tp.ResourceChanges) != 5 {
		t.Errorf("resource_changes = %d, want 5", len(tp.ResourceChanges))
	}
	var pretty bytes.Buffer
	_ = json.Indent(&pretty, []byte(js.stdout), "", "  ")
	golden(t, "basic-show.json", normalise(pretty.String(), work, outDir, elsewhere))

	copyFile(t, filepath.Join(work, "first.tfplan"), filepath.Join(elsewhere, "first.tfplan"))
	ap := run(t, elsewhere, "apply", "-no-color", "-state="+state, "first.tfplan")
	must(t, ap, 0, "apply")
	if !strings.Contains(ap.stdout, "Apply complete! Resources: 5 added, 0 changed, 0 destroyed.") || !strings.Contains(ap.stdout, "token = <sensitive>") {
		t.Errorf("apply output:\n%s", ap.stdout)
	}
	if b, err := os.ReadFile(filepath.Join(outDir, "out.txt")); err != nil || string(b) != "a,b" {
		t.Errorf("local_file: %q, %v", b, err)
	}

	again := run(t, work, "plan", append([]string{"-no-color", "-state=" + state, "-detailed-exitcode"}, vars...)...)
	must(t, again, 0, "re-plan")
	if !strings.Contains(again.stdout, "No changes.") {
		t.Errorf("re-plan:\n%s", again.stdout)
	}

	// A plan made before the state moved is refused before any provider call.
	r = run(t, work, "plan", append([]string{"-out=second.tfplan", "-state=" + state, "-var", "names=[\"a\"]"}, vars...)...)
	must(t, r, 0, "second plan")
	r = run(t, work, "plan", append([]string{"-out=third.tfplan", "-state=" + state, "-var", "names=[\"a\",\"b\",\"c\"]"}, vars...)...)
	must(t, r, 0, "third plan")
	must(t, run(t, work, "apply", "-state="+state, "third.tfplan"), 0, "apply third")
	stale := run(t, work, "apply", "-no-color", "-state="+state, "second.tfplan")
	must(t, stale, 1, "stale apply")
	if !strings.Contains(stale.stderr, "stale") {
		t.Errorf("stale apply stderr:\n%s", stale.stderr)
	}
	other := run(t, work, "apply", "-no-color", "-state="+filepath.Join(t.TempDir(), "other.tfstate"), "second.tfplan")
	must(t, other, 1, "apply to another state")

	d := run(t, work, "plan", append([]string{"-destroy", "-out=destroy.tfplan", "-state=" + state}, vars...)...)
	must(t, d, 0, "destroy plan")
	da := run(t, work, "apply", "-no-color", "-state="+state, "destroy.tfplan")
	must(t, da, 0, "destroy apply")
	if _, err := os.Stat(filepath.Join(outDir, "out.txt")); !os.IsNotExist(err) {
		t.Errorf("local_file still exists after destroy: %v", err)
	}
	empty := run(t, work, "plan", append([]string{"-no-color", "-state=" + state, "-detailed-exitcode", "-destroy"}, vars...)...)
	must(t, empty, 0, "plan after destroy")
}

// TestBadInput checks that user mistakes give diagnostics with file and
// line and exit 1, never a stack trace.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte("resource \"null_resource\" \"a\" {\n  triggers = var.nope\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := run(t, dir, "plan", "-no-color")
	must(t, r, 1, "plan with bad reference")
	if !strings.Contains(r.stderr, "main.tf line 2") {
		t.Errorf("diagnostic lacks file:line:\n%s", r.stderr)
	}
	must(t, run(t, dir, "apply", "-no-color", "missing.tfplan"), 1, "apply missing file")
	must(t, run(t, dir, "plan", "-bogus-flag"), 1, "unknown flag")
	if err := os.WriteFile(filepath.Join(dir, "junk.tfplan"), []byte("not a zip"), 0o644); err != nil {
		t.Fatal(err)
	}
	must(t, run(t, dir, "plan", "show", "junk.tfplan"), 1, "show junk")
	must(t, run(t, dir, "apply", "-auto-approve=false"), 1, "apply without approval and no tty")
}

// TestJSONStream checks plan -json emits one object per line with the
// machine-readable UI's fields.
func TestJSONStream(t *testing.T) {
	work := fixture(t, "e2e-basic")
	r := run(t, work, "plan", "-json", "-var", "out_dir="+t.TempDir(), "-state="+filepath.Join(t.TempDir(), "s.tfstate"))
	must(t, r, 0, "plan -json")
	types := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var msg map[string]any
		if err := json.Unmarshal([]byte(line), &msg); err != nil {
			t.Fatalf("not JSON: %q", line)
		}
		for _, k := range []string{"@level", "@message", "@module", "@timestamp", "type"} {
			if _, ok := msg[k]; !ok {
				t.Errorf("line lacks %s: %s", k, line)
			}
		}
		types[msg["type"].(string)]++
	}
	if types["version"] != 1 || types["planned_change"] != 5 || types["change_summary"] != 1 {
		t.Errorf("message types = %v", types)
	}
}

// TestInterruptedApply sends SIGINT while a provisioner is in flight: the
// apply exits non-zero, the state records what completed, and a re-plan
// continues from there.
func TestInterruptedApply(t *testing.T) {
	work := fixture(t, "e2e-interrupt")
	ctl := t.TempDir()
	ready, release := filepath.Join(ctl, "ready"), filepath.Join(ctl, "release")
	state := filepath.Join(ctl, "s.tfstate")
	vars := []string{"-var", "ready=" + ready, "-var", "release=" + release, "-state=" + state}
	must(t, run(t, work, "plan", append([]string{"-out=p.tfplan"}, vars...)...), 0, "plan")

	cmd := exec.Command(filepath.Join(binDir, "apply"), "-no-color", "-state="+state, "p.tfplan")
	cmd.Dir = work
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, err := os.Stat(ready); err == nil {
			break
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			t.Fatalf("provisioner never started\n%s\n%s", out.String(), errb.String())
		}
		time.Sleep(20 * time.Millisecond) // polling the filesystem, not synchronising goroutines
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	// Let the in-flight operation finish once the interrupt is delivered.
	if err := os.WriteFile(release, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() == 0 {
		t.Fatalf("interrupted apply exited %v, want non-zero\n%s\n%s", err, out.String(), errb.String())
	}
	st, err := os.ReadFile(state)
	if err != nil {
		t.Fatalf("no state after interrupt: %v", err)
	}
	var sf struct {
		Resources []struct{ Name string } `json:"resources"`
	}
	if err := json.Unmarshal(st, &sf); err != nil {
		t.Fatalf("state is not valid JSON: %v", err)
	}
	names := map[string]bool{}
	for _, r := range sf.Resources {
		names[r.Name] = true
	}
	if !names["first"] || names["after"] {
		t.Errorf("state after interrupt holds %v: want first (and maybe slow), not after", names)
	}
	// The next plan picks up where the apply stopped.
	r := run(t, work, "plan", append([]string{"-no-color", "-detailed-exitcode"}, vars...)...)
	must(t, r, 2, "plan after interrupt")
	if !strings.Contains(r.stdout, "null_resource.after will be created") {
		t.Errorf("plan after interrupt:\n%s", r.stdout)
	}
}
