package e2etest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestShowJSONMatchesOpenTofu plans the configurations under
// testdata/opentofu against the state OpenTofu 1.12.6 wrote for them and
// the fwtest provider's objects as they were then (drift included), and
// compares plankit's show -json with the document OpenTofu's show -json
// wrote for the same plan (testdata/opentofu/make.sh made both; this test
// never runs OpenTofu). The documents must agree key by key, except for
// the members naming the tool and the moment (see toolAndTime).
func TestShowJSONMatchesOpenTofu(t *testing.T) {
	mirror := newPluginMirror(t)
	tests := []struct {
		name, config, input string
		args                []string
	}{
		{"stack", "stack/after", "stack/input", nil},
		{"destroy", "stack/before", "stack/input", []string{"-destroy"}},
		{"fresh", "fresh/config", "fresh/input", nil},
		{"opentofu-host", "opentofu-host/after", "opentofu-host/input", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := filepath.Join("testdata", "opentofu")
			dir, in := t.TempDir(), t.TempDir()
			copyTree(t, filepath.Join(root, tt.config), dir)
			copyTree(t, filepath.Join(root, tt.input), in)
			env := append(pluginEnv(t), "FWTEST_STATE_DIR="+filepath.Join(in, "objects"))
			args := []string{"-no-color", "-input=false", "-plugin-dir=" + mirror.dir, "-state=" + filepath.Join(in, "terraform.tfstate"), "-out=p.tfplan"}
			must(t, run(t, dir, "plan", env, append(args, tt.args...)...), 0, "plan")
			r := run(t, dir, "plan", env, "show", "-json", "p.tfplan")
			must(t, r, 0, "show -json")
			want, err := os.ReadFile(filepath.Join(root, tt.name, "show.json"))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(toolAndTime(t, want), toolAndTime(t, []byte(r.stdout))); diff != "" {
				t.Errorf("show -json differs from OpenTofu's (-opentofu +plankit):\n%s", diff)
			}
		})
	}
}

// toolAndTime decodes a show -json document without the members that
// name the tool that wrote it or the moment of the plan, which differ by
// nature: timestamp and terraform_version (the document's and
// prior_state's). Everything else is compared, ids included: both tools
// plan against the same state and objects.
func toolAndTime(t *testing.T, doc []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(doc, &m); err != nil {
		t.Fatalf("%v:\n%s", err, doc)
	}
	delete(m, "timestamp")
	delete(m, "terraform_version")
	if ps, ok := m["prior_state"].(map[string]any); ok {
		delete(ps, "terraform_version")
	}
	return m
}

// copyTree copies the directory from into to, which exists.
func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.Walk(from, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if info.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
