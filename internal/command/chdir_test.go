package command

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/plankit/plankit/internal/states/statemgr"
)

// TestEverySubcommandTakesChdir: every command of the plan binary, and
// apply, takes -chdir before its name and after it (after each word of a
// two-word subcommand: "plan state -chdir=DIR list", "plan state list
// -chdir=DIR"), and then works in that directory: each case's output
// comes from the directory's configuration, state or files, while the
// test process's directory is elsewhere.
func TestEverySubcommandTakesChdir(t *testing.T) {
	const lockID = "5d1c0a6e-0000-4000-8000-00000000beef"
	tests := []struct {
		words   []string // the command's name, -chdir goes before or after each word
		rest    []string
		prepare func(t *testing.T, dir string)
		code    int
		want    string // in stdout
	}{
		{words: nil, rest: []string{"-detailed-exitcode", "-no-color"}, code: ExitOK, want: "No changes."},
		{words: []string{"init"}, code: ExitOK, want: "successfully initialized"},
		{words: []string{"validate"}, code: ExitOK, want: "Success! The configuration is valid."},
		{words: []string{"providers"}, code: ExitOK, want: "terraform.io/builtin/terraform"},
		{words: []string{"show"}, rest: []string{"-no-color", "destroy.tfplan"}, code: ExitOK, want: "terraform_data.a will be destroyed"},
		{words: []string{"diff"}, rest: []string{"-no-color", "destroy.tfplan", "noop.tfplan"}, code: 2, want: "terraform_data.a: delete in destroy.tfplan"},
		{words: []string{"graph"}, code: ExitOK, want: "terraform_data.a"},
		{words: []string{"output"}, code: ExitOK, want: `o = "v"`},
		{words: []string{"state", "list"}, code: ExitOK, want: "terraform_data.a"},
		{words: []string{"state", "show"}, rest: []string{"terraform_data.a"}, code: ExitOK, want: "# terraform_data.a:"},
		{words: []string{"state", "pull"}, code: ExitOK, want: `"lineage"`},
		{words: []string{"state", "push"}, rest: []string{"copy.tfstate"}, code: ExitOK,
			prepare: func(t *testing.T, dir string) { copyTestFile(t, dir, "terraform.tfstate", "copy.tfstate") }},
		{words: []string{"state", "mv"}, rest: []string{"terraform_data.a", "terraform_data.b"}, code: ExitOK, want: "Successfully moved 1 object(s)."},
		{words: []string{"state", "rm"}, rest: []string{"terraform_data.a"}, code: ExitOK, want: "Removed terraform_data.a"},
		{words: []string{"workspace", "list"}, code: ExitOK, want: "  blue"},
		{words: []string{"workspace", "show"}, code: ExitOK, want: "default"},
		{words: []string{"workspace", "new"}, rest: []string{"green"}, code: ExitOK, want: `Created and switched to workspace "green"`},
		{words: []string{"workspace", "select"}, rest: []string{"blue"}, code: ExitOK, want: `Switched to workspace "blue"`},
		{words: []string{"workspace", "delete"}, rest: []string{"blue"}, code: ExitOK, want: `Deleted workspace "blue"`},
		{words: []string{"force-unlock"}, rest: []string{"-force", lockID}, code: ExitOK, want: "successfully unlocked",
			prepare: func(t *testing.T, dir string) {
				info := &statemgr.LockInfo{ID: lockID, Operation: "OperationTypeApply", Who: "ci@elsewhere.example", Path: "terraform.tfstate"}
				writeTestFile(t, filepath.Join(dir, ".terraform.tfstate.lock.info"), string(info.Marshal()))
			}},
		{words: []string{"fmt"}, rest: []string{"-check"}, code: 3, want: "ugly.tf"},
		{words: []string{"version"}, code: ExitOK, want: "plankit v" + Version},
	}
	for _, tt := range tests {
		for pos := 0; pos <= len(tt.words); pos++ {
			name := strings.Join(slices.Insert(slices.Clone(tt.words), pos, "-chdir"), " ")
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				dir := chdirFixture(t)
				if tt.prepare != nil {
					tt.prepare(t, dir)
				}
				args := slices.Insert(slices.Clone(tt.words), pos, "-chdir="+dir)
				m, out, errb := countingMeta(t, new(atomic.Int64))
				code := Plan(m, append(args, tt.rest...))
				if code != tt.code || !strings.Contains(out.String(), tt.want) {
					t.Fatalf("plan %s: exit %d, want %d with %q in stdout\nstdout:\n%s\nstderr:\n%s", strings.Join(append(args, tt.rest...), " "), code, tt.code, tt.want, out, errb)
				}
			})
		}
	}
	// apply takes -chdir among its options (a plan file comes last).
	for _, args := range [][]string{{"-chdir=DIR", "-no-color", "destroy.tfplan"}, {"-no-color", "-chdir=DIR", "destroy.tfplan"}} {
		t.Run("apply "+strings.Join(args, " "), func(t *testing.T) {
			t.Parallel()
			dir := chdirFixture(t)
			args := slices.Clone(args)
			args[slices.Index(args, "-chdir=DIR")] = "-chdir=" + dir
			m, out, errb := countingMeta(t, new(atomic.Int64))
			if code := Apply(m, args); code != ExitOK || !strings.Contains(out.String(), "Apply complete! Resources: 0 added, 0 changed, 1 destroyed.") {
				t.Fatalf("apply: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errb)
			}
		})
	}
}

// chdirFixture is a directory with a configuration, its applied state,
// a destroy plan and a no-op plan, a workspace "blue" besides the
// selected default, and an unformatted file.
func chdirFixture(t *testing.T) string {
	t.Helper()
	dir := writeConfig(t, map[string]string{
		"main.tf": "resource \"terraform_data\" \"a\" {\n  input = \"x\"\n}\n\noutput \"o\" {\n  value = \"v\"\n}\n",
		"ugly.tf": "locals {\n  a   = 1\n}\n",
	})
	for _, step := range [][]string{
		{"apply", "-auto-approve"},
		{"plan", "-destroy", "-out=destroy.tfplan"},
		{"plan", "-out=noop.tfplan"},
		{"plan", "workspace", "new", "blue"},
		{"plan", "workspace", "select", "default"},
	} {
		m, out, errb := countingMeta(t, new(atomic.Int64))
		run := Plan
		if step[0] == "apply" {
			run = Apply
		}
		if code := run(m, append([]string{"-chdir=" + dir}, step[1:]...)); code != ExitOK {
			t.Fatalf("%s: exit %d\n%s\n%s", strings.Join(step, " "), code, out, errb)
		}
	}
	return dir
}

func copyTestFile(t *testing.T, dir, from, to string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, from))
	if err != nil {
		t.Fatal(err)
	}
	writeTestFile(t, filepath.Join(dir, to), string(b))
}

func writeTestFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
