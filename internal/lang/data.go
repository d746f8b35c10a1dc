package lang

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
)

// Data supplies the values references resolve to. The core implements it
// over the state and plan being built; each method receives the range of
// the reference so its diagnostics can point at it.
//
// Every method may return an unknown value (during plan, for values not yet
// known) and marked values (sensitive). A method that returns error
// diagnostics should also return cty.DynamicVal so evaluation can go on
// without cascading errors.
type Data interface {
	// GetCountAttr returns count.index (or an error outside a count block).
	GetCountAttr(addr addrs.CountAttr, rng hcl.Range) (cty.Value, hcl.Diagnostics)
	// GetForEachAttr returns each.key or each.value.
	GetForEachAttr(addr addrs.ForEachAttr, rng hcl.Range) (cty.Value, hcl.Diagnostics)
	// GetResource returns the whole resource: its object when it has no
	// count or for_each, a tuple (count) or object (for_each) of instance
	// objects otherwise. Instance references index into it.
	GetResource(addr addrs.Resource, rng hcl.Range) (cty.Value, hcl.Diagnostics)
	// GetLocalValue returns local.NAME.
	GetLocalValue(addr addrs.LocalValue, rng hcl.Range) (cty.Value, hcl.Diagnostics)
	// GetModule returns the whole module call: an object of its outputs,
	// or a tuple/object of such objects for count/for_each.
	GetModule(addr addrs.ModuleCall, rng hcl.Range) (cty.Value, hcl.Diagnostics)
	// GetPathAttr returns path.module, path.root or path.cwd.
	GetPathAttr(addr addrs.PathAttr, rng hcl.Range) (cty.Value, hcl.Diagnostics)
	// GetTerraformAttr returns terraform.workspace or terraform.applying.
	GetTerraformAttr(addr addrs.TerraformAttr, rng hcl.Range) (cty.Value, hcl.Diagnostics)
	// GetInputVariable returns var.NAME.
	GetInputVariable(addr addrs.InputVariable, rng hcl.Range) (cty.Value, hcl.Diagnostics)
}
