package command

import (
	"bytes"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
)

// writeConfig writes files into a new directory and returns it.
func writeConfig(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// planOut runs plan -out in dir with env and returns the archive's bytes.
func planOut(t *testing.T, dir, name string, env []string) []byte {
	t.Helper()
	var calls atomic.Int64
	m, _, errb := countingMeta(t, &calls)
	m.Env = env
	out := filepath.Join(dir, name)
	if code := Plan(m, []string{"-chdir=" + dir, "-no-color", "-out=" + out}); code != 0 {
		t.Fatalf("plan: exit %d\n%s", code, errb)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestPlanArchiveReproducible: planning the same configuration twice
// under SOURCE_DATE_EPOCH gives the same archive bytes, whether or not it
// calls plantimestamp (the archive always records the plan's time, which
// show -json reports as "timestamp").
func TestPlanArchiveReproducible(t *testing.T) {
	tests := []struct {
		name string
		src  string
		env  []string
	}{
		{"no plantimestamp", `resource "terraform_data" "a" { input = "x" }`, []string{"SOURCE_DATE_EPOCH=1700000000"}},
		{"plantimestamp with SOURCE_DATE_EPOCH", `resource "terraform_data" "a" { input = plantimestamp() }`, []string{"SOURCE_DATE_EPOCH=1700000000"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeConfig(t, map[string]string{"main.tf": tt.src})
			a := planOut(t, dir, "a.tfplan", tt.env)
			// A recorded time.Now (nanoseconds included) would differ.
			b := planOut(t, dir, "b.tfplan", tt.env)
			if !bytes.Equal(a, b) {
				t.Errorf("two plans of the same configuration gave different archives (%d and %d bytes)", len(a), len(b))
			}
		})
	}
}

// TestPlanTimestampPlanToApply: plantimestamp is known in the plan (shown,
// not "known after apply") and the applied output is the planned value.
func TestPlanTimestampPlanToApply(t *testing.T) {
	dir := writeConfig(t, map[string]string{"main.tf": `
resource "terraform_data" "a" { input = plantimestamp() }
output "at" { value = terraform_data.a.output }
`})
	var calls atomic.Int64
	m, out, errb := countingMeta(t, &calls)
	m.Env = []string{"SOURCE_DATE_EPOCH=1700000000"}
	planPath := filepath.Join(dir, "p.tfplan")
	if code := Plan(m, []string{"-chdir=" + dir, "-no-color", "-out=" + planPath}); code != 0 {
		t.Fatalf("plan: exit %d\n%s", code, errb)
	}
	const want = "2023-11-14T22:13:20Z"
	if !bytes.Contains(out.Bytes(), []byte(`"`+want+`"`)) {
		t.Fatalf("plan output does not show the plan time %s:\n%s", want, out)
	}
	m, out, errb = countingMeta(t, &calls)
	m.Env = []string{"SOURCE_DATE_EPOCH=1800000000"} // apply later: the plan's time must win
	if code := Apply(m, []string{"-chdir=" + dir, "-no-color", planPath}); code != 0 {
		t.Fatalf("apply: exit %d\n%s\n%s", code, out, errb)
	}
	sf := readStateFile(t, filepath.Join(dir, "terraform.tfstate"))
	if got := sf.State.RootOutputValues()["at"]; got == nil || got.Value.AsString() != want {
		t.Errorf("applied output at = %v, want %s", got, want)
	}
}
