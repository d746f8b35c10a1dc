package pg

import "testing"

// TestCheckResultsPersisted: check results written before a persist are
// stored with the state and read back by another manager.
func TestCheckResultsPersisted(t *testing.T) {
	b := newBackend(t, Config{})
	m := mgr(t, b, "default")
	m.WriteState(stateWith(1))
	raw := []byte(`[{"object_kind":"check","config_addr":"check.c","status":"fail","objects":[{"object_addr":"check.c","status":"fail","failure_messages":["down"]}]}]`)
	if err := m.WriteCheckResults(raw); err != nil {
		t.Fatal(err)
	}
	if err := m.PersistState(); err != nil {
		t.Fatal(err)
	}
	if got := string(mgr(t, b, "default").StateFile().CheckResults); got != string(raw) {
		t.Errorf("check results read back: %s\nwant %s", got, raw)
	}
}
