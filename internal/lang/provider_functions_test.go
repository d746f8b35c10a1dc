package lang

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/plankit/plankit/internal/lang/marks"
	"github.com/plankit/plankit/providers"
)

func TestProviderFunction(t *testing.T) {
	calls := 0
	decl := providers.FunctionDecl{
		Parameters:        []providers.FunctionParam{{Name: "s", Type: cty.String}},
		VariadicParameter: &providers.FunctionParam{Name: "n", Type: cty.Number},
		ReturnType:        cty.String,
	}
	f := ProviderFunction(decl, func(args []cty.Value) (cty.Value, error) {
		calls++
		if args[0].AsString() == "bad" {
			one := 1
			return cty.NilVal, &providers.FunctionError{Text: "bad second argument", Argument: &one}
		}
		return cty.StringVal(args[0].AsString() + "!"), nil
	})
	scope := &Scope{ProviderFunctions: map[string]function.Function{ProviderFunctionName("p", "f"): f}}
	eval := func(src string) (cty.Value, hcl.Diagnostics) {
		expr, diags := hclsyntax.ParseExpression([]byte(src), "test.tf", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatalf("parse %s: %s", src, diags.Error())
		}
		return expr.Value(&hcl.EvalContext{Functions: scope.Functions(), Variables: map[string]cty.Value{
			"unk": cty.UnknownVal(cty.String),
			"sec": cty.StringVal("x").Mark(marks.Sensitive),
		}})
	}
	if v, diags := eval(`provider::p::f("a", 1, 2)`); diags.HasErrors() || !v.RawEquals(cty.StringVal("a!")) {
		t.Errorf("call = %#v %s", v, diags.Error())
	}
	if v, diags := eval(`provider::p::f(unk)`); diags.HasErrors() || v.IsKnown() {
		t.Errorf("unknown argument: %#v %s", v, diags.Error())
	}
	if v, diags := eval(`provider::p::f(sec)`); diags.HasErrors() || !v.HasMark(marks.Sensitive) {
		t.Errorf("sensitive argument: %#v %s", v, diags.Error())
	}
	_, diags := eval(`provider::p::f("bad", 1)`)
	if !diags.HasErrors() || !strings.Contains(diags.Error(), "bad second argument") || diags[0].Subject.Start.Column != 23 {
		t.Errorf("argument error: %s (subject %v)", diags.Error(), diags[0].Subject)
	}
	if _, diags := eval(`provider::p::f([1])`); !diags.HasErrors() {
		t.Errorf("wrong argument type accepted")
	}
	if calls != 3 {
		t.Errorf("provider called %d times, want 3 (not for unknown or ill-typed arguments)", calls)
	}
	if !IsProviderFunctionName("provider::p::f") || IsProviderFunctionName("upper") {
		t.Errorf("IsProviderFunctionName")
	}
}
