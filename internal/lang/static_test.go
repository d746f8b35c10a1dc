package lang

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// TestStatic: constructors of literals are static; anything that may
// refer to something (a reference, a parenthesised or dotted key, a
// template with an interpolation, a function call, an operator) is not.
func TestStatic(t *testing.T) {
	tests := []struct {
		src  string
		want bool
	}{
		{`{ idx = 0, name = "r0" }`, true},
		{`[1, "a", null, true, { "k v" = [] }]`, true},
		{"<<EOT\nx\nEOT\n", true},
		{`"a$${b}"`, true},
		{`{ a = { b = { c = "d" } } }`, true},
		{`var.v`, false},
		{`{ a = var.v }`, false},
		{`{ (k) = 1 }`, false},
		{`{ a.b = 1 }`, false},
		{`"${x}"`, false},
		{`"a${"b"}"`, false},
		{`upper("a")`, false},
		{`-1`, false},
		{`[for x in [] : x]`, false},
	}
	for _, tt := range tests {
		expr, diags := hclsyntax.ParseExpression([]byte(tt.src), "main.tf", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatalf("%s: %s", tt.src, diags.Error())
		}
		if got := Static(expr); got != tt.want {
			t.Errorf("Static(%s) = %t, want %t", tt.src, got, tt.want)
		}
		if got := len(Variables(expr)); got != len(expr.Variables()) {
			t.Errorf("Variables(%s) has %d traversals, hclsyntax finds %d", tt.src, got, len(expr.Variables()))
		}
	}
}

// FuzzStatic: an expression Static accepts has no variables.
func FuzzStatic(f *testing.F) {
	for _, s := range []string{`{ idx = 0, name = "r0" }`, `[1, { a = "b" }]`, `{ (k) = 1 }`, `{ a.b = 1 }`, `"${x}"`, `{ "a" = x }`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		expr, diags := hclsyntax.ParseExpression([]byte(src), "main.tf", hcl.InitialPos)
		if diags.HasErrors() {
			return
		}
		if Static(expr) && len(expr.Variables()) > 0 {
			t.Errorf("Static(%q) is true, but it has variables %v", src, expr.Variables())
		}
	})
}
