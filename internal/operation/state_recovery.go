package operation

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/internal/states/statemgr"
	"github.com/plankit/plankit/states/statefile"
	"github.com/plankit/plankit/tfdiags"
)

// journaledState is a state manager that keeps apply's journal (the local
// file manager; any backend implementing statemgr.Journaled).
type journaledState interface {
	statemgr.Journaled
	statemgr.Persister
	StateFile() *statefile.File
}

// maxInFlightListed bounds the in-flight instances a recovery warning
// lists one by one (at most the parallelism of the interrupted apply in
// practice).
const maxInFlightListed = 50

// FoldsJournal reports whether a command run as operation folds the
// journal of an interrupted apply into the state (holding the lock). Only
// the commands that write the state anyway do: apply (and destroy), state
// mv and rm, and deleting a workspace. A plan, like Terraform's, never
// writes the state: it reads the state with the journal folded in memory
// and says the state file lacks it; so do the read-only commands.
func FoldsJournal(operation string) bool {
	switch operation {
	case "OperationTypePlan", "read", "graph":
		return false
	}
	return true
}

// recoverJournal reports the journal an interrupted apply left beside the
// state (the manager already replayed it in memory while reading) and,
// when the command writes the state and holds the lock (FoldsJournal),
// first folds it in: an explicit step, its own write of the state (at the
// next serial, the state as the interrupted apply left it kept as the
// backup), recorded beside a local state in NAME.recovery.log. A failed
// write is part of the warning, not an error: the run goes on with the
// recovered state, and the journal stays.
func recoverJournal(mgr journaledState, where string, locked bool, operation string) hcl.Diagnostics {
	fold := locked && FoldsJournal(operation)
	rec := mgr.Recovery()
	if rec == nil {
		return nil
	}
	var b strings.Builder
	summary := "The state file lacks the changes of an interrupted apply"
	fmt.Fprintf(&b, "An apply on %s did not finish: the process stopped (killed, crashed or lost power) while it ran. ", where)
	n := len(rec.Changed)
	fmt.Fprintf(&b, "Its journal (%s, %d record(s)) holds the changes it made to %d resource instance(s) after its last full write of the state", rec.Journal, rec.Records, n)
	switch {
	case !fold:
		why := "this command only reads the state"
		switch {
		case !locked:
			why = "this one runs with -lock=false"
		case operation == "OperationTypePlan":
			why = "a plan, like Terraform's, never writes the state"
		}
		fmt.Fprintf(&b, ". This run uses them, but does not write them to the state (%s): the next apply, or state mv or rm, holding the lock writes them to the state first and says so. Until then, tools that read only the state (Terraform, OpenTofu) do not see them.", why)
	default:
		if err := mgr.PersistState(); err != nil {
			// This run still uses them; the journal stays for the next one.
			fmt.Fprintf(&b, ". This run uses them, but writing them to the state failed (%s), so the journal stays for the next run.", err)
			break
		}
		summary = "Recovered the state of an interrupted apply"
		serial := uint64(0)
		if sf := mgr.StateFile(); sf != nil {
			serial = sf.Serial
		}
		fmt.Fprintf(&b, "; they are now written to the state (serial %d) before this run goes on, and the journal is removed.", serial)
		if lf, ok := mgr.(interface {
			Path() string
			BackupPath() string
		}); ok {
			if lf.BackupPath() != "" {
				fmt.Fprintf(&b, " The state as the interrupted apply left it is in %s.", lf.BackupPath())
			}
			logPath := lf.Path() + ".recovery.log"
			if err := logRecovery(logPath, rec, serial); err != nil {
				fmt.Fprintf(&b, " Recording this recovery in %s failed: %s.", logPath, err)
			} else {
				fmt.Fprintf(&b, " This recovery is recorded in %s.", logPath)
			}
		}
	}
	if rec.Damaged > 0 {
		fmt.Fprintf(&b, " %d journal record(s) were torn by the interruption and skipped.", rec.Damaged)
	}
	if len(rec.Tainted) > 0 {
		fmt.Fprintf(&b, "\n\nThese %d object(s) were created but their provisioners did not finish, so they are marked tainted, as a failed provisioner leaves them: the next apply replaces them.\n", len(rec.Tainted))
		listed(&b, rec.Tainted)
	}
	var unknown []string
	for _, op := range rec.InFlight {
		if !slices.Contains(rec.Tainted, op.Instance) {
			unknown = append(unknown, fmt.Sprintf("%s (%s)", op.Instance, op.Action))
		}
	}
	if len(unknown) == 0 {
		b.WriteString("\n\nNo other operation was in progress when it stopped: the state records every change it made.")
		return hcl.Diagnostics{tfdiags.Warning(summary, b.String())}
	}
	fmt.Fprintf(&b, "\n\nThese %d operation(s) were in progress when it stopped, so whether they happened is unknown. Check each object: one created but not recorded is an orphan to import or delete, one half-changed may need -replace.\n", len(unknown))
	listed(&b, unknown)
	return hcl.Diagnostics{tfdiags.Warning("Interrupted apply: operations of unknown outcome", summary+".\n\n"+b.String())}
}

