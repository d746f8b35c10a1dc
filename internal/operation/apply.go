package operation

import (
	"context"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/backend"
	"github.com/plankit/plankit/internal/encryption"
	"github.com/plankit/plankit/internal/terraform"
	"github.com/plankit/plankit/planfile"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/states/statefile"
)

// View receives what an operation reports while it runs, for the command
// to render: diagnostics shown as they happen rather than returned (a
// lock's release after a second Ctrl-C has no caller to return to).
type View interface {
	Diagnostics(hcl.Diagnostics)
}

// ApplyRequest is an apply as plain values: the plan and what it was made
// with, and where and how the state it changes is kept.
type ApplyRequest struct {
	// Dir is the working directory: the -chdir directory, or "." once the
	// process has changed into it.
	Dir string
	// Env is the process environment as KEY=VALUE.
	Env []string

	// Plan is the plan to apply, Config its configuration and StateFile
	// the state it was made from (its lineage and serial are checked
	// against the state applied to).
	Plan      *plans.Plan
	Config    *configs.Config
	StateFile *statefile.File
	// FromPlan is the archive's record of its backend and workspace (nil
	// without a saved plan, or from an archive that has none).
	FromPlan *planfile.Backend
	// Factories serve the providers the plan needs.
	Factories map[addrs.Provider]providers.Factory
	// Encryption is the encryption the state is read and written with.
	Encryption *encryption.Encryption

	// StatePath is -state and BackendConfig the -backend-config
	// arguments (see ResolveBackend).
	StatePath     string
	BackendConfig []string
	// Lock and LockTimeout are -lock and -lock-timeout.
	Lock        bool
	LockTimeout time.Duration
	// Parallelism bounds the operations the core runs at once.
	Parallelism int
	// Inline is set by apply without a saved plan (it planned first).
	Inline bool
	// ApplyTimeVariables are the values of the ephemeral root variables,
	// which the plan does not hold (see SavedPlanVariables).
	ApplyTimeVariables terraform.InputValues
	// ArchivePath is the saved plan file applied; a resumed apply names
	// it by its SHA-256, read only then.
	ArchivePath string
}

// LockApplyState resolves the backend req's state lives in, opens that
// state and takes its lock (unless req.Lock is false), folding in an
// interrupted apply's journal. When it returns no errors, the caller owns
// the lock and must release it through HeldLock.Unlock; the warnings it
// returns then say what was recovered.
func LockApplyState(ctx context.Context, req *ApplyRequest, view View) (*Backend, backend.StateMgr, *HeldLock, hcl.Diagnostics) {
	target, diags := ResolveBackend(req.Env, req.Dir, req.Config, req.StatePath, req.BackendConfig, req.FromPlan)
	if diags.HasErrors() {
		return nil, nil, nil, diags
	}
	mgr, release, ds := OpenBackendStateWith(ctx, target, req.Lock, req.LockTimeout, "OperationTypeApply", CodecFor(req.Encryption))
	if ds.HasErrors() {
		return nil, nil, nil, ds
	}
	return target, mgr, &HeldLock{release: release, view: view}, ds
}

// HeldLock releases a state lock exactly once, from whichever comes first:
// the end of apply or a second Ctrl-C; a failed release makes apply exit
// 1. Its mutex orders the two callers.
type HeldLock struct {
	mu       sync.Mutex
	release  func() hcl.Diagnostics
	view     View
	released bool
	failed   bool
}

// Unlock releases the lock if that has not happened yet, reporting any
// failure to the view, and reports whether the release failed (now or
// earlier).
func (l *HeldLock) Unlock() (failed bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.released {
		l.released = true
		ds := l.release()
		l.failed = ds.HasErrors()
		l.view.Diagnostics(ds)
	}
	return l.failed
}
