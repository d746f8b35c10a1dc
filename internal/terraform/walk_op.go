package terraform

import (
	"context"

	"github.com/hashicorp/hcl/v2"
)

// operation is what a walk does with each resource instance: the
// strategy the shared resource nodes hand their instances to. Each
// operation has its own type and files and keeps its own state:
// validateWalk (validate_walk.go), planWalk (plan_*.go) and applyWalk
// (apply_*.go). The shared nodes never ask which operation runs; they
// read its traits.
type operation interface {
	// managedInstance and dataInstance process one instance of a managed
	// resource or data source under a provider slot.
	managedInstance(ctx context.Context, ic *instanceCtx) hcl.Diagnostics
	dataInstance(ctx context.Context, ic *instanceCtx) hcl.Diagnostics
	// ephemeralInstance processes one instance of an ephemeral resource
	// (ephemeral.go).
	ephemeralInstance(ctx context.Context, ic *instanceCtx) hcl.Diagnostics
	// resolveImports runs once a resource node has expanded its
	// instances: the import blocks targeting them are the operation's
	// business (a plan resolves them; a validation has checked them
	// before the walk, an apply reads them from the plan).
	resolveImports(ws *walkState, n *nodeResource) hcl.Diagnostics
	traits() opTraits
}

// opTraits are what the shared nodes (variables, outputs, module calls,
// providers, resource expansion) need to know of the operation.
type opTraits struct {
	// unknowns: values are not known by design (validation): count and
	// for_each may be unknown, required root variables have no value,
	// module outputs are not read, variable validation rules do not run
	// and providers are validated but not configured.
	unknowns bool
	// orphans: the state's instances the configuration no longer
	// expands to are processed too (planned for deletion, refreshed).
	orphans bool
	// validateOnce: the instances of a resource block in one module
	// instance that share one configuration validate it once.
	validateOnce bool
	// checkDestroyRefs: the references of destroy-time provisioners are
	// checked (the apply relies on the plan having done it).
	checkDestroyRefs bool
	// impure: expressions may call impure functions (apply).
	impure bool
	// skipOutputs: outputs are not evaluated (destroying: their
	// resources may be gone).
	skipOutputs bool
	// verb is what the skipped-objects summary says was not done.
	verb string
	// conditionsWarn: failed preconditions and postconditions are
	// warnings, not errors (a refresh-only plan, as in Terraform).
	conditionsWarn bool
	// applying is what terraform.applying says: true in an apply walk.
	applying bool
}
