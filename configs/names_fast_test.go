package configs

import (
	"fmt"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// TestCheckNameAgreesWithHCL: the ASCII fast path never accepts a name
// HCL's lexer refuses, and checkName accepts exactly what HCL does.
func TestCheckNameAgreesWithHCL(t *testing.T) {
	for _, name := range []string{
		"a", "_", "r0", "terraform_data", "my-thing_2", "A-", "_9",
		"", "0a", "-a", "a b", "a.b", "a$", "é", "aé", "日本", "a\x00", "a\n", "a/b", "a\"",
	} {
		hclOK := hclsyntax.ValidIdentifier(name)
		if asciiIdentifier(name) && !hclOK {
			t.Errorf("asciiIdentifier(%q) = true, HCL refuses it", name)
		}
		if got := !checkName(name, "name", hcl.Range{}).HasErrors(); got != hclOK {
			t.Errorf("checkName(%q) accepts = %v, HCL says %v", name, got, hclOK)
		}
	}
}

// TestCheckNameNoAllocs: checking an ordinary name allocates nothing (the
// names of a 100,000-resource configuration used to cost a lexer run each).
func TestCheckNameNoAllocs(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() { checkName("terraform_data", "resource type", hcl.Range{}) }); n != 0 {
		t.Errorf("checkName allocates %v times, want 0", n)
	}
}

// BenchmarkCheckNames checks the resource names and types of n generated
// resources with asciiIdentifier first (as checkName does) and with HCL's
// lexer alone.
// Run: go test -run '^$' -bench CheckNames -benchmem ./configs/
func BenchmarkCheckNames(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		names := make([]string, 0, 2*n)
		for i := range n {
			names = append(names, "terraform_data", fmt.Sprintf("r%d", i))
		}
		for _, mode := range []struct {
			name  string
			valid func(string) bool
		}{{"fast", func(s string) bool { return asciiIdentifier(s) || hclsyntax.ValidIdentifier(s) }}, {"general", hclsyntax.ValidIdentifier}} {
			b.Run(fmt.Sprintf("%d/%s", n, mode.name), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					for _, s := range names {
						if !mode.valid(s) {
							b.Fatal(s)
						}
					}
				}
			})
		}
	}
}
