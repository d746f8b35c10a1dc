package configs

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// bigConfig is n resources in Terraform's layout, with a heredoc whose
// text has lone "}" lines and a block comment holding one, so that some
// cut points fall where cutting is wrong.
func bigConfig(n int, trap string) []byte {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "resource \"terraform_data\" \"r%d\" {\n  input = \"v%d\"\n}\n", i, i)
		if i == n/2 {
			b.WriteString(trap)
		}
	}
	return []byte(b.String())
}

// TestParseSplitSameAsOneParse: the pieces joined are the body one parse
// gives, ranges included; a cut inside a heredoc or a comment is refused
// (the whole file is then parsed at once). Small files cut in 4 pieces
// stand for large ones cut in one piece per core.
func TestParseSplitSameAsOneParse(t *testing.T) {
	lone := strings.Repeat("}\n", 400) // lone braces across every cut point
	for _, tt := range []struct {
		name  string
		trap  string
		split bool
	}{
		{"plain", "", true},
		{"heredoc", "locals {\n  doc = <<EOT\n" + lone + "EOT\n}\n", false},
		{"indented heredoc", "locals {\n  doc = <<-EOT\n" + lone + "  EOT\n}\n", false},
		{"comment", "/*\n" + lone + "*/\n", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			src := bigConfig(40, tt.trap)
			want, diags := hclsyntax.ParseConfig(src, "main.tf", hcl.InitialPos)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			got, ok := parsePieces(src, "main.tf", 4, 100)
			if ok != tt.split {
				t.Fatalf("split = %v, want %v", ok, tt.split)
			}
			if !ok {
				return
			}
			if !reflect.DeepEqual(got.Body, want.Body) {
				t.Fatal("the joined body differs from one parse's")
			}
			if n := len(got.Body.(*hclsyntax.Body).Blocks); n != 40 {
				t.Fatalf("%d blocks", n)
			}
			if _, ok := parsePieces(src, "main.tf", 4, len(src)+1); ok {
				t.Fatal("split a file below the size limit")
			}
		})
	}
}

// TestParseSplitErrorsFromOneParse: a file with an error is parsed again
// as a whole, so the diagnostics are one parse's.
func TestParseSplitErrorsFromOneParse(t *testing.T) {
	src := bigConfig(40, "resource \"x\" \"y\" {\n  input = \n}\n")
	if _, ok := parsePieces(src, "main.tf", 4, 100); ok {
		t.Fatal("split a file with an error")
	}
	_, diags := parseSource("main.tf", src)
	if !diags.HasErrors() || !strings.Contains(diags.Error(), "main.tf:") {
		t.Fatalf("diags = %v", diags)
	}
}
