package e2etest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadInput: every user mistake gives a diagnostic (with file:line and a
// snippet where there is a source) and exit code 1, never a stack trace.
// The messages are kept in one golden file to be read as a user would.
func TestBadInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mk := func(name, src string) string {
		d := filepath.Join(dir, name)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(d, "main.tf"), src)
		return d
	}
	syntax := mk("syntax", "resource \"null_resource\" \"a\" {\n  triggers = {\n    x = \n}\n")
	ref := mk("reference", "variable \"n\" {\n  type = number\n}\n\nresource \"null_resource\" \"a\" {\n  triggers = {\n    x = var.n\n    y = var.nope\n  }\n}\n")
	ok := mk("ok", "variable \"n\" {\n  type = number\n}\n\nvariable \"l\" {\n  type    = list(string)\n  default = []\n}\n\nresource \"null_resource\" \"a\" {\n  triggers = {\n    n = var.n\n  }\n}\n")
	writeFile(t, filepath.Join(ok, "garbage.tfplan"), "not a zip archive")
	must(t, plan(t, ok, "-var", "n=1", "-out=good.tfplan"), 0, "a good plan")
	good, err := os.ReadFile(filepath.Join(ok, "good.tfplan"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(ok, "truncated.tfplan"), string(good[:len(good)/2]))
	writeFile(t, filepath.Join(ok, "bad.tfvars"), "n = \"many\"\nundeclared = 1\n")
	writeFile(t, filepath.Join(ok, "truncated.tfstate"), "{\n  \"version\": 4,\n  \"serial\": 3,\n  \"resources\": [\n    {\"mode\": \"man")

	tests := []struct {
		name, dir, bin string
		args           []string
	}{
		{"missing directory", dir, "plan", []string{"-chdir=nope"}},
		{"no configuration", dir, "plan", nil},
		{"syntax error", syntax, "plan", nil},
		{"undeclared reference", ref, "plan", []string{"-var", "n=1"}},
		{"undeclared -var", ok, "plan", []string{"-var", "n=1", "-var", "m=2"}},
		{"malformed -var", ok, "plan", []string{"-var", "n"}},
		{"-var of the wrong type", ok, "plan", []string{"-var", "n=many"}},
		{"-var that is not a constant", ok, "plan", []string{"-var", "n=1", "-var", "l=[a]"}},
		{"-var-file of the wrong type", ok, "plan", []string{"-var-file=bad.tfvars"}},
		{"missing -var-file", ok, "plan", []string{"-var-file=nope.tfvars"}},
		{"required variable not set", ok, "plan", nil},
		{"bad -target", ok, "plan", []string{"-var", "n=1", "-target=not an address"}},
		{"unknown flag", ok, "plan", []string{"-bogus"}},
		{"missing plan file", ok, "apply", []string{"nope.tfplan"}},
		{"corrupt plan file", ok, "apply", []string{"garbage.tfplan"}},
		{"truncated plan file", ok, "apply", []string{"truncated.tfplan"}},
		{"show a corrupt plan file", ok, "plan", []string{"show", "garbage.tfplan"}},
		{"variables with a saved plan", ok, "apply", []string{"-var", "n=2", "good.tfplan"}},
		{"apply without approval or terminal", ok, "apply", []string{"-var", "n=1"}},
		{"truncated state file", ok, "plan", []string{"-var", "n=1", "-state=truncated.tfstate"}},
		{"option after the plan file", ok, "apply", []string{"good.tfplan", "-auto-approve"}},
		{"two plan files", ok, "apply", []string{"good.tfplan", "good.tfplan"}},
	}
	var all strings.Builder
	for _, tt := range tests {
		args := append([]string{"-no-color"}, tt.args...)
		if len(tt.args) > 0 && tt.args[0] == "show" {
			args = append([]string{"show", "-no-color"}, tt.args[1:]...)
		}
		r := run(t, tt.dir, tt.bin, nil, args...)
		if r.code != 1 {
			t.Errorf("%s: exit %d, want 1\nstdout:\n%s\nstderr:\n%s", tt.name, r.code, r.stdout, r.stderr)
		}
		noTrace(t, r, tt.name)
		if strings.TrimSpace(r.stderr) == "" {
			t.Errorf("%s: nothing on stderr", tt.name)
		}
		fmt.Fprintf(&all, "=== %s: %s %s\n%s\n", tt.name, tt.bin, normalise(strings.Join(tt.args, " "), dir), strings.TrimSpace(normalise(r.stderr, dir)))
	}
	golden(t, "bad-input.txt", all.String())
}

