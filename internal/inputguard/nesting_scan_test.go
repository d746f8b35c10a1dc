package inputguard

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// lexerMaxDepth is the deepest nesting tokenNestingExceeded would see in
// src: the reference scanNestingBound must never under-estimate.
func lexerMaxDepth(src []byte) int {
	tokens, _ := hclsyntax.LexConfig(src, "main.tf", hcl.InitialPos)
	depth, maxDepth := 0, 0
	for _, tok := range tokens {
		switch tokenNesting(tok.Type) {
		case +1:
			depth++
			maxDepth = max(maxDepth, depth)
		case -1:
			if depth > 0 {
				depth--
			}
		}
	}
	return maxDepth
}

// checkScanBound fails t if scanNestingBound under-estimates the lexer on
// src, or if checkNesting's verdict differs from the lexer-only check. It
// reports whether the scan vouched for a bound and whether it was exact.
func checkScanBound(t *testing.T, src []byte) (ok, exact bool) {
	t.Helper()
	want := lexerMaxDepth(src)
	bound, ok := scanNestingBound(src, math.MaxInt)
	if ok && bound < want {
		t.Fatalf("scanNestingBound = %d, lexer depth %d (under-estimate) for %q", bound, want, truncate(src))
	}
	// The limited scan that checkNesting runs must agree too.
	if b, ok := scanNestingBound(src, maxNestingDepth); ok && b <= maxNestingDepth && want > maxNestingDepth {
		t.Fatalf("limited scanNestingBound = %d accepts, lexer depth %d for %q", b, want, truncate(src))
	}
	tokens, _ := hclsyntax.LexConfig(src, "main.tf", hcl.InitialPos)
	_, lexRejects := tokenNestingExceeded(tokens)
	if got := checkNesting("main.tf", src, false).HasErrors(); got != lexRejects {
		t.Fatalf("checkNesting rejects = %v, lexer-based check rejects = %v for %q", got, lexRejects, truncate(src))
	}
	return ok, ok && bound == want
}

func truncate(src []byte) string {
	if len(src) > 300 {
		return string(src[:300]) + "..."
	}
	return string(src)
}

// TestScanNestingBoundFixtures checks every .tf fixture: the scan must be
// exact on them (they are ordinary configurations, the case it exists for).
func TestScanNestingBoundFixtures(t *testing.T) {
	var paths []string
	err := filepath.WalkDir(fixturesDir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".tf") {
			paths = append(paths, p)
		}
		return err
	})
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures (%v)", err)
	}
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if ok, exact := checkScanBound(t, src); !ok || !exact {
			t.Errorf("%s: scan not exact (ok=%v): bound vs lexer %d", p, ok, lexerMaxDepth(src))
		}
	}
}

// TestScanNestingBoundCases covers the lexer's corner cases one by one,
// plus the TestNestingLimit inputs.
func TestScanNestingBoundCases(t *testing.T) {
	cases := []string{
		deepParens(100000), deepParens(maxNestingDepth - 1), deepParens(maxNestingDepth),
		strings.Repeat("a {\n", 2000) + strings.Repeat("}\n", 2000),
		"x = \"" + strings.Repeat(`${"`, 600) + strings.Repeat(`"}`, 600) + "\"\n",
		"x = <<EOT\n${" + strings.Repeat("[", 1500) + strings.Repeat("]", 1500) + "}\nEOT\n",
		"x = <<EOT\n" + strings.Repeat("{[(", 5000) + "\nEOT\n",
		"x = \"" + strings.Repeat(`{[(\"$${%%{`, 5000) + "\"\n",
		"/* " + strings.Repeat("{", 5000), // unterminated: the braces are code
		"/* " + strings.Repeat("{", 5000) + "*/",
		"# " + strings.Repeat("(", 5000) + "\n" + strings.Repeat("(", 10),
		"x = \"a\n" + strings.Repeat("(", 3000) + "\"", // a newline does not end a string
		"x = <<EOT\nEOT", "x = <<EOT\n  EOT  \n(", "x = <<-EOT\r\nEOT\r\n[", "x = <<EOT\nEOT\rX\n(((",
		"x = <<EOT\n${a}EOT\nEOT\n", "x = <<EOT\n$EOT\nEOT\n((", "x = <<EOT\n\xffEOT\n(((",
		"x = <<A\n${<<B\nA\nB\n}\nA\n", "x = \"${~ a ~}\" ~} } } {", "x = \"$${ ${a} %%{ %{ if a }x%{ endif }\"",
		"} } \"${ { } }\" ${ {", "x = \"\\${ a }\"", "x = \"\\\n{", "a = <<<EOT\n{\nEOT\n", "a = << EOT\n{",
		"x = \"$", "x = \"%", "x = \"$\"(", "\xef\xbb\xbfx = [[]]", "x = <<EOT\n%\n$\n$$\nEOT\n[",
		"x = \"é${[}\"", "é = [", "x = <<EOT\né\nEOT\n",
	}
	for _, s := range cases {
		checkScanBound(t, []byte(s))
	}
}

// TestScanNestingBoundRandom runs the differential check on random inputs
// drawn from the characters that matter to the lexer.
func TestScanNestingBoundRandom(t *testing.T) {
	pieces := []string{"{", "}", "[", "]", "(", ")", "\"", "\\", "$", "%", "${", "%{", "$${", "~}", "#", "//", "/*", "*/",
		"\n", "\r\n", "\r", " ", "a", "EOT", "<<EOT\n", "<<-EOT\n", "<<", "-", "é", "\xff", "x = "}
	r := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	for range 20000 {
		b.Reset()
		for range r.IntN(40) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		checkScanBound(t, []byte(b.String()))
	}
}

// FuzzScanNestingBound is the differential check as a fuzz target.
func FuzzScanNestingBound(f *testing.F) {
	for _, s := range fuzzSeeds(f, ".tf") {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		checkScanBound(t, src)
	})
}

// BenchmarkCheckNesting measures checkNesting on a generated configuration
// of 20,000 resources (about 1 MB).
func BenchmarkCheckNesting(b *testing.B) {
	var sb strings.Builder
	for i := range 20000 {
		sb.WriteString("resource \"terraform_data\" \"r")
		sb.WriteString(strings.Repeat("x", i%7))
		sb.WriteString("\" {\n  input = {\n    name = \"item-${var.prefix}\"\n    tags = [\"a\", \"b\"]\n    n    = max(1, 2)\n  }\n  # comment (\n}\n")
	}
	src := []byte(sb.String())
	b.Run("checkNesting", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			if checkNesting("main.tf", src, false).HasErrors() {
				b.Fatal("rejected")
			}
		}
	})
	b.Run("lexer only", func(b *testing.B) { // the exact fallback, for comparison
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			tokens, _ := hclsyntax.LexConfig(src, "main.tf", hcl.InitialPos)
			if _, bad := tokenNestingExceeded(tokens); bad {
				b.Fatal("rejected")
			}
		}
	})
}

// TestScanNestingBoundLinear guards against inputs that would make the scan
// quadratic: many comment or heredoc openers that never close.
func TestScanNestingBoundLinear(t *testing.T) {
	for _, s := range []string{"/*", "<<EOT\n$", "<<", "\"\\", "#", "<<-a"} {
		src := []byte(strings.Repeat(s, 2_000_000/len(s)))
		start := time.Now()
		scanNestingBound(src, maxNestingDepth)
		// Linear is a few ms for 2 MB; quadratic would be hours.
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%q repeated: %v for one scan", s, d)
		}
	}
}
