package pg

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/internal/backend/internal/remotestate/codectest"
	"github.com/plankit/plankit/internal/states/statemgr"
	"github.com/plankit/plankit/internal/states/statemgr/journaltest"
)

// TestJournalContract runs the journal contract on the rows of
// SCHEMA.plankit_journal, each case in a workspace of its own, the second
// handle on a second manager (what the next run sees).
func TestJournalContract(t *testing.T) {
	b := newBackend(t, Config{})
	n := 0
	journaltest.Run(t, func(t *testing.T) (statemgr.Journal, func() statemgr.Journal) {
		n++
		ws := "contract" + strings.Repeat("x", n)
		open := func() statemgr.Journal {
			j, err := mgr(t, b, ws).Journal()
			if err != nil {
				t.Fatal(err)
			}
			return j
		}
		return open(), open
	})
}

func journalRows(t *testing.T, connStr, ws string) int {
	t.Helper()
	var n int
	if err := rawConn(t, connStr).QueryRow(context.Background(), "SELECT count(*) FROM terraform_remote_state.plankit_journal WHERE name = $1", ws).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestJournalRecovery: what an apply appended and never wrote whole is in
// the state the next manager reads, with the operations in flight named;
// the persist that stores it drops the rows; rows of another workspace or
// another states table are not seen.
func TestJournalRecovery(t *testing.T) {
	b := newBackend(t, Config{})
	cs := b.cfg.ConnStr
	// The same workspace under another states table (OpenTofu's
	// table_name) keeps a journal of its own.
	other := newBackend(t, Config{ConnStr: cs, TableName: "other_states", IndexName: "other_by_name"})
	oj, err := mgr(t, other, "default").Journal()
	if err != nil {
		t.Fatal(err)
	}
	if err := oj.Append(statemgr.EncodeBegin(instAddr(9), "destroy")); err != nil {
		t.Fatal(err)
	}
	m := mgr(t, b, "default")
	id, err := m.Lock(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.WriteState(stateWith(1)); err != nil {
		t.Fatal(err)
	}
	if err := m.PersistState(); err != nil {
		t.Fatal(err)
	}
	j, err := m.Journal()
	if err != nil {
		t.Fatal(err)
	}
	live := stateWith(3) // instances 1 and 2 created after the full write
	recs := [][]byte{
		statemgr.EncodeBegin(instAddr(1), "create"),
		statemgr.EncodeBegin(instAddr(2), "create"),
		statemgr.EncodeBegin(instAddr(3), "create"),
	}
	for _, i := range []int{1, 2} {
		rec, err := statemgr.EncodeSet(live, instAddr(i))
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, rec)
	}
	for _, r := range recs {
		if err := j.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	// The apply ends without its final write (its rows stay).
	if err := m.Unlock(id); err != nil {
		t.Fatal(err)
	}
	m.Close()

	next := mgr(t, b, "default")
	if _, err := next.Lock(nil); err != nil {
		t.Fatal(err)
	}
	rec := next.Recovery()
	if rec == nil {
		t.Fatal("no recovery reported for the journal left behind")
	}
	want := &statemgr.Recovery{
		Records:  5,
		Changed:  []string{"null_resource.r[1]", "null_resource.r[2]"},
		InFlight: []statemgr.InFlight{{Instance: "null_resource.r[3]", Action: "create"}},
		Journal:  `rows of terraform_remote_state.plankit_journal with name "default"`,
	}
	if d := cmp.Diff(want, rec); d != "" {
		t.Errorf("recovery (-want +got):\n%s", d)
	}
	if got := len(next.State().AllResourceInstances()); got != 3 {
		t.Errorf("recovered state has %d instances, want 3", got)
	}
	// More appended after the refresh is not dropped with what it replayed.
	nj, _ := next.Journal()
	if err := nj.Append(statemgr.EncodeBegin(instAddr(4), "create")); err != nil {
		t.Fatal(err)
	}
	if err := next.PersistState(); err != nil {
		t.Fatal(err)
	}
	if n := journalRows(t, cs, "default"); n != 2 { // the later one, and other_states'
		t.Errorf("%d journal rows after the persist, want 2", n)
	}
	stored := newBackend(t, Config{ConnStr: cs})
	sm := mgr(t, stored, "default")
	if f := sm.StateFile(); len(f.State.AllResourceInstances()) != 3 {
		t.Errorf("stored state has %d instances, want 3", len(f.State.AllResourceInstances()))
	}
	if r := mgr(t, other, "default").Recovery(); r == nil || len(r.InFlight) != 1 || r.InFlight[0].Instance != "null_resource.r[9]" {
		t.Errorf("other_states' recovery: %+v", r)
	}
}

// TestJournalDeleteWorkspace: deleting a workspace deletes its journal.
func TestJournalDeleteWorkspace(t *testing.T) {
	b := newBackend(t, Config{})
	m := mgr(t, b, "gone")
	j, err := m.Journal()
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Append(statemgr.EncodeBegin(instAddr(1), "create")); err != nil {
		t.Fatal(err)
	}
	m.Close()
	if err := b.DeleteWorkspace(context.Background(), "gone"); err != nil {
		t.Fatal(err)
	}
	if n := journalRows(t, b.cfg.ConnStr, "gone"); n != 0 {
		t.Errorf("%d journal rows left after deleting the workspace", n)
	}
}

// TestJournalCodec: with state encryption the rows are stored through the
// state's codec and read back decoded.
func TestJournalCodec(t *testing.T) {
	b := newBackend(t, Config{})
	b.SetCodec(codectest.PrefixCodec{})
	m := mgr(t, b, "enc")
	j, err := m.Journal()
	if err != nil {
		t.Fatal(err)
	}
	rec := statemgr.EncodeBegin(instAddr(1), "create")
	if err := j.Append(rec); err != nil {
		t.Fatal(err)
	}
	var data []byte
	if err := rawConn(t, b.cfg.ConnStr).QueryRow(context.Background(), "SELECT data FROM terraform_remote_state.plankit_journal WHERE name = 'enc'").Scan(&data); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), "ENC:") {
		t.Errorf("journal row stored in clear: %s", data)
	}
	r := mgr(t, b, "enc").Recovery()
	if r == nil || len(r.InFlight) != 1 {
		t.Errorf("recovery through the codec: %+v", r)
	}
}

