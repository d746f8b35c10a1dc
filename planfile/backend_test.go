package planfile

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestBackendRecordRoundTrip(t *testing.T) {
	args := testArgs(t)
	want := &Backend{Type: "pg", Workspace: "staging", Config: map[string]string{"conn_str": "postgres://u@db/tf", "schema_name": "s"}}
	args.Backend = want
	r, err := Open(writeArchive(t, args))
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.ReadBackend()
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("backend (-want +got):\n%s", d)
	}
	// An archive without the entry was made for the local default workspace.
	r2, err := Open(writeArchive(t, testArgs(t)))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := r2.ReadBackend(); got != nil || err != nil {
		t.Errorf("no record: %+v %v", got, err)
	}
}

func TestBackendRecordRefusesIncomplete(t *testing.T) {
	args := testArgs(t)
	args.Backend = &Backend{Type: "pg"}
	if _, err := buildEntries(args); err == nil {
		t.Errorf("a record without workspace was written")
	}
	r := &Reader{entries: map[string][]byte{EntryBackend: []byte(`{"type":"pg","workspace":"x","password":"p"}`)}}
	if _, err := r.ReadBackend(); !errors.Is(err, KindCorrupt) {
		t.Errorf("unknown field: %v", err)
	}
}
