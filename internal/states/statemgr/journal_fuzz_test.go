package statemgr

import (
	"testing"

	"github.com/plankit/plankit/states"
)

// FuzzJournal feeds arbitrary bytes to the journal reader as a segment's
// content, then replays what it accepts: no input may panic,
// and a state that replays must encode again. Seeds: a real journal, and
// torn and corrupted copies of it.
func FuzzJournal(f *testing.F) {
	s := stateWith(3)
	var seed []byte
	for _, rec := range [][]byte{EncodeBegin(instAddr(1), "create"), mustSet(f, s, 1), EncodeEnd(instAddr(2)), EncodeBegin(instAddr(9), "destroy")} {
		seed = appendFrame(seed, rec)
	}
	f.Add(seed)
	f.Add(seed[:len(seed)/2])
	bad := append([]byte(nil), seed...)
	bad[20] ^= 0xff
	f.Add(bad)
	f.Add(frame([]byte(`{"k":"set","i":"null_resource.r[1]","s":{"version":4,"resources":[{"mode":"managed","type":"null_resource","name":"other","provider":"provider[\"registry.terraform.io/hashicorp/null\"]","instances":[{"attributes":{}}]}]}}`)))
	f.Add(frame([]byte(`{"k":"nope","i":"x"}`)))
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, _ := parseSegment(data)
		st := stateWith(2)
		if _, err := ReplayJournal(st, recs); err != nil {
			return
		}
		if _, err := EncodeSet(st, instAddr(1)); err != nil {
			t.Fatalf("a replayed state does not encode: %v", err)
		}
	})
}

func mustSet(t testing.TB, s *states.State, i int) []byte {
	t.Helper()
	rec, err := EncodeSet(s, instAddr(i))
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// frame is one record as fileJournal.Append writes it.
func frame(rec []byte) []byte { return appendFrame(nil, rec) }