// TestJournalSkipTableCreation: with skip_table_creation and no journal
// table, the journal is an error naming the table, and reading works.
func TestJournalSkipTableCreation(t *testing.T) {
	cs := newBackend(t, Config{SchemaName: "full"}).cfg.ConnStr // creates public.global_states_id_seq
	c := rawConn(t, cs)
	if _, err := c.Exec(context.Background(), `CREATE SCHEMA bare; CREATE TABLE bare.states (id bigint NOT NULL DEFAULT nextval('public.global_states_id_seq') PRIMARY KEY, name text UNIQUE, data text)`); err != nil {
		t.Fatal(err)
	}
	b := newBackend(t, Config{ConnStr: cs, SchemaName: "bare", SkipTableCreation: true})
	m := mgr(t, b, "default")
	if _, err := m.Journal(); err == nil || !strings.Contains(err.Error(), "bare.plankit_journal") {
		t.Errorf("Journal() without the table: %v", err)
	}
	if r := m.Recovery(); r != nil {
		t.Errorf("recovery without a journal table: %+v", r)
	}
	// Created as docs/backends.md says, it is used.
	for _, s := range b.journalDDL() {
		if _, err := c.Exec(context.Background(), s); err != nil {
			t.Fatal(err)
		}
	}
	b2 := newBackend(t, Config{ConnStr: cs, SchemaName: "bare", SkipTableCreation: true})
	if _, err := mgr(t, b2, "default").Journal(); err != nil {
		t.Errorf("Journal() with the table created by hand: %v", err)
	}
}
