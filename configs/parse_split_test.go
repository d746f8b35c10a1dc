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
			// 4 pieces: one per core; 60: more pieces than blocks, so
			// nearly every block is a piece of its own (parseSplit cuts
			// a large file in many more pieces than cores).
			for _, pieces := range []int{4, 60} {
				got, ok := parsePieces(src, "main.tf", pieces, 100)
				if ok != tt.split {
					t.Fatalf("%d pieces: split = %v, want %v", pieces, ok, tt.split)
				}
				if !ok {
					continue
				}
				if !reflect.DeepEqual(got.Body, want.Body) {
					t.Fatalf("%d pieces: the joined body differs from one parse's", pieces)
				}
				if n := len(got.Body.(*hclsyntax.Body).Blocks); n != 40 {
					t.Fatalf("%d pieces: %d blocks", pieces, n)
				}
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
	for _, pieces := range []int{4, 60} {
		if _, ok := parsePieces(src, "main.tf", pieces, 100); ok {
			t.Fatalf("%d pieces: split a file with an error", pieces)
		}
	}
	_, diags := parseSource("main.tf", src)
	if !diags.HasErrors() || !strings.Contains(diags.Error(), "main.tf:") {
		t.Fatalf("diags = %v", diags)
	}
}

// FuzzParsePieces: whenever the pieces are accepted, the joined body is
// exactly the one a single parse gives, and that parse has no
// diagnostic (a refused split costs only time; an accepted wrong one
// would change the configuration).
func FuzzParsePieces(f *testing.F) {
	f.Add(bigConfig(6, ""), uint8(3))
	f.Add(bigConfig(6, "locals {\n  doc = <<EOT\n}\n}\nEOT\n}\n"), uint8(5))
	f.Add(bigConfig(6, "/*\n}\n*/\n"), uint8(8))
	f.Add([]byte("a = 1\nb {\n}\nc = <<X\n}\nX\nd {\n}\n"), uint8(4))
	f.Fuzz(func(t *testing.T, src []byte, pieces uint8) {
		got, ok := parsePieces(src, "main.tf", int(pieces), 0)
		if !ok {
			return
		}
		want, diags := hclsyntax.ParseConfig(src, "main.tf", hcl.InitialPos)
		if len(diags) > 0 {
			t.Fatalf("pieces accepted, but one parse says: %s", diags.Error())
		}
		if !reflect.DeepEqual(got.Body, want.Body) {
			t.Fatal("the joined body differs from one parse's")
		}
	})
}
