package command_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/internal/command"
	"github.com/plankit/plankit/internal/command/views"
	"github.com/plankit/plankit/internal/operation"
	"github.com/plankit/plankit/internal/providers/builtin"
	"github.com/plankit/plankit/jsonplan"
	"github.com/plankit/plankit/planfile"
	"github.com/plankit/plankit/planfile/planfiletest"
)

// TestShowJSONStoredSectionsMatchSnapshot: for every fixture that plans
// with the built-in providers, plan -out stores the show -json members
// made from the configuration (planfile.EntryShowJSON), and show -json,
// which copies them, prints the very document jsonplan makes from the
// archive's configuration snapshot: the stored members are what parsing
// the snapshot gives, modules, variables, outputs, checks, provisioners,
// imports, JSON and .tofu files, overrides and OpenTofu states included,
// and destroy and refresh-only plans of the fixtures with a state.
func TestShowJSONStoredSectionsMatchSnapshot(t *testing.T) {
	type fixtureCase struct{ name, mode string }
	var cases []fixtureCase
	for _, name := range []string{
		"compat-count-toggle", "compat-foreach-objects", "compat-functions", "compat-json-mixed",
		"compat-lifecycle", "compat-module-chain", "compat-modules", "compat-provisioner",
		"compat-random-keepers", "compat-sensitive", "config-valid-json", "config-valid-modules",
		"config-valid-override", "core-plan-files", "e2e-basic", "e2e-checks", "quickstart",
	} {
		cases = append(cases, fixtureCase{name, ""})
	}
	for _, name := range []string{"compat-state-opentofu", "compat-state-terraform"} { // with a state
		for _, mode := range []string{"", "-destroy", "-refresh-only"} {
			cases = append(cases, fixtureCase{name, mode})
		}
	}
	for _, c := range cases {
		name := c.name
		t.Run(name+c.mode, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "..", "testdata", "fixtures", name))); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(t.TempDir(), "p.tfplan")
			var stderr bytes.Buffer
			m := &command.Meta{
				Streams: views.Streams{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &stderr},
				Environment: operation.Environment{
					Providers: builtin.Factories(),
					Env:       []string{"TF_VAR_out_dir=" + t.TempDir()},
				},
			}
			args := []string{"-chdir=" + dir, "-out=" + out}
			if c.mode != "" {
				args = append(args, c.mode)
			}
			if code := command.Plan(m, args); code != command.ExitOK {
				t.Fatalf("plan: exit %d\n%s", code, stderr.String())
			}
			r, err := planfile.Open(out)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if _, ok := r.ShowJSON(); !ok {
				t.Fatalf("the archive has no %s entry", planfile.EntryShowJSON)
			}
			p, err := r.ReadPlan()
			if err != nil {
				t.Fatal(err)
			}
			cfg, diags := r.ReadConfig()
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			want, err := jsonplan.Marshal(p, jsonplan.Options{Version: command.Version, Config: cfg})
			if err != nil {
				t.Fatal(err)
			}
			if got := showJSON(t, out); got != string(want)+"\n" {
				t.Errorf("show -json from the stored members differs from the one from the snapshot (-snapshot +stored):\n%s", cmp.Diff(string(want)+"\n", got))
			}
		})
	}
}

