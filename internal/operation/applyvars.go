package operation

import (
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/terraform"
	"github.com/plankit/plankit/plans"
)

// SavedPlanVariables returns the values apply FILE gives the core for the
// configuration's ephemeral root variables, which a plan never stores
// (docs/ephemeral.md). They are collected as plan collects variables
// (TF_VAR_, the directory's .tfvars files, -var and -var-file in args).
// It refuses, naming the variable, a required ephemeral variable given no
// value, and a non-ephemeral variable given by -var, -var-file or TF_VAR_
// with a value other than the plan's: the plan was made with that one. (A
// variable the plan does not record, as those of the encryption block,
// is not compared.)
func SavedPlanVariables(config *configs.Config, plan *plans.Plan, wd string, args []VarArg, env []string) (terraform.InputValues, hcl.Diagnostics) {
	vals, diags := CollectVariables(config, wd, args, env)
	if diags.HasErrors() {
		return nil, diags
	}
	decls := config.Module.Variables
	out := terraform.InputValues{}
	for _, name := range slices.Sorted(maps.Keys(decls)) {
		decl := decls[name]
		iv := vals[name]
		if decl.Ephemeral {
			if iv != nil {
				out[name] = iv
			} else if decl.Required() {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "No value for ephemeral variable",
					Detail: fmt.Sprintf("Variable %q is ephemeral: the saved plan does not hold its value, so applying it needs the value again. "+
						"Give it with -var, -var-file or TF_VAR_%s, as when planning.", name, name),
					Subject: decl.DeclRange.Ptr(),
				})
			}
			continue
		}
		if iv == nil || (iv.SourceType != terraform.ValueFromCLIArg && iv.SourceType != terraform.ValueFromNamedFile && iv.SourceType != terraform.ValueFromEnvVar) {
			continue
		}
		planned, ok := plan.VariableValues[name]
		if !ok {
			// Not recorded: a variable the encryption block uses, which
			// apply takes from TF_VAR_ (RestoreEncryptionVars).
			continue
		}
		if !sameVariableValue(decl, iv.Value, planned) {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Variable changed since the plan",
				Detail: fmt.Sprintf("Variable %q is given a value (%s) other than the one the saved plan was made with. "+
					"A saved plan applies with its own values: drop this value, or plan again with it. Only ephemeral variables are given again at apply.", name, describeSource(iv)),
				Subject: decl.DeclRange.Ptr(),
			})
		}
	}
	return out, diags
}

// sameVariableValue reports whether given and planned are the same value
// of decl's type (the plan records a value as given).
func sameVariableValue(decl *configs.Variable, given, planned cty.Value) bool {
	conv := func(v cty.Value) cty.Value {
		if c, err := convert.Convert(v, decl.Type); err == nil {
			return c
		}
		return v
	}
	g, p := conv(given), conv(planned)
	if !g.IsWhollyKnown() || !p.IsWhollyKnown() {
		return false
	}
	return g.Equals(p).True()
}

// describeSource says where a variable's value came from.
func describeSource(iv *terraform.InputValue) string {
	switch iv.SourceType {
	case terraform.ValueFromCLIArg:
		return "with -var"
	case terraform.ValueFromNamedFile:
		return "in a -var-file"
	default:
		return "in the environment"
	}
}
