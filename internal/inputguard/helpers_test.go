package inputguard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fixturesDir holds the repository's configuration fixtures: ordinary
// configurations, the inputs the guards must pass quickly and exactly.
const fixturesDir = "../../testdata/fixtures"

// deepParens is a local whose value nests n parentheses: deep enough (at
// 100,000) to overflow Go's stack in the HCL parser without CheckNesting.
func deepParens(n int) string {
	return "locals {\n  x = " + strings.Repeat("(", n) + "1" + strings.Repeat(")", n) + "\n}\n"
}

// fuzzSeeds is the seed corpus of the fuzz targets: inputs nesting past
// the limit, a non-UTF-8 string, and every configuration fixture whose
// name ends in suffix.
func fuzzSeeds(f *testing.F, suffix string) [][]byte {
	f.Helper()
	seeds := [][]byte{
		nil,
		[]byte("{"),
		[]byte(deepParens(100000)),
		[]byte("{\"locals\": {\n\"x\": " + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + "}}\n"),
		[]byte("locals {\n  x = \"ab\xffc\"\n}\n"),
	}
	matches, _ := filepath.Glob(filepath.Join(fixturesDir, "config-*", "*"+suffix))
	for _, p := range matches {
		if src, err := os.ReadFile(p); err == nil {
			seeds = append(seeds, src)
		}
	}
	if len(seeds) < 10 {
		f.Fatalf("only %d seeds: fixtures not found under %s", len(seeds), fixturesDir)
	}
	return seeds
}
