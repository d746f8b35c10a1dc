package terraform

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// importBenchConfig is n null_resource instances (for_each), imported by
// one import block with for_each when imports is set, as separate blocks
// when blocks is set, else created.
func importBenchConfig(n int, mode string) string {
	var b strings.Builder
	b.WriteString("locals {\n  ids = {\n")
	for i := range n {
		fmt.Fprintf(&b, "    k%d = \"id-%d\"\n", i, i)
	}
	b.WriteString("  }\n}\nresource \"null_resource\" \"r\" {\n  for_each = local.ids\n}\n")
	switch mode {
	case "for_each":
		b.WriteString("import {\n  for_each = local.ids\n  to = null_resource.r[each.key]\n  id = each.value\n}\n")
	case "blocks":
		for i := range n {
			fmt.Fprintf(&b, "import {\n  to = null_resource.r[\"k%d\"]\n  id = \"id-%d\"\n}\n", i, i)
		}
	}
	return b.String()
}

// BenchmarkPlanImport plans 1000 null_resource instances: created (the
// baseline), imported by one for_each import block, and imported by 1000
// import blocks. Compare ns/op and allocs/op in one run.
func BenchmarkPlanImport(b *testing.B) {
	for _, mode := range []string{"create", "for_each", "blocks"} {
		b.Run(mode+"-1000", func(b *testing.B) {
			cfg := loadConfig(b, map[string]string{"main.tf": importBenchConfig(1000, mode)})
			c := builtinContext(b)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				p, diags := c.Plan(context.Background(), cfg, nil, nil)
				if diags.HasErrors() {
					b.Fatal(diags.Error())
				}
				if n := len(p.Changes.Resources); n != 1000 {
					b.Fatalf("%d changes", n)
				}
			}
		})
	}
}

// TestPlanImportLinear: planning 4x as many import blocks allocates at
// most 6x as much (linear is 4x; work allocated per pair of blocks, or
// per block and instance, would be 16x). Scans that allocate nothing are
// kept out by construction (ImportsFor's index, the binary search in
// hasInstance), not by this test.
func TestPlanImportLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("scaling test")
	}
	allocs := func(n int) float64 {
		cfg := loadConfig(t, map[string]string{"main.tf": importBenchConfig(n, "blocks")})
		c := builtinContext(t)
		return allocsOf(func() {
			if _, diags := c.Plan(context.Background(), cfg, nil, nil); diags.HasErrors() {
				t.Fatal(diags.Error())
			}
		})
	}
	small, large := allocs(250), allocs(1000)
	if ratio := large / small; ratio > 6 {
		t.Errorf("1000 import blocks allocate %.1fx what 250 do (want about 4x)", ratio)
	} else {
		t.Logf("allocation ratio 1000/250 import blocks: %.2f", ratio)
	}
}
