package terraform

import (
	"context"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// validateWalk is the operation of Validate: each instance's
// configuration is evaluated (count, each and unknown inputs unknown) and
// given to its provider to validate; nothing is read or planned.
type validateWalk struct{}

var _ operation = validateWalk{}

func (validateWalk) traits() opTraits {
	return opTraits{unknowns: true, checkDestroyRefs: true, verb: "validated"}
}

// resolveImports does nothing: Validate checks the import blocks before
// the walk (prepareImports), and their ids are not known here.
func (validateWalk) resolveImports(*walkState, *nodeResource) hcl.Diagnostics { return nil }

// managedInstance evaluates a managed instance's configuration and asks
// the provider to validate it.
func (validateWalk) managedInstance(_ context.Context, ic *instanceCtx) hcl.Diagnostics {
	_, _, diags := ic.evalConfig()
	ic.ws.values.set(ic.w.addr, cty.UnknownVal(ic.n.ty))
	return append(diags, ic.validateConditions()...)
}

// ephemeralInstance evaluates an ephemeral resource instance's
// configuration and asks the provider to validate it; nothing is opened
// and its value is unknown.
func (validateWalk) ephemeralInstance(_ context.Context, ic *instanceCtx) hcl.Diagnostics {
	_, _, diags := ic.evalConfig()
	ic.ws.values.set(ic.w.addr, ic.ephemeralUnknown())
	return append(diags, ic.validateConditions()...)
}

// dataInstance evaluates a data source instance's configuration and asks
// the provider to validate it; its value is unknown.
func (validateWalk) dataInstance(_ context.Context, ic *instanceCtx) hcl.Diagnostics {
	if ic.w.gone {
		return nil
	}
	_, _, diags := ic.evalConfig()
	ic.ws.values.set(ic.w.addr, cty.UnknownVal(ic.n.ty))
	return append(diags, ic.validateConditions()...)
}
