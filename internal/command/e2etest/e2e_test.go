// Package e2etest builds the plan and apply binaries once and runs them on
// testdata/fixtures the way a user and a CI job do: plan in one directory,
// apply the archive alone somewhere else. Human output (-no-color) and
// show -json are compared with golden files; refresh them with
//
//	go test ./command/e2etest -update
//
// and read the diff before committing. When the tests run with -race, the
// binaries are built with -race too.
package e2etest

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/internal/backend/pg/pgtest"
	"github.com/plankit/plankit/internal/backend/s3/s3test"
)

var update = flag.Bool("update", false, "rewrite golden files")

// binDir holds the plan and apply binaries built by TestMain.
var binDir string

func TestMain(m *testing.M) {
	if code, ok := rssRun(); ok {
		os.Exit(code)
	}
	flag.Parse()
	os.Exit(runMain(m))
}

func runMain(m *testing.M) int {
	dir, err := os.MkdirTemp("", "plankit-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	binDir = dir
	args := []string{"build", "-o", dir + string(os.PathSeparator)}
	if raceEnabled {
		args = append(args, "-race")
	}
	cmd := exec.Command("go", append(args, "../../../cmd/plan", "../../../cmd/apply", "../../../cmd/plan-layout")...)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building the binaries:", err)
		return 1
	}
	defer s3test.StopShared()
	return pgtest.Run(m) // m.Run, then stops the PostgreSQL server if a test started one
}

type result struct {
	stdout, stderr string
	code           int
}

// run runs a binary in dir with args and a clean environment (no TF_VAR_
// from the host), plus env.
func run(t *testing.T, dir, bin string, env []string, args ...string) result {
	t.Helper()
	cmd := command(dir, bin, env, args...)
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

func command(dir, bin string, env []string, args ...string) *exec.Cmd {
	cmd := exec.Command(filepath.Join(binDir, bin), args...)
	cmd.Dir = dir
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "TMPDIR=" + os.TempDir()}, env...)
	return cmd
}

// plan and apply run the binaries with no extra environment.
func plan(t *testing.T, dir string, args ...string) result {
	t.Helper()
	return run(t, dir, "plan", nil, args...)
}

func apply(t *testing.T, dir string, args ...string) result {
	t.Helper()
	return run(t, dir, "apply", nil, args...)
}

// fixture copies testdata/fixtures/NAME to a new temporary directory.
func fixture(t *testing.T, name string) string {
	t.Helper()
	src := filepath.Join("..", "..", "..", "testdata", "fixtures", name)
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

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// must checks the exit code and that no Go panic or stack trace reached
// the user.
func must(t *testing.T, r result, code int, what string) {
	t.Helper()
	if r.code != code {
		t.Fatalf("%s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", what, r.code, code, r.stdout, r.stderr)
	}
	noTrace(t, r, what)
}

func noTrace(t *testing.T, r result, what string) {
	t.Helper()
	for _, s := range []string{r.stdout, r.stderr} {
		if strings.Contains(s, "goroutine ") || strings.Contains(s, "panic:") || strings.Contains(s, ".go:") {
			t.Fatalf("%s: a Go panic or stack trace reached the user:\n%s", what, s)
		}
	}
}

func contains(t *testing.T, got, what string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, got)
		}
	}
}

// volatile values in outputs, in the order they are replaced.
var volatile = []struct {
	re   *regexp.Regexp
	repl string
}{
	{regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`), "$$UUID"},
	{regexp.MustCompile(`\b[0-9]{10,20}\b`), "$$NUM"},
	{regexp.MustCompile(`\b[0-9a-f]{8}\b`), "$$HEX"},
	{regexp.MustCompile(`= "[A-Za-z0-9_+/-]{6}(==)?"`), `= "$$B64"`}, // random_id's 4 bytes
	{regexp.MustCompile(`(dec +=) "[^"]*"`), `$1 "$$NUM"`},           // and in decimal (any length: 8 digits look like $HEX first)
	{regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z`), "$$TIME"},
	{regexp.MustCompile(`after \d+s`), "after $$Ns"},
	{regexp.MustCompile(`\[id=[A-Za-z0-9_+/-]{6}(==)?\]`), "[id=$$B64]"}, // random_id in "Refreshing state..."
	{regexp.MustCompile(`\b[0-9a-f]{40}\b`), "$$SHA1"},                   // local_file ids of random contents
}

// normalise replaces temporary directories (longest first) and volatile
// values so golden files are stable.
func normalise(s string, dirs ...string) string {
	for _, d := range dirs {
		s = strings.ReplaceAll(s, d, "$DIR")
	}
	for _, v := range volatile {
		s = v.re.ReplaceAllString(s, v.repl)
	}
	return sortRefreshLines(s)
}

// sortRefreshLines orders each run of progress lines ("Refreshing
// state...", "Reading...", "Read complete after"): the parallel walk prints
// them in whatever order it gets to each object. Refreshes come first, by
// address; reads follow, by address, each object's lines in the order
// printed (its "Reading..." before its "Read complete").
func sortRefreshLines(s string) string {
	lines := strings.Split(s, "\n")
	for i := 0; i < len(lines); {
		j := i
		for j < len(lines) && progressRank(lines[j]) >= 0 {
			j++
		}
		if j > i {
			run := lines[i:j]
			sort.SliceStable(run, func(a, b int) bool {
				ra, rb := progressRank(run[a]), progressRank(run[b])
				if ra != rb {
					return ra < rb
				}
				return progressAddr(run[a]) < progressAddr(run[b])
			})
			i = j
			continue
		}
		i++
	}
	return strings.Join(lines, "\n")
}

// progressRank is 0 for a refresh line, 1 for a data source read line and
// -1 for any other line.
func progressRank(line string) int {
	switch {
	case strings.Contains(line, ": Refreshing state..."):
		return 0
	case strings.Contains(line, ": Reading..."), strings.Contains(line, ": Read complete after"):
		return 1
	}
	return -1
}

func progressAddr(line string) string {
	addr, _, _ := strings.Cut(line, ": ")
	return addr
}

// golden compares got with testdata/NAME, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./command/e2etest -update, then read the diff)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s (-want +got):\n%s", name, diff)
	}
}
