package e2etest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
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
	// As make.sh offers it to OpenTofu: also under OpenTofu's registry
	// host, which a state OpenTofu wrote names.
	tofuDir := filepath.Join(mirror.dir, "registry.opentofu.org", "plankit", "fwtest", "1.0.0", platform)
	if err := os.MkdirAll(tofuDir, 0o755); err != nil {
		t.Fatal(err)
	}
	exe, err := os.ReadFile(filepath.Join(mirror.fwDir, "terraform-provider-fwtest_v1.0.0"))
	if err != nil {
		t.Fatal(err)
	}
	writeExec(t, filepath.Join(tofuDir, "terraform-provider-fwtest_v1.0.0"), string(exe))
	tests := []struct {
		name, config, input string
		args                []string
	}{
		{"stack", "stack/after", "stack/input", nil},
		{"destroy", "stack/before", "stack/input", []string{"-destroy"}},
		{"fresh", "fresh/config", "fresh/input", nil},
		{"opentofu-host", "opentofu-host/after", "opentofu-host/input", nil},
		{"relevant", "relevant/config", "relevant/input", []string{"-var", "rev=2"}},
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
			diffs := keyDiffs("", toolAndTime(t, want), toolAndTime(t, []byte(r.stdout)), nil)
			if len(diffs) > 0 {
				t.Errorf("show -json differs from OpenTofu's in %d places (path: OpenTofu's, plankit's):\n%s", len(diffs), strings.Join(diffs, "\n"))
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
	// Terraform's applyable and complete (format 1.2), which OpenTofu
	// 1.12 does not write; plankit writes them for Terraform's readers.
	delete(m, "applyable")
	delete(m, "complete")
	if ps, ok := m["prior_state"].(map[string]any); ok {
		delete(ps, "terraform_version")
	}
	// OpenTofu sorts relevant_attributes by resource only, leaving the
	// attributes of one resource in the order a map gave them: compare
	// them in one order.
	if ra, ok := m["relevant_attributes"].([]any); ok {
		key := func(v any) string {
			e, _ := v.(map[string]any)
			b, _ := json.Marshal(e["attribute"])
			r, _ := e["resource"].(string)
			return r + "\x00" + string(b)
		}
		sort.SliceStable(ra, func(i, j int) bool { return key(ra[i]) < key(ra[j]) })
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

// keyDiffs appends to out one line per member or element where the
// decoded documents want and got differ, named by its path: a member one
// lacks, or differing values (objects and arrays are walked, so each
// difference is named where it is).
func keyDiffs(path string, want, got any, out []string) []string {
	show := func(v any) string {
		b, _ := json.Marshal(v)
		if len(b) > 300 {
			return string(b[:300]) + "..."
		}
		return string(b)
	}
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			break
		}
		keys := map[string]bool{}
		for k := range w {
			keys[k] = true
		}
		for k := range g {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		for _, k := range sorted {
			wv, wok := w[k]
			gv, gok := g[k]
			p := path + "." + k
			switch {
			case !wok:
				out = append(out, fmt.Sprintf("%s: (absent), %s", p, show(gv)))
			case !gok:
				out = append(out, fmt.Sprintf("%s: %s, (absent)", p, show(wv)))
			default:
				out = keyDiffs(p, wv, gv, out)
			}
		}
		return out
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			break
		}
		for i := range w {
			out = keyDiffs(fmt.Sprintf("%s[%d]", path, i), w[i], g[i], out)
		}
		return out
	}
	if show(want) != show(got) {
		out = append(out, fmt.Sprintf("%s: %s, %s", path, show(want), show(got)))
	}
	return out
}
