package variables

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/configs"
)

func rule(t *testing.T, cond, msg string) *configs.CheckRule {
	t.Helper()
	c, diags := hclsyntax.ParseExpression([]byte(cond), "main.tf", hcl.InitialPos)
	m, d2 := hclsyntax.ParseTemplate([]byte(msg), "main.tf", hcl.InitialPos)
	if diags.HasErrors() || d2.HasErrors() {
		t.Fatal(diags, d2)
	}
	return &configs.CheckRule{Condition: c, ErrorMessage: m}
}

func TestSelfOnly(t *testing.T) {
	tests := []struct {
		cond, msg string
		want      bool
	}{
		{`var.x > 0`, `x is ${var.x}`, true},
		{`length(var.x) > 0`, `plain`, true},
		{`var.x > var.min`, `x`, false},
		{`var.x > 0`, `min is ${local.min}`, false},
		{`contains(local.allowed, var.x)`, `x`, false},
		{`var.x != test_thing.a.id`, `x`, false},
	}
	for _, tc := range tests {
		v := &configs.Variable{Name: "x", Validations: []*configs.CheckRule{rule(t, tc.cond, tc.msg)}}
		if got := SelfOnly(v); got != tc.want {
			t.Errorf("SelfOnly(%s / %s) = %v, want %v", tc.cond, tc.msg, got, tc.want)
		}
	}
}

func TestValidateWith(t *testing.T) {
	ctx := func(vals map[string]cty.Value) func(*configs.CheckRule) (*hcl.EvalContext, hcl.Diagnostics) {
		return func(*configs.CheckRule) (*hcl.EvalContext, hcl.Diagnostics) {
			return &hcl.EvalContext{Variables: map[string]cty.Value{"var": cty.ObjectVal(vals)}}, nil
		}
	}
	v := &configs.Variable{Name: "x", Validations: []*configs.CheckRule{rule(t, `var.x >= var.min`, `x below ${var.min}`)}}
	diags, decided := ValidateWith(v, ctx(map[string]cty.Value{"x": cty.NumberIntVal(1), "min": cty.NumberIntVal(2)}))
	if !decided || len(diags) != 1 || diags[0].Summary != "Invalid value for variable" || diags[0].Detail[:11] != "x below 2\n\n" {
		t.Errorf("failing rule: decided %v, %v", decided, diags)
	}
	diags, decided = ValidateWith(v, ctx(map[string]cty.Value{"x": cty.NumberIntVal(1), "min": cty.UnknownVal(cty.Number)}))
	if decided || len(diags) != 0 {
		t.Errorf("unknown rule: decided %v, %v", decided, diags)
	}
	diags, decided = ValidateWith(v, ctx(map[string]cty.Value{"x": cty.NumberIntVal(3), "min": cty.NumberIntVal(2)}))
	if !decided || len(diags) != 0 {
		t.Errorf("passing rule: decided %v, %v", decided, diags)
	}
}
