package operation

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/plankit/plankit/internal/states/statemgr"
	"github.com/plankit/plankit/states/statefile"
)

// writeConfig writes files (name -> source) into a new directory and
// returns it.
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

func journalLeft(t *testing.T, dir string) []string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(dir, ".terraform.tfstate.journal.*"))
	return m
}

// stateFileNames lists the instances in the state file itself (a manager
// would replay the journal too).
func stateFileNames(t *testing.T, path string) []string {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := statefile.Read(bytes.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, a := range f.State.AllResourceInstances() {
		names = append(names, a.String())
	}
	return names
}

// countingState counts the persists asked of a real local state manager.
type countingState struct {
	*statemgr.Filesystem
	persists int
}

func (c *countingState) PersistState() error {
	c.persists++
	return c.Filesystem.PersistState()
}