// TestShowJSONWithoutStoredSections: an archive without
// planfile.EntryShowJSON (as older plankit writes) is shown from its
// configuration snapshot, the same document; one whose entry is not what
// plan -out writes is refused, naming the file and the entry, with
// nothing printed.
func TestShowJSONWithoutStoredSections(t *testing.T) {
	dir := t.TempDir()
	src := "variable \"v\" {\n  default = \"x\"\n}\nresource \"terraform_data\" \"a\" {\n  input = var.v\n}\n" +
		"resource \"terraform_data\" \"b\" {\n  input = terraform_data.a.output\n}\noutput \"o\" {\n  value = terraform_data.b.id\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	m := &command.Meta{Streams: views.Streams{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard}, Environment: operation.Environment{Providers: builtin.Factories()}}
	good := filepath.Join(dir, "p.tfplan")
	if code := command.Plan(m, []string{"-chdir=" + dir, "-state=" + filepath.Join(dir, "s.tfstate"), "-out=" + good}); code != command.ExitOK {
		t.Fatalf("plan: exit %d", code)
	}
	want := showJSON(t, good)
	if !strings.Contains(want, `"configuration":{`) || !strings.Contains(want, `"relevant_attributes":[`) {
		t.Fatalf("show -json lacks the members made from the configuration: %.300s", want)
	}

	older := rewriteArchive(t, good, "older.tfplan", func(entries map[string][]byte) {
		delete(entries, planfile.EntryShowJSON)
	})
	if got := showJSON(t, older); got != want {
		t.Errorf("show -json without the stored members (-stored +snapshot):\n%s", cmp.Diff(want, got))
	}

	for name, content := range map[string]string{
		"not JSON":          `{"configuration":`,
		"not an object":     `[]`,
		"no configuration":  `{"relevant_attributes":[]}`,
		"attributes object": `{"configuration":{},"relevant_attributes":{}}`,
	} {
		bad := rewriteArchive(t, good, "bad.tfplan", func(entries map[string][]byte) {
			entries[planfile.EntryShowJSON] = []byte(content)
		})
		var stdout, stderr bytes.Buffer
		m := &command.Meta{Streams: views.Streams{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr}}
		code := command.Plan(m, []string{"show", "-json", bad})
		if msg := stderr.String(); code != command.ExitError || stdout.Len() != 0 || !strings.Contains(msg, "Invalid plan file") ||
			!strings.Contains(msg, bad) || !strings.Contains(msg, planfile.EntryShowJSON) {
			t.Errorf("%s: exit %d, stdout %q, stderr:\n%s", name, code, stdout.String(), msg)
		}
	}
}

// TestShowJSONGeneratedConfig: plan -out -generate-config-out puts the
// generated file in the archive's snapshot after the walk, so the archive
// has no stored members (they would lack the generated blocks) and show
// -json makes them from the snapshot, generated resource block included.
func TestShowJSONGeneratedConfig(t *testing.T) {
	dir := t.TempDir()
	src := "import {\n  to = null_resource.gen\n  id = \"g-1\"\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "p.tfplan")
	var stderr bytes.Buffer
	m := &command.Meta{Streams: views.Streams{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &stderr}, Environment: operation.Environment{Providers: builtin.Factories()}}
	if code := command.Plan(m, []string{"-chdir=" + dir, "-state=" + filepath.Join(dir, "s.tfstate"), "-out=" + out, "-generate-config-out=generated.tf"}); code != command.ExitOK {
		t.Fatalf("plan: exit %d\n%s", code, stderr.String())
	}
	r, err := planfile.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, ok := r.ShowJSON(); ok {
		t.Errorf("the archive has a %s entry, made without the generated blocks", planfile.EntryShowJSON)
	}
	if got := showJSON(t, out); !strings.Contains(got, `"address":"null_resource.gen","mode":"managed"`) || !strings.Contains(got, `"configuration":{`) {
		t.Errorf("show -json lacks the generated block in its configuration section:\n%.2000s", got)
	}
}

// showJSON is the output of plan show -json path, which must succeed.
func showJSON(t *testing.T, path string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	m := &command.Meta{Streams: views.Streams{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr}}
	if code := command.Plan(m, []string{"show", "-json", path}); code != command.ExitOK {
		t.Fatalf("show -json %s: exit %d: %s", path, code, stderr.String())
	}
	return stdout.String()
}

// rewriteArchive writes beside the archive at path a copy named name
// whose entries edit has changed, with the manifest rehashed to match.
func rewriteArchive(t testing.TB, path, name string, edit func(entries map[string][]byte)) string {
	t.Helper()
	out := filepath.Join(filepath.Dir(path), name)
	planfiletest.Rewrite(t, path, out, true, edit)
	return out
}
