package statemgr

import (
	"path/filepath"
	"testing"

	"github.com/plankit/plankit/states"
)

// TestFilesystemCheckResults: check results written before a persist are
// in the state file another manager reads.
func TestFilesystemCheckResults(t *testing.T) {
	path := filepath.Join(t.TempDir(), "terraform.tfstate")
	m := NewFilesystem(path)
	if err := m.WriteState(states.NewState()); err != nil {
		t.Fatal(err)
	}
	raw := []byte(`[{"object_kind":"output","config_addr":"output.o","status":"pass","objects":[{"object_addr":"output.o","status":"pass"}]}]`)
	if err := m.WriteCheckResults(raw); err != nil {
		t.Fatal(err)
	}
	if err := m.PersistState(); err != nil {
		t.Fatal(err)
	}
	if got := string(NewFilesystem(path).StateFile().CheckResults); got != string(raw) {
		t.Errorf("check results read back: %s\nwant %s", got, raw)
	}
}
