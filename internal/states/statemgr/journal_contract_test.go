package statemgr_test

import (
	"path/filepath"
	"testing"

	"github.com/plankit/plankit/internal/states/statemgr"
	"github.com/plankit/plankit/internal/states/statemgr/journaltest"
)

// TestFilesystemJournalContract runs the journal contract on the local
// state's journal files.
func TestFilesystemJournalContract(t *testing.T) {
	journaltest.Run(t, func(t *testing.T) (statemgr.Journal, func() statemgr.Journal) {
		path := filepath.Join(t.TempDir(), "terraform.tfstate")
		open := func() statemgr.Journal {
			j, err := statemgr.NewFilesystem(path).Journal()
			if err != nil {
				t.Fatal(err)
			}
			return j
		}
		return open(), open
	})
}
