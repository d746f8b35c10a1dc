package configs

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/internal/inputguard"
)

// deepParens is a local whose value nests n parentheses: deep enough (at
// 100,000) to overflow Go's stack in the HCL parser without inputguard.CheckNesting.
func deepParens(n int) string {
	return "locals {\n  x = " + strings.Repeat("(", n) + "1" + strings.Repeat(")", n) + "\n}\n"
}

// deepJSON is deepParens for the JSON syntax: n nested arrays.
func deepJSON(n int) string {
	return "{\"locals\": {\n\"x\": " + strings.Repeat("[", n) + strings.Repeat("]", n) + "}}\n"
}

func TestNestingLimit(t *testing.T) {
	tooDeep := []string{"main.tf:2: Configuration nested too deeply"}
	tooDeepJSON := []string{"main.tf.json:2: Configuration nested too deeply"}
	tests := []struct {
		name, file, src string
		want            []string // diagnostics as "file:line: summary"
	}{
		{"native 100000 parens", "main.tf", deepParens(100000), tooDeep},
		// locals { is level 1, so limit-1 parentheses is the deepest allowed.
		{"native at the limit", "main.tf", deepParens(inputguard.MaxNestingDepth - 1), nil},
		{"native one past the limit", "main.tf", deepParens(inputguard.MaxNestingDepth), tooDeep},
		{"native nested blocks", "main.tf", "\n\n" + strings.Repeat("a {\n", 100000) + strings.Repeat("}\n", 100000),
			[]string{"main.tf:1003: Configuration nested too deeply"}},
		{"native nested templates", "main.tf", "locals {\n  x = " + strings.Repeat(`"${`, 50000) + strings.Repeat(`}"`, 50000) + "\n}\n", tooDeep},
		{"native nested brackets in a heredoc interpolation", "main.tf",
			"locals {\n  x = <<EOT\n${" + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + "}\nEOT\n}\n",
			[]string{"main.tf:3: Configuration nested too deeply"}},
		{"json 100000 arrays", "main.tf.json", deepJSON(100000), tooDeepJSON},
		{"json at the limit", "main.tf.json", deepJSON(inputguard.MaxNestingDepth - 2), nil},
		{"json one past the limit", "main.tf.json", deepJSON(inputguard.MaxNestingDepth - 1), tooDeepJSON},
		{"json template in a string", "main.tf.json",
			"{\"locals\": {\n\"x\": \"${" + strings.Repeat("(", 100000) + "1" + strings.Repeat(")", 100000) + "}\"}}", tooDeepJSON},
		{"json template behind an escaped dollar", "main.tf.json",
			"{\"locals\": {\n\"x\": \"\\u0024{" + strings.Repeat("(", 100000) + "1" + strings.Repeat(")", 100000) + "}\"}}", tooDeepJSON},

		// Valid configurations full of brace characters the parser does not nest.
		{"heredoc with braces", "main.tf",
			"locals {\n  x = <<EOT\n" + strings.Repeat("{[(", 5000) + "\nEOT\n  y = <<-EOT\n    " + strings.Repeat("}", 5000) + "\n    EOT\n}\n", nil},
		{"quoted string with braces and escapes", "main.tf",
			"locals {\n  x = \"" + strings.Repeat(`{[(\"$${%%{`, 3000) + "\"\n}\n", nil},
		{"template directives", "main.tf",
			"locals {\n  x = \"%{ for v in [1, 2] }${v}%{ endfor }" + strings.Repeat("{", 5000) + "\"\n" +
				"  y = <<EOT\n%{ if true ~}\n" + strings.Repeat("{{", 3000) + "\n%{ endif ~}\nEOT\n}\n", nil},
		{"comments with brackets", "main.tf",
			"# " + strings.Repeat("(", 5000) + "\n// " + strings.Repeat("[", 5000) + "\n/* " + strings.Repeat("{", 5000) + " */\n" +
				"locals {\n  x = 1 # " + strings.Repeat("((", 5000) + "\n}\n", nil},
		{"json strings with brackets", "main.tf.json",
			`{"locals": {"x": "` + strings.Repeat(`[{(\"`, 5000) + `", "y": "$${` + strings.Repeat("{", 5000) + `"}}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := (&Loader{}).LoadModuleFromFiles(".", map[string][]byte{tt.file: []byte(tt.src)})
			if diff := cmp.Diff(tt.want, diagSummaries(diags)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}

// TestInvalidUTF8 checks that a byte that is not UTF-8 inside a token
// gives only the encoding error, not the follow-on "Unterminated template
// string"; in a comment it is accepted, as Terraform accepts it.
func TestInvalidUTF8(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"in a string", "locals {\n  x = \"ab\xffc\"\n  y = 1\n}\n",
			[]string{"main.tf:2: Invalid character encoding"}},
		{"in two strings", "locals {\n  x = \"\xff\"\n  y = \"a\xc3\"\n}\n",
			[]string{"main.tf:2: Invalid character encoding"}}, // the lexer loses its place after the first
		{"in a comment", "# caf\xe9\nlocals {\n  x = 1\n}\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := (&Loader{}).LoadModuleFromFiles(".", map[string][]byte{"main.tf": []byte(tt.src)})
			if diff := cmp.Diff(tt.want, diagSummaries(diags)); diff != "" {
				t.Fatalf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}