// TestPlanOptions covers variables from every source, -target and
// -replace, -refresh-only and -refresh=false.
func TestPlanOptions(t *testing.T) {
	t.Parallel()
	work := fixture(t, "e2e-basic")
	outDir := t.TempDir()
	state := filepath.Join(t.TempDir(), "s.tfstate")
	env := []string{"TF_VAR_out_dir=" + outDir, `TF_VAR_names=["env"]`}
	writeFile(t, filepath.Join(work, "my.tfvars"), "names = [\"x\", \"y\", \"z\"]\n")
	p := func(args ...string) result {
		return run(t, work, "plan", env, append([]string{"-no-color", "-state=" + state}, args...)...)
	}
	variables := func(file string) map[string]any {
		js := plan(t, work, "show", "-json", file)
		must(t, js, 0, "show -json "+file)
		tp := readTFJSON(t, js.stdout)
		out := map[string]any{}
		for k, v := range tp.Variables {
			out[k] = v.Value
		}
		return out
	}
	check := func(file string, want map[string]any) {
		t.Helper()
		got, _ := json.Marshal(variables(file))
		w, _ := json.Marshal(want)
		if !bytes.Equal(got, w) {
			t.Errorf("%s variables = %s, want %s", file, got, w)
		}
	}
	// TF_VAR_ alone, then -var-file over it, then -var over both.
	must(t, p("-out=env.tfplan"), 0, "plan with TF_VAR_")
	check("env.tfplan", map[string]any{"names": []any{"env"}, "out_dir": outDir})
	must(t, p("-var-file=my.tfvars", "-out=file.tfplan"), 0, "plan with -var-file")
	check("file.tfplan", map[string]any{"names": []any{"x", "y", "z"}, "out_dir": outDir})
	must(t, p("-var-file=my.tfvars", "-var", `names=["cli"]`, "-out=cli.tfplan"), 0, "plan with -var")
	check("cli.tfplan", map[string]any{"names": []any{"cli"}, "out_dir": outDir})
	// *.auto.tfvars wins over TF_VAR_.
	writeFile(t, filepath.Join(work, "a.auto.tfvars"), "names = [\"auto\", \"b\"]\n")
	must(t, p("-out=auto.tfplan"), 0, "plan with auto.tfvars")
	check("auto.tfplan", map[string]any{"names": []any{"auto", "b"}, "out_dir": outDir})
	must(t, apply(t, work, "-no-color", "-state="+state, "auto.tfplan"), 0, "apply")

	// -target and -replace: only the named instance, with a warning.
	tr := p("-target=random_id.id", "-replace=random_id.id", "-out=replace.tfplan")
	must(t, tr, 0, "plan -target -replace")
	contains(t, tr.stdout, "plan -target -replace", "# random_id.id will be replaced, as requested", "Plan: 1 to add, 0 to change, 1 to destroy.", "Warning: Resource targeting is in effect")
	if strings.Contains(tr.stdout, "terraform_data.combined") {
		t.Errorf("an untargeted resource is in the targeted plan:\n%s", tr.stdout)
	}
	ta := apply(t, work, "-no-color", "-state="+state, "replace.tfplan")
	must(t, ta, 0, "apply a targeted plan")
	contains(t, ta.stdout, "apply a targeted plan", "random_id.id: Destroying...", "random_id.id: Creating...", "Warning: Applied changes may be incomplete", "Apply complete! Resources: 1 added, 0 changed, 1 destroyed.")
	one := run(t, work, "apply", env, "-no-color", "-auto-approve", "-state="+state)
	must(t, one, 0, "apply in one step")
	contains(t, one.stdout, "apply in one step", "# terraform_data.combined will be updated in-place", "Apply complete! Resources: 0 added, 1 changed, 0 destroyed.")

	// Drift: the file disappears behind plankit's back.
	if err := os.Remove(filepath.Join(outDir, "out.txt")); err != nil {
		t.Fatal(err)
	}
	must(t, p("-refresh=false", "-detailed-exitcode"), 0, "plan -refresh=false does not see the drift")
	ro := p("-refresh-only", "-detailed-exitcode", "-out=refresh.tfplan")
	must(t, ro, 2, "plan -refresh-only")
	golden(t, "refresh-only.txt", normalise(ro.stdout, work, outDir, filepath.Dir(state)))
	must(t, apply(t, work, "-no-color", "-state="+state, "refresh.tfplan"), 0, "apply the refresh-only plan")
	after := p("-detailed-exitcode")
	must(t, after, 2, "plan after recording the drift")
	contains(t, after.stdout, "plan after recording the drift", "# local_file.out will be created", "Plan: 1 to add, 0 to change, 0 to destroy.")
	if strings.Contains(after.stdout, "Objects have changed outside of plankit") {
		t.Errorf("the recorded drift is reported again:\n%s", after.stdout)
	}
}

// TestJSONStream: plan -json and apply -json emit one JSON object per line
// with the machine-readable UI's fields and message types.
func TestJSONStream(t *testing.T) {
	t.Parallel()
	work := fixture(t, "e2e-basic")
	state := filepath.Join(t.TempDir(), "s.tfstate")
	args := []string{"-json", "-var", "out_dir=" + t.TempDir(), "-state=" + state}
	r := plan(t, work, append(args, "-out=p.tfplan")...)
	must(t, r, 0, "plan -json")
	types := jsonTypes(t, r.stdout)
	if types["version"] != 1 || types["planned_change"] != 5 || types["change_summary"] != 1 || types["outputs"] != 1 {
		t.Errorf("plan -json message types = %v", types)
	}
	a := apply(t, work, "-json", "-state="+state, "p.tfplan")
	must(t, a, 0, "apply -json")
	types = jsonTypes(t, a.stdout)
	if types["version"] != 1 || types["apply_start"] != 5 || types["apply_complete"] != 5 || types["change_summary"] != 1 || types["outputs"] != 1 {
		t.Errorf("apply -json message types = %v", types)
	}
	bad := plan(t, work, "-json", "-var", "nope=1")
	must(t, bad, 1, "plan -json with an error")
	if jsonTypes(t, bad.stdout)["diagnostic"] == 0 {
		t.Errorf("plan -json reports no diagnostic message:\n%s", bad.stdout)
	}
}

func jsonTypes(t *testing.T, out string) map[string]int {
	t.Helper()
	types := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var msg map[string]any
		if err := json.Unmarshal([]byte(line), &msg); err != nil {
			t.Fatalf("not JSON: %q", line)
		}
		for _, k := range []string{"@level", "@message", "@module", "@timestamp", "type"} {
			if _, ok := msg[k]; !ok {
				t.Errorf("line lacks %s: %s", k, line)
			}
		}
		typ, _ := msg["type"].(string)
		types[typ]++
	}
	return types
}
