package terraform

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// BenchmarkPlanConditions plans 1,000 terraform_data resources without
// conditions and with a precondition, a postcondition on self and a check
// block each, to measure what the conditions cost per instance.
func BenchmarkPlanConditions(b *testing.B) {
	for _, withConds := range []bool{false, true} {
		name := "plain-1000"
		if withConds {
			name = "conditions-1000"
		}
		b.Run(name, func(b *testing.B) {
			var src strings.Builder
			src.WriteString("variable \"n\" { default = 3 }\n")
			for i := range 1000 {
				fmt.Fprintf(&src, "resource \"terraform_data\" \"r%d\" {\n  input = \"v%d\"\n", i, i)
				if withConds {
					fmt.Fprintf(&src, "  lifecycle {\n    precondition {\n      condition     = var.n > 0\n      error_message = \"n\"\n    }\n    postcondition {\n      condition     = self.input == \"v%d\"\n      error_message = \"input is ${self.input}\"\n    }\n  }\n", i)
				}
				src.WriteString("}\n")
				if withConds {
					fmt.Fprintf(&src, "check \"c%d\" {\n  assert {\n    condition     = terraform_data.r%d.input != \"\"\n    error_message = \"empty\"\n  }\n}\n", i, i)
				}
			}
			cfg := loadConfig(b, map[string]string{"main.tf": src.String()})
			c := builtinContext(b)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				p, diags := c.Plan(context.Background(), cfg, nil, nil)
				if diags.HasErrors() {
					b.Fatal(diags.Error())
				}
				if withConds && len(p.Checks) != 2000 {
					b.Fatalf("%d check results", len(p.Checks))
				}
			}
		})
	}
}
