package e2etest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// reviewSecret is planted in the configuration as a sensitive variable's
// value; no review output may print it.
const reviewSecret = "planted-secret-4711"

// reviewPlan writes a configuration of built-in terraform_data resources
// (n of them, each carrying the sensitive variable) in a new directory,
// plans it into p.tfplan there and returns the directory.
func reviewPlan(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	var b strings.Builder
	fmt.Fprintf(&b, "variable \"token\" {\n  type      = string\n  sensitive = true\n  default   = %q\n}\n", reviewSecret)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "resource \"terraform_data\" \"r%d\" {\n  input = { token = var.token, name = \"resource-%d\", pad = %q }\n}\n", i, i, strings.Repeat("x", 40))
	}
	b.WriteString("output \"tok\" {\n  value     = var.token\n  sensitive = true\n}\n")
	writeFile(t, filepath.Join(dir, "main.tf"), b.String())
	must(t, plan(t, dir, "-no-color", "-input=false", "-out=p.tfplan"), 0, "plan")
	return dir
}

// TestShowMarkdown: plan show -format=markdown of one archive and of two
// (one summary naming both), without the planted secret; past -max-bytes
// diffs are left out and the text says so.
func TestShowMarkdown(t *testing.T) {
	a, b := reviewPlan(t, 2), reviewPlan(t, 3)
	pa, pb := filepath.Join(a, "p.tfplan"), filepath.Join(b, "p.tfplan")

	r := plan(t, a, "show", "-format=markdown", "p.tfplan")
	must(t, r, 0, "show -format=markdown")
	contains(t, r.stdout, "markdown", "## Plan review", "`p.tfplan`", "| create | 2 |", "<details>", "terraform_data.r1", "Signature: unsigned")
	if strings.Contains(r.stdout, reviewSecret) {
		t.Errorf("the markdown prints the sensitive value:\n%s", r.stdout)
	}

	r = plan(t, a, "show", "-format=markdown", pa, pb)
	must(t, r, 0, "show -format=markdown of two archives")
	contains(t, r.stdout, "markdown of two", "### `"+pa+"`", "### `"+pb+"`", "terraform_data.r2")
	if strings.Count(r.stdout, "## Plan review") != 1 {
		t.Errorf("two archives do not make one summary:\n%s", r.stdout)
	}

	big := reviewPlan(t, 60)
	full := plan(t, big, "show", "-format=markdown", "p.tfplan")
	must(t, full, 0, "show -format=markdown of 60 changes")
	r = plan(t, big, "show", "-format=markdown", "-max-bytes=6000", "p.tfplan")
	must(t, r, 0, "show -format=markdown -max-bytes=6000")
	if len(r.stdout) > 6000 || len(r.stdout) >= len(full.stdout) {
		t.Errorf("-max-bytes=6000 gives %d bytes (without it %d)", len(r.stdout), len(full.stdout))
	}
	contains(t, r.stdout, "limited markdown", "to fit in 6000 bytes, this summary leaves out the diffs of", "`plan show p.tfplan`")

	r = plan(t, big, "show", "-format=markdown", "-max-bytes=50", "p.tfplan")
	must(t, r, 1, "show -format=markdown -max-bytes=50")
	contains(t, strings.Join(strings.Fields(r.stderr), " "), "too small a limit", "more than the limit of 50", "raise the limit (-max-bytes)")
}

// TestShowHTML: plan show -format=html writes one self-contained page
// (nothing fetched from the network) with every change and without the
// planted secret.
func TestShowHTML(t *testing.T) {
	dir := reviewPlan(t, 3)
	r := plan(t, dir, "show", "-format=html", "p.tfplan")
	must(t, r, 0, "show -format=html")
	contains(t, r.stdout, "html", "<html", "terraform_data.r0", "terraform_data.r2", "<svg")
	if m := regexp.MustCompile(`(?i)(src|href)\s*=\s*["']?(https?:)?//`).FindString(r.stdout); m != "" {
		t.Errorf("the report loads %q from the network", m)
	}
	if strings.Contains(r.stdout, reviewSecret) {
		t.Error("the report prints the sensitive value")
	}
}

