package variables

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
)

// SelfOnly reports whether every validation rule of v refers to nothing
// but the variable itself (var.NAME), as Terraform required before 1.9;
// such rules are evaluated with the variable's value alone (Validate).
// Rules that refer to other objects of the module (Terraform 1.9) are
// evaluated with ValidateWith once those have values. O(references).
func SelfOnly(v *configs.Variable) bool {
	for _, rule := range v.Validations {
		for _, expr := range []hcl.Expression{rule.Condition, rule.ErrorMessage} {
			if expr == nil {
				continue
			}
			for _, trav := range expr.Variables() {
				ref, diags := addrs.ParseRef(trav)
				if diags.HasErrors() {
					return false
				}
				if iv, ok := ref.Subject.(addrs.InputVariable); !ok || iv.Name != v.Name {
					return false
				}
			}
		}
	}
	return true
}

// ValidateWith evaluates v's validation blocks, each in the evaluation
// context ctxFor builds for it (with whatever the rule refers to), with
// the results and messages of Validate. decided is false when a rule's
// condition is unknown (it refers to values known only after apply) and
// no rule failed. Cost: one context and one evaluation per block.
func ValidateWith(v *configs.Variable, ctxFor func(*configs.CheckRule) (*hcl.EvalContext, hcl.Diagnostics)) (_ hcl.Diagnostics, decided bool) {
	var diags hcl.Diagnostics
	decided = true
	for _, rule := range v.Validations {
		ctx, d := ctxFor(rule)
		diags = append(diags, d...)
		if d.HasErrors() {
			continue
		}
		d, ok := checkRule(v, rule, ctx)
		diags = append(diags, d...)
		decided = decided && ok
	}
	return diags, decided || diags.HasErrors()
}
