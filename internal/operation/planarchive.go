package operation

import (
	"os"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/depsfile"
	"github.com/plankit/plankit/internal/encryption"
	"github.com/plankit/plankit/planfile"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/states/statefile"
	"github.com/plankit/plankit/tfdiags"
)

// PlanArchive is what WritePlanArchive writes: the plan, the prior and
// previous-run states with the lineage and serial they came from
// (StateFile), the configuration snapshot, the provider locks and the
// backend and workspace, into Out, signed with the key at SignKey (taken
// from Dir) when it is set and encrypted when Encryption says so, with
// the show -json members that Sections made while the plan was made
// (planfile.EntryShowJSON).
type PlanArchive struct {
	Out, SignKey, Dir string
	Plan              *plans.Plan
	Sections          *ShowSections
	Snapshot          *configs.Snapshot
	StateFile         *statefile.File
	Locks             *depsfile.Locks
	Backend           *planfile.Backend
	Encryption        *encryption.Encryption
	// PolicyResult is plan -policy's encoded result, recorded in the
	// archive (planfile.EntryPolicy); nil without -policy.
	PolicyResult []byte
}

// WritePlanArchiveAsync starts WritePlanArchive on another goroutine and
// returns the func that waits for its diagnostics (a panic there is
// raised again by that func, in the caller's goroutine).
func WritePlanArchiveAsync(a *PlanArchive) func() hcl.Diagnostics {
	var ds hcl.Diagnostics
	var crashed any
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() { crashed = recover() }()
		ds = WritePlanArchive(a)
	}()
	return func() hcl.Diagnostics {
		<-done
		if crashed != nil {
			panic(crashed)
		}
		return ds
	}
}

// WritePlanArchive writes the archive a describes.
func WritePlanArchive(a *PlanArchive) hcl.Diagnostics {
	var diags hcl.Diagnostics
	lineage, serial := "", uint64(0)
	if a.StateFile != nil {
		lineage, serial = a.StateFile.Lineage, a.StateFile.Serial
	}
	args := &planfile.CreateArgs{
		Plan:                 WithoutEncryptionVars(a.Plan, a.Encryption),
		StateFile:            &statefile.File{Lineage: lineage, Serial: serial, State: a.Plan.PriorState},
		PreviousRunStateFile: &statefile.File{Lineage: lineage, Serial: serial, State: a.Plan.PrevRunState},
		ConfigSnapshot:       a.Snapshot,
		DependencyLocks:      a.Locks,
		Backend:              a.Backend,
		ShowJSON:             a.Sections.Entry(a.Plan),
		PolicyResult:         a.PolicyResult,
	}
	if a.SignKey != "" {
		key, err := planfile.LoadSigningKey(Resolve(a.Dir, a.SignKey))
		if err != nil {
			return hcl.Diagnostics{tfdiags.Errorf("Failed to load the signing key", "Reading -sign-key %s failed: %s", a.SignKey, err)}
		}
		args.SignKey = key
	}
	if err := os.MkdirAll(filepath.Dir(a.Out), 0o755); err != nil {
		return hcl.Diagnostics{tfdiags.Errorf("Failed to write plan file", "Creating the directory of %s failed: %s", a.Out, err)}
	}
	if err := WriteArchive(a.Out, args, a.Encryption); err != nil {
		return hcl.Diagnostics{tfdiags.Errorf("Failed to write plan file", "Writing %s failed: %s", a.Out, err)}
	}
	return diags
}