// TestShowHTMLWithoutLayoutProgram: the graph is drawn by the plan-layout
// program beside plan (go build ./cmd/... builds it); a plan without it,
// and without it on PATH, refuses the report naming the program and how
// to build it, instead of writing a page without its graph. Markdown
// needs no layout.
func TestShowHTMLWithoutLayoutProgram(t *testing.T) {
	dir := reviewPlan(t, 2)
	alone := t.TempDir()
	copyFile(t, filepath.Join(binDir, "plan"), filepath.Join(alone, "plan"))
	if err := os.Chmod(filepath.Join(alone, "plan"), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(alone, "plan"), "show", "-format=html", "p.tfplan")
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + alone, "HOME=" + os.Getenv("HOME"), "TMPDIR=" + os.TempDir()}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Fatalf("plan show -format=html without plan-layout: %v, want exit status 1\nstderr: %s", err, errb.String())
	}
	contains(t, strings.Join(strings.Fields(errb.String()), " "), "stderr", "needs the plan-layout program", "go build -o bin/ ./cmd/...", "PLANKIT_LAYOUT")

	cmd = exec.Command(filepath.Join(alone, "plan"), "show", "-format=markdown", "p.tfplan")
	cmd.Dir, cmd.Env = dir, []string{"PATH=" + alone, "HOME=" + os.Getenv("HOME"), "TMPDIR=" + os.TempDir()}
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("markdown without plan-layout: %v\n%s", err, b)
	}
}

// TestShowJSONRedact: plan show -json prints the sensitive variable's
// value (as Terraform's does); -redact replaces it.
func TestShowJSONRedact(t *testing.T) {
	dir := reviewPlan(t, 1)
	r := plan(t, dir, "show", "-json", "p.tfplan")
	must(t, r, 0, "show -json")
	if !strings.Contains(r.stdout, reviewSecret) {
		t.Fatalf("show -json does not carry the planted value, so -redact is not tested:\n%s", r.stdout)
	}
	r = plan(t, dir, "show", "-json", "-redact", "p.tfplan")
	must(t, r, 0, "show -json -redact")
	if strings.Contains(r.stdout, reviewSecret) {
		t.Errorf("show -json -redact prints the sensitive value:\n%s", r.stdout)
	}
	contains(t, r.stdout, "redacted JSON", `"(sensitive value)"`, `"resource_changes"`)
}

// TestShowDetailedExitcode: -detailed-exitcode exits 2 for a plan with
// changes and 0 for one without, in every output format.
func TestShowDetailedExitcode(t *testing.T) {
	changes := reviewPlan(t, 1)
	none := t.TempDir()
	writeFile(t, filepath.Join(none, "main.tf"), "locals {\n  x = 1\n}\n")
	must(t, plan(t, none, "-no-color", "-input=false", "-out=p.tfplan"), 0, "plan without changes")
	for _, args := range [][]string{{}, {"-json"}, {"-json", "-redact"}, {"-format=markdown"}, {"-format=html"}} {
		t.Run(strings.Join(append([]string{"show"}, args...), " "), func(t *testing.T) {
			with := append(append([]string{"show", "-detailed-exitcode"}, args...), "p.tfplan")
			must(t, plan(t, changes, with...), 2, "with changes")
			must(t, plan(t, none, with...), 0, "without changes")
			must(t, plan(t, changes, append(append([]string{"show"}, args...), "p.tfplan")...), 0, "with changes, without -detailed-exitcode")
		})
	}
}

// TestShowUsageErrors: options that do not go together are usage errors
// (exit 1) saying what is wrong, before any file is read.
func TestShowUsageErrors(t *testing.T) {
	dir := reviewPlan(t, 1)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-redact", "p.tfplan"}, "-redact applies to -json only"},
		{[]string{"-format=pdf", "p.tfplan"}, "-format=pdf is not a format"},
		{[]string{"-json", "-format=markdown", "p.tfplan"}, "-json and -format cannot be used together"},
		{[]string{"-max-bytes=100", "p.tfplan"}, "-max-bytes applies to -format=markdown only"},
		{[]string{"-format=markdown", "-max-bytes=0", "p.tfplan"}, "must be a positive number"},
		{[]string{"p.tfplan", "p.tfplan"}, "exactly one plan file"},
		{[]string{"-json", "p.tfplan", "p.tfplan"}, "exactly one plan file"},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			r := plan(t, dir, append([]string{"show"}, tt.args...)...)
			must(t, r, 1, "show")
			contains(t, r.stderr, "usage error", tt.want, "Run with -help for usage.")
			if r.stdout != "" {
				t.Errorf("stdout:\n%s", r.stdout)
			}
		})
	}
}
