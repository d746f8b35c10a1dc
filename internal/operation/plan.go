package operation

import (
	"time"

	"github.com/plankit/plankit/plans"
)

// PlanRequest is a plan as plain values: the configuration directory,
// the values and options the plan is made with, and where its state is
// kept.
type PlanRequest struct {
	// Dir is the configuration directory: the -chdir directory, or "."
	// once the process has changed into it.
	Dir string
	// Env is the process environment as KEY=VALUE (TF_VAR_ values,
	// TF_WORKSPACE, TF_ENCRYPTION, the backends' variables).
	Env []string

	// Vars are -var and -var-file in command-line order.
	Vars []VarArg
	// Targets and Replace are the -target and -replace addresses, as
	// given.
	Targets, Replace []string
	// Mode is the plan's mode (-destroy, -refresh-only); Refresh is
	// false for -refresh=false.
	Mode    plans.Mode
	Refresh bool
	// GenerateConfig asks the core for configuration for import targets
	// that have none (-generate-config-out).
	GenerateConfig bool

	// StatePath is -state and BackendConfig the -backend-config
	// arguments (see ResolveBackend).
	StatePath     string
	BackendConfig []string
	// Lock and LockTimeout are -lock and -lock-timeout.
	Lock        bool
	LockTimeout time.Duration
	// Parallelism bounds the operations the core runs at once.
	Parallelism int

	// Out is the archive the plan is saved to (-out), if any.
	Out string
	// Inline is set by apply without a saved plan: the plan's state is
	// opened as an apply's (an interrupted apply's journal is folded in).
	Inline bool
}
