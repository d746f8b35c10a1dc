package command

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCanonicalSource: fmt's layout and its two expression rewrites, and
// what it must leave alone.
func TestCanonicalSource(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"layout", "output \"x\" {\nvalue = [1,2]\n}\n", "output \"x\" {\n  value = [1, 2]\n}\n"},
		{"single interpolation", "output \"x\" { value = \"${var.a}\" }\n", "output \"x\" { value = var.a }\n"},
		{"multi-line interpolation", "output \"x\" {\n  value = \"${\n    var.a ? 1 : 2\n  }\"\n}\n", "output \"x\" {\n  value = var.a ? 1 : 2\n}\n"},
		{"multi-line expression kept in parentheses", "output \"x\" {\n  value = \"${var.a ?\n1 : 2}\"\n}\n", "output \"x\" {\n  value = (var.a ?\n  1 : 2)\n}\n"},
		{"template with text kept", "output \"x\" { value = \"hi ${var.a}\" }\n", "output \"x\" { value = \"hi ${var.a}\" }\n"},
		{"two interpolations kept", "output \"x\" { value = \"${var.a}${var.b}\" }\n", "output \"x\" { value = \"${var.a}${var.b}\" }\n"},
		{"nested template inside", "output \"x\" { value = \"${f(\"${var.a}\")}\" }\n", "output \"x\" { value = f(\"${var.a}\") }\n"},
		{"legacy quoted types", "variable \"a\" { type = \"list\" }\nvariable \"b\" { type = \"map\" }\nvariable \"c\" { type = \"string\" }\n",
			"variable \"a\" { type = list(string) }\nvariable \"b\" { type = map(string) }\nvariable \"c\" { type = string }\n"},
		{"bare collection types", "variable \"a\" { type = set }\n", "variable \"a\" { type = set(any) }\n"},
		{"bare labels quoted", "variable y {\n  default = 1\n}\nresource aws_instance \"web\" {\n  lifecycle {\n  }\n}\n",
			"variable \"y\" {\n  default = 1\n}\nresource \"aws_instance\" \"web\" {\n  lifecycle {\n  }\n}\n"},
		{"quoted labels kept as written", "resource \"x\" \"a\\u0062\" {}\n", "resource \"x\" \"a\\u0062\" {}\n"},
		{"nested block labels quoted", "resource \"x\" \"y\" {\n  dynamic setting {\n  }\n}\n", "resource \"x\" \"y\" {\n  dynamic \"setting\" {\n  }\n}\n"},
		{"type outside a variable kept", "resource \"x\" \"y\" { type = \"list\" }\n", "resource \"x\" \"y\" { type = \"list\" }\n"},
	}
	for _, tt := range tests {
		got, diags := formatSource([]byte(tt.in), "t.tf")
		if diags.HasErrors() {
			t.Fatalf("%s: %v", tt.name, diags)
		}
		if d := cmp.Diff(tt.want, string(got)); d != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, d)
		}
	}
	if _, diags := formatSource([]byte("output \"x\" {\n"), "bad.tf"); !diags.HasErrors() {
		t.Errorf("a file with a syntax error was formatted")
	}
}