// listed writes items one a line, at most maxInFlightListed of them.
func listed(b *strings.Builder, items []string) {
	for i, s := range items {
		if i == maxInFlightListed {
			fmt.Fprintf(b, "\n  ... and %d more", len(items)-i)
			break
		}
		fmt.Fprintf(b, "\n  - %s", s)
	}
}

// recoveryEntry is one line of NAME.recovery.log: a journal folded into
// the state.
type recoveryEntry struct {
	Time     string              `json:"time"`
	Version  string              `json:"plankit_version"`
	PID      int                 `json:"pid"`
	Journal  string              `json:"journal"`
	Records  int                 `json:"records"`
	Damaged  int                 `json:"damaged_records,omitempty"`
	Serial   uint64              `json:"serial"`
	Changed  []string            `json:"changed"`
	Tainted  []string            `json:"tainted,omitempty"`
	InFlight []statemgr.InFlight `json:"in_flight,omitempty"`
}

// logRecovery appends the record of a recovery to path (a JSON object a
// line).
func logRecovery(path string, rec *statemgr.Recovery, serial uint64) error {
	line, err := json.Marshal(recoveryEntry{Time: time.Now().UTC().Format(time.RFC3339), Version: Version, PID: os.Getpid(),
		Journal: rec.Journal, Records: rec.Records, Damaged: rec.Damaged, Serial: serial, Changed: rec.Changed, Tainted: rec.Tainted, InFlight: rec.InFlight})
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(append(line, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// RecoverJournalFor is recoverJournal for a command's operation. State
// push replaces the state, and with it what a journal holds (the
// errored.tfstate an apply saved when its last write failed holds all of
// it): it writes nothing first, so its serial checks compare the pushed
// file with the stored serial, and the push removes the journal.
func RecoverJournalFor(mgr journaledState, where string, locked bool, operation string) hcl.Diagnostics {
	if operation != "OperationTypeStatePush" {
		return recoverJournal(mgr, where, locked, operation)
	}
	rec := mgr.Recovery()
	if rec == nil {
		return nil
	}
	return hcl.Diagnostics{tfdiags.Warning("The journal of an interrupted apply is replaced",
		fmt.Sprintf("An apply on %s did not finish; its journal holds changes to %d resource instance(s) and %d operation(s) of unknown outcome. The pushed state replaces the state and that journal.", where, len(rec.Changed), len(rec.InFlight)))}
}

// AsFolded returns the state file sf as the run that folds the pending
// journal of an interrupted apply into it will store it: at the next
// serial. A run that did not fold it (a plan, -lock=false) records and
// checks saved plans against that serial, so that a plan saved from the
// state with the journal applies after the fold, and one saved before the
// interrupted apply does not. sf itself when there is no such journal, or
// it was folded (folded: this run holds the lock and writes the state).
func AsFolded(mgr any, sf *statefile.File, folded bool) *statefile.File {
	j, ok := mgr.(statemgr.Journaled)
	if !ok || sf == nil || folded || j.Recovery() == nil {
		return sf
	}
	ahead := *sf
	ahead.Serial++
	return &ahead
}
