package terraform

import (
	"context"
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
)

// nodeCheck is a check block of a static module: its assertions are
// evaluated once per module instance after everything they refer to (and
// the block's scoped data source) is planned or applied. A false
// assertion is a warning, never an error: checks report, they do not
// block. In a plan an assertion that depends on values known only after
// apply is left unknown (with a warning) and evaluated again by the
// apply.
type nodeCheck struct {
	cfg *configs.Config
	c   *configs.Check
}

var (
	_ executable = (*nodeCheck)(nil)
	_ referencer = (*nodeCheck)(nil)
)

func (n *nodeCheck) Name() string { return joinAddr(n.cfg.Path.String(), "check."+n.c.Name) }

func (n *nodeCheck) references() []refKey {
	mod := n.cfg.Path
	keys := conditionKeys(mod, n.c.Asserts)
	if r := n.c.DataResource; r != nil {
		keys = append(keys, keyIn(mod, r.Addr().String()))
	}
	if !mod.IsRoot() {
		keys = append(keys, moduleCallKey(mod))
	}
	return keys
}

func (n *nodeCheck) Execute(ctx context.Context, ws *walkState) hcl.Diagnostics {
	if ws.traits.skipOutputs {
		return nil // destroying: what the assertions read is going away
	}
	var diags hcl.Diagnostics
	path := n.cfg.Path.String()
	for _, mi := range ws.exp.moduleInstances(n.cfg.Path) {
		addr := checkObjectAddr(mi.addr, n.c.Name)
		if st := ws.checks.status("check", path, n.c.Name, addr); st != "" {
			continue // its scoped data source failed: already reported
		}
		s := ws.scope(mi, n.cfg, nil, nil)
		s.Data.(*evalData).check = n.c.Name
		r := evalConditions(s, n.c.Asserts, condCheckAssert, hcl.DiagWarning, ws.traits.unknowns)
		ws.putScope(s)
		if ws.traits.unknowns {
			diags = append(diags, r.evalErrors()...)
			continue
		}
		diags = append(diags, r.diags...)
		ws.checks.object("check", path, n.c.Name, mi.addr.String(), addr, r.status, r.failures)
	}
	return diags
}

// preconditions evaluates the output's preconditions in module instance
// mi, before its value: a false one is an error and the output gets no
// value. Records the output's check result. O(conditions).
func (n *nodeOutput) preconditions(ws *walkState, mi moduleInst) hcl.Diagnostics {
	if len(n.o.Preconditions) == 0 {
		return nil
	}
	s := ws.scope(mi, n.cfg, nil, nil)
	r := evalConditions(s, n.o.Preconditions, condOutputPre, hcl.DiagError, ws.traits.unknowns)
	ws.putScope(s)
	if ws.traits.unknowns {
		return r.evalErrors()
	}
	ws.checks.object("output", n.cfg.Path.String(), n.o.Name, mi.addr.String(),
		joinAddr(mi.addr.String(), "output."+n.o.Name), r.status, r.failures)
	return r.diags
}

// conditionKeys returns the keys of the references of the conditions and
// error messages of rules; self is the object's own and refers to no
// node.
func conditionKeys(mod addrs.Module, rules ...[]*configs.CheckRule) []refKey {
	var keys []refKey
	for _, list := range rules {
		for _, r := range list {
			keys = append(keys, exprKeys(mod, r.Condition, r.ErrorMessage)...)
		}
	}
	return keys
}

// scopedDataDiag is the error for a reference to check block check's
// scoped data source addr from outside that block.
func scopedDataDiag(addr addrs.Resource, check string, rng hcl.Range) hcl.Diagnostics {
	return refErr(rng, "Reference to scoped resource",
		fmt.Sprintf("The referenced data resource %q %q is not available from this context: it is scoped to check block %q and only that block's assertions can refer to it.", addr.Type, addr.Name, check))
}
