package inputguard

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/plankit/plankit/bench/gen"
)

// TestCheckConfigLiteralRuns: a large configuration without heredocs or
// long lines is not lexed a second time, and every run the full check
// reports (heredoc lines, escapes in one quoted string) still is.
func TestCheckConfigLiteralRuns(t *testing.T) {
	big, err := gen.Config(gen.Independent, 5000) // 15,000 lines
	if err != nil {
		t.Fatal(err)
	}
	heredoc := "x = <<EOT\n" + strings.Repeat("line\n", MaxLiteralRun+1) + "EOT\n"
	escapes := "x = \"" + strings.Repeat("$${a}", MaxLiteralRun+1) + "\"\n"
	shortHeredoc := big + "x = <<EOT\nhello\nEOT\n"
	for _, c := range []struct {
		name      string
		src       string
		wantLexed bool
		wantErr   bool
	}{
		{"many lines, no heredoc", big, false, false},
		{"long heredoc", heredoc, true, true},
		{"escapes in one string", escapes, true, true},
		{"many lines, short heredoc", shortHeredoc, true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			lexed := false
			diags := checkConfigLiteralRuns([]byte(c.src), func() hclsyntax.Tokens {
				lexed = true
				tokens, _ := hclsyntax.LexConfig([]byte(c.src), "main.tf", hcl.InitialPos)
				return tokens
			})
			if lexed != c.wantLexed {
				t.Errorf("lexed = %v, want %v", lexed, c.wantLexed)
			}
			if diags.HasErrors() != c.wantErr {
				t.Errorf("errors = %v, want %v: %v", diags.HasErrors(), c.wantErr, diags)
			}
		})
	}
}

// BenchmarkConfigLiteralRuns checks the literal runs of a generated
// configuration of n resources with the line-length test first (as
// CheckNesting does) and by lexing it.
// Run: go test -run '^$' -bench ConfigLiteralRuns -benchmem ./configs/
func BenchmarkConfigLiteralRuns(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		src, err := gen.Config(gen.Independent, n)
		if err != nil {
			b.Fatal(err)
		}
		for _, mode := range []struct {
			name  string
			check func([]byte, func() hclsyntax.Tokens) hcl.Diagnostics
		}{{"fast", checkConfigLiteralRuns}, {"general", checkLiteralRuns}} {
			b.Run(fmt.Sprintf("%d/%s", n, mode.name), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					lex := func() hclsyntax.Tokens {
						tokens, _ := hclsyntax.LexConfig([]byte(src), "main.tf", hcl.InitialPos)
						return tokens
					}
					if diags := mode.check([]byte(src), lex); diags.HasErrors() {
						b.Fatal(diags)
					}
				}
			})
		}
	}
}
