package funcs

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/customdecode"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

func TestTemplateString(t *testing.T) {
	s := cty.StringVal
	locals := cty.ObjectVal(map[string]cty.Value{
		"hello":   s("Hello, ${name}!"),
		"loop":    s("%{ for x in list ~}[${upper(x)}]%{ endfor ~}"),
		"single":  s("${list}"),
		"recurse": s(`${templatestring(x, {})}`),
		"bad":     s("${"),
		"secret":  sens(s("Hi ${name}")),
		"unknown": cty.UnknownVal(cty.String),
		"null":    cty.NullVal(cty.String),
		"number":  cty.NumberIntVal(1),
	})
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{"local": locals}, Functions: map[string]function.Function{"upper": stdlib.UpperFunc}}
	ref := func(src string) cty.Value {
		expr, diags := hclsyntax.ParseExpression([]byte(src), "main.tf", hcl.Pos{Line: 1, Column: 1})
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		return customdecode.ExpressionClosureVal(&customdecode.ExpressionClosure{Expression: expr, EvalContext: ctx})
	}
	var table map[string]function.Function
	ts := MakeTemplateStringFunc(func() map[string]function.Function { return table })
	table = map[string]function.Function{"upper": stdlib.UpperFunc, "templatestring": ts}
	vars := func(m map[string]cty.Value) cty.Value { return cty.ObjectVal(m) }
	runCases(t, ts, []callCase{
		{name: "hello", args: []cty.Value{ref("local.hello"), vars(map[string]cty.Value{"name": s("Jodie")})}, want: s("Hello, Jodie!")},
		{name: "index traversal", args: []cty.Value{ref(`local["hello"]`), vars(map[string]cty.Value{"name": s("Jo")})}, want: s("Hello, Jo!")},
		{name: "functions", args: []cty.Value{ref("local.loop"), vars(map[string]cty.Value{"list": strs("a", "b")})}, want: s("[A][B]")},
		{name: "single interpolation keeps type", args: []cty.Value{ref("local.single"), vars(map[string]cty.Value{"list": strs("a")})}, want: strs("a")},
		// OpenTofu documents a literal template; Terraform refuses it.
		{name: "literal", args: []cty.Value{ref(`"Hello, $${name}"`), vars(map[string]cty.Value{"name": s("Jo")})}, want: s("Hello, Jo")},
		{name: "heredoc literal", args: []cty.Value{ref("<<EOT\n%%{ for x in list ~}[$${x}]%%{ endfor ~}\nEOT\n"), vars(map[string]cty.Value{"list": strs("a", "b")})}, want: s("[a][b]")},
		{name: "template expression", args: []cty.Value{ref(`"${local.hello} "`), vars(map[string]cty.Value{"name": s("Jo")})}, want: s("Hello, Jo! ")},
		{name: "function call", args: []cty.Value{ref(`upper(local.hello)`), vars(map[string]cty.Value{"NAME": s("Jo")})}, want: s("HELLO, Jo!")},
		{name: "number converted", args: []cty.Value{ref(`42`), cty.EmptyObjectVal}, want: s("42")},
		{name: "missing var", args: []cty.Value{ref("local.hello"), cty.EmptyObjectVal}, err: `vars map does not contain key "name"`},
		{name: "recursion", args: []cty.Value{ref("local.recurse"), vars(map[string]cty.Value{"x": s("")})}, err: "cannot call templatestring from inside a template"},
		{name: "syntax error", args: []cty.Value{ref("local.bad"), cty.EmptyObjectVal}, err: "main.tf:1"},
		{name: "unknown template", args: []cty.Value{ref("local.unknown"), cty.EmptyObjectVal}, want: cty.DynamicVal},
		{name: "unknown vars", args: []cty.Value{ref("local.hello"), cty.DynamicVal}, want: cty.DynamicVal},
		{name: "unknown var value", args: []cty.Value{ref("local.hello"), vars(map[string]cty.Value{"name": cty.UnknownVal(cty.String)})}, want: cty.UnknownVal(cty.String)},
		{name: "null template", args: []cty.Value{ref("local.null"), cty.EmptyObjectVal}, err: "must not be null"},
		{name: "null vars", args: []cty.Value{ref("local.hello"), cty.NullVal(cty.DynamicPseudoType)}, err: "must not be null"},
		{name: "not a string", args: []cty.Value{ref("[1]"), cty.EmptyObjectVal}, err: "must be a string"},
		{name: "undefined reference", args: []cty.Value{ref("local.nope"), cty.EmptyObjectVal}, err: "Unsupported attribute"},
		{name: "sensitive template", args: []cty.Value{ref("local.secret"), vars(map[string]cty.Value{"name": s("Jo")})}, want: sens(s("Hi Jo"))},
		{name: "sensitive var", args: []cty.Value{ref("local.hello"), vars(map[string]cty.Value{"name": sens(s("Jo"))})}, want: sens(s("Hello, Jo!"))},
	})
}
