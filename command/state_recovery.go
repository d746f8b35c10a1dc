package command

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/states/statemgr"
	"github.com/plankit/plankit/tfdiags"
)

// journaledState is a state manager that keeps apply's journal (the local
// file manager; any backend implementing statemgr.Journaled).
type journaledState interface {
	statemgr.Journaled
	statemgr.Persister
}

// maxInFlightListed bounds the in-flight instances a recovery warning
// lists one by one (at most the parallelism of the interrupted apply in
// practice).
const maxInFlightListed = 50

// recoverJournal folds the journal an interrupted apply left beside the
// state (the manager already replayed it while reading) into the state
// file when this command holds the lock, and returns the warning that
// names what was recovered and the instances whose fate is unknown. A
// failed write is part of the warning, not an error: the run goes on with
// the recovered state, and the journal stays.
func recoverJournal(mgr journaledState, where string, locked bool) hcl.Diagnostics {
	rec := mgr.Recovery()
	if rec == nil {
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "An apply on %s did not finish: the process stopped (killed, crashed or lost power) while it ran. ", where)
	n := len(rec.Changed)
	switch {
	case !locked:
		fmt.Fprintf(&b, "Its journal holds the changes it made to %d resource instance(s) after its last full write of the state file; this run uses them, and the next run that locks the state writes them to it (this one runs with -lock=false).", n)
	default:
		if err := mgr.PersistState(); err != nil {
			// This run still uses them; the journal stays for the next one.
			fmt.Fprintf(&b, "Its journal holds the changes it made to %d resource instance(s) after its last full write of the state file; this run uses them, but writing them to the state failed (%s), so the journal stays for the next run.", n, err)
			break
		}
		fmt.Fprintf(&b, "Its journal held the changes it made to %d resource instance(s) after its last full write of the state file; they are now written to the state.", n)
	}
	if rec.Damaged > 0 {
		fmt.Fprintf(&b, " %d journal record(s) were torn by the interruption and skipped.", rec.Damaged)
	}
	if len(rec.InFlight) == 0 {
		b.WriteString("\n\nNo operation was in progress when it stopped: the state records every change it made.")
		return hcl.Diagnostics{tfdiags.Warning("Recovered the state of an interrupted apply", b.String())}
	}
	fmt.Fprintf(&b, "\n\nThese %d operation(s) were in progress when it stopped, so whether they happened is unknown. Check each object: one created but not recorded is an orphan to import or delete, one half-changed may need -replace.\n", len(rec.InFlight))
	for i, op := range rec.InFlight {
		if i == maxInFlightListed {
			fmt.Fprintf(&b, "\n  ... and %d more", len(rec.InFlight)-i)
			break
		}
		fmt.Fprintf(&b, "\n  - %s (%s)", op.Instance, op.Action)
	}
	return hcl.Diagnostics{tfdiags.Warning("Interrupted apply: operations of unknown outcome", b.String())}
}

// recoverJournalFor is recoverJournal for a command's operation. State
// push replaces the state, and with it what a journal holds (the
// errored.tfstate an apply saved when its last write failed holds all of
// it): it writes nothing first, so its serial checks compare the pushed
// file with the stored serial, and the push removes the journal.
func recoverJournalFor(mgr journaledState, where string, locked bool, operation string) hcl.Diagnostics {
	if operation != "OperationTypeStatePush" {
		return recoverJournal(mgr, where, locked)
	}
	rec := mgr.Recovery()
	if rec == nil {
		return nil
	}
	return hcl.Diagnostics{tfdiags.Warning("The journal of an interrupted apply is replaced",
		fmt.Sprintf("An apply on %s did not finish; its journal holds changes to %d resource instance(s) and %d operation(s) of unknown outcome. The pushed state replaces the state and that journal.", where, len(rec.Changed), len(rec.InFlight)))}
}
