package terraform

import (
	"context"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/lang"
	"github.com/plankit/plankit/internal/terraform/namedvals"
	"github.com/plankit/plankit/internal/terraform/variables"
)

// nodeVariableValidation evaluates the validation blocks of an input
// variable whose rules refer to other objects of its module (other
// variables, locals, resources: Terraform 1.9), once per instance of the
// module, after the variable and those objects have values. A separate
// node, as in Terraform, so that a rule may refer to something that
// itself depends on the variable without making a cycle. Variables whose
// rules refer only to themselves are validated by their nodeVariable.
type nodeVariableValidation struct {
	cfg *configs.Config
	v   *configs.Variable
}

var (
	_ executable = (*nodeVariableValidation)(nil)
	_ referencer = (*nodeVariableValidation)(nil)
)

func (n *nodeVariableValidation) Name() string {
	return joinAddr(n.cfg.Path.String(), "var."+n.v.Name) + " (validation)"
}

func (n *nodeVariableValidation) references() []refKey {
	keys := append([]refKey{keyIn(n.cfg.Path, "var."+n.v.Name)}, conditionKeys(n.cfg.Path, n.v.Validations)...)
	if !n.cfg.Path.IsRoot() {
		keys = append(keys, moduleCallKey(n.cfg.Path))
	}
	return keys
}

func (n *nodeVariableValidation) Execute(ctx context.Context, ws *walkState) hcl.Diagnostics {
	root := n.cfg.Path.IsRoot()
	if ws.traits.unknowns && !root {
		return nil // as nodeVariable: module variables are not validated then
	}
	var diags hcl.Diagnostics
	for _, mi := range ws.exp.moduleInstances(n.cfg.Path) {
		val, ok := ws.named.GetKey(mi.key, namedvals.Variable, n.v.Name)
		if !ok {
			continue // the variable's own node failed
		}
		s := ws.scope(mi, n.cfg, nil, nil)
		d, decided := variables.ValidateWith(n.v, func(rule *configs.CheckRule) (*hcl.EvalContext, hcl.Diagnostics) {
			refs, diags := lang.ReferencesInExpr(rule.Condition)
			more, d := lang.ReferencesInExpr(rule.ErrorMessage)
			refs, diags = append(refs, more...), append(diags, d...)
			ectx, d := s.EvalContext(refs)
			return ectx, append(diags, d...)
		})
		ws.putScope(s)
		diags = append(diags, d...)
		if !decided {
			val = cty.DynamicVal // reported unknown, as the value would be
		}
		switch {
		case ws.traits.unknowns:
		case root:
			ws.checks.variable(nil, nil, n.v, val, d)
		default:
			ws.checks.variable(n.cfg.Path, mi.addr, n.v, val, d)
		}
	}
	return diags
}
