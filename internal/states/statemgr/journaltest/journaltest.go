// Package journaltest checks that a statemgr.Journal keeps the contract
// the BackgroundPersister relies on, so that every backend's journal (the
// local file one, a database's) is tested the same way:
//
//	func TestJournal(t *testing.T) {
//		journaltest.Run(t, func(t *testing.T) (statemgr.Journal, func() statemgr.Journal) {
//			return newJournal(t, "ws"), func() statemgr.Journal { return newJournal(t, "ws") }
//		})
//	}
//
// open must return an empty journal each time, and a function that opens
// a second handle on the same journal (what the next run sees), or nil.
package journaltest

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/internal/states/statemgr"
)

// Opener opens a new journal for a check, and reopen (nil when the
// journal lives only in memory) opens it again as the next run would.
type Opener = func(t *testing.T) (j statemgr.Journal, reopen func() statemgr.Journal)

// Run runs the contract's checks as subtests.
func Run(t *testing.T, open Opener) {
	t.Run("empty", func(t *testing.T) { checkEmpty(t, open) })
	t.Run("records in append order, seen by the next run", func(t *testing.T) { checkAppendOrder(t, open) })
	t.Run("truncate drops only what came before the checkpoint", func(t *testing.T) { checkTruncate(t, open) })
	t.Run("an empty checkpoint truncates nothing later", func(t *testing.T) { checkEmptyCheckpoint(t, open) })
	t.Run("remove drops everything, and the journal can be used again", func(t *testing.T) { checkRemove(t, open) })
}

// rec is the i-th record the checks append.
func rec(i int) []byte {
	return fmt.Appendf(nil, `{"k":"begin","i":"null_resource.r[%d]","a":"create"}`, i)
}

// records reads j's records, failing t on an error or a damaged record.
func records(t *testing.T, j statemgr.Journal) []string {
	t.Helper()
	recs, damaged, err := j.Records()
	if err != nil {
		t.Fatal(err)
	}
	if damaged != 0 {
		t.Fatalf("%d damaged records in an intact journal", damaged)
	}
	var out []string
	for _, r := range recs {
		out = append(out, string(r))
	}
	return out
}

// want is the records rec(i) for each of is.
func want(is ...int) []string {
	var out []string
	for _, i := range is {
		out = append(out, string(rec(i)))
	}
	return out
}

// checkEmpty: empty.
func checkEmpty(t *testing.T, open Opener) {
	j, _ := open(t)
	if got := records(t, j); len(got) != 0 {
		t.Errorf("a new journal holds %v", got)
	}
}

// checkAppendOrder: records in append order, seen by the next run.
func checkAppendOrder(t *testing.T, open Opener) {
	j, reopen := open(t)
	for i := range 5 {
		if err := j.Append(rec(i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.Sync(); err != nil {
		t.Fatal(err)
	}
	next := j
	if reopen != nil {
		next = reopen()
	}
	if d := cmp.Diff(want(0, 1, 2, 3, 4), records(t, next)); d != "" {
		t.Errorf("records (-want +got):\n%s", d)
	}
}

// checkTruncate: truncate drops only what came before the checkpoint.
func checkTruncate(t *testing.T, open Opener) {
	j, reopen := open(t)
	for i := range 3 {
		if err := j.Append(rec(i)); err != nil {
			t.Fatal(err)
		}
	}
	mark, err := j.Checkpoint()
	if err != nil {
		t.Fatal(err)
	}
	for i := 3; i < 5; i++ {
		if err := j.Append(rec(i)); err != nil {
			t.Fatal(err)
		}
	}
	if d := cmp.Diff(want(0, 1, 2, 3, 4), records(t, j)); d != "" {
		t.Errorf("records before truncating (-want +got):\n%s", d)
	}
	if err := j.Truncate(mark); err != nil {
		t.Fatal(err)
	}
	if err := j.Append(rec(5)); err != nil {
		t.Fatal(err)
	}
	next := j
	if reopen != nil {
		next = reopen()
	}
	if d := cmp.Diff(want(3, 4, 5), records(t, next)); d != "" {
		t.Errorf("records after truncating (-want +got):\n%s", d)
	}
}

// checkEmptyCheckpoint: an empty checkpoint truncates nothing later.
func checkEmptyCheckpoint(t *testing.T, open Opener) {
	j, _ := open(t)
	mark, err := j.Checkpoint()
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Append(rec(1)); err != nil {
		t.Fatal(err)
	}
	if err := j.Truncate(mark); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want(1), records(t, j)); d != "" {
		t.Errorf("records (-want +got):\n%s", d)
	}
}

// checkRemove: remove drops everything, and the journal can be used again.
func checkRemove(t *testing.T, open Opener) {
	j, reopen := open(t)
	for i := range 3 {
		if err := j.Append(rec(i)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := j.Checkpoint(); err != nil {
		t.Fatal(err)
	}
	if err := j.Append(rec(7)); err != nil {
		t.Fatal(err)
	}
	if err := j.Remove(); err != nil {
		t.Fatal(err)
	}
	next := j
	if reopen != nil {
		next = reopen()
	}
	if got := records(t, next); len(got) != 0 {
		t.Errorf("records after Remove: %v", got)
	}
	if err := j.Append(rec(8)); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want(8), records(t, j)); d != "" {
		t.Errorf("records after Remove and Append (-want +got):\n%s", d)
	}
}
