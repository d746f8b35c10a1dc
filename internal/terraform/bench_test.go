package terraform

import (
	"context"
	"fmt"
	"testing"

	"github.com/plankit/plankit/bench/gen"
	"github.com/plankit/plankit/internal/providers/builtin"
)

func builtinContext(tb testing.TB) *Context {
	c, diags := NewContext(&ContextOpts{Providers: builtin.Factories()})
	if diags.HasErrors() {
		tb.Fatal(diags.Error())
	}
	return c
}

// BenchmarkPlan plans N=1000 terraform_data resources of each shape from an
// empty state (configuration loading excluded).
func BenchmarkPlan(b *testing.B) {
	for _, shape := range gen.Shapes {
		b.Run(fmt.Sprintf("%s-1000", shape), func(b *testing.B) {
			src, err := gen.Config(shape, 1000)
			if err != nil {
				b.Fatal(err)
			}
			cfg := loadConfig(b, map[string]string{"main.tf": src})
			c := builtinContext(b)
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

// TestPlanChainLinear checks that planning a chain scales linearly: a
// chain four times as long may take at most 10x as long (linear is 4x,
// quadratic 16x). Skipped in -short mode.
func TestPlanChainLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("timing test")
	}
	timeOf := func(n int) float64 {
		src, _ := gen.Config(gen.Chain, n)
		cfg := loadConfig(t, map[string]string{"main.tf": src})
		c := builtinContext(t)
		return allocsOf(func() {
			if _, diags := c.Plan(context.Background(), cfg, nil, nil); diags.HasErrors() {
				t.Fatal(diags.Error())
			}
		})
	}
	small, large := timeOf(500), timeOf(2000)
	ratio := large / small
	t.Logf("allocations grew %.1fx", ratio)
	if ratio > 10 {
		t.Errorf("chain of 2000 took %.1fx a chain of 500 (want ≤ 10x: linear is 4x, quadratic 16x)", ratio)
	}
}

// BenchmarkApply plans and applies 1,000-resource chains and independent
// sets with the built-in terraform_data (plan excluded from the timing).
func BenchmarkApply(b *testing.B) {
	for _, shape := range []gen.Shape{gen.Chain, gen.Independent} {
		b.Run(fmt.Sprintf("%s-1000", shape), func(b *testing.B) {
			src, _ := gen.Config(shape, 1000)
			cfg := loadConfig(b, map[string]string{"main.tf": src})
			c := builtinContext(b)
			plan, diags := c.Plan(context.Background(), cfg, nil, nil)
			if diags.HasErrors() {
				b.Fatal(diags.Error())
			}
			b.ResetTimer()
			for b.Loop() {
				st, diags := c.Apply(context.Background(), plan, cfg, nil)
				if diags.HasErrors() {
					b.Fatal(diags.Error())
				}
				if n := len(st.AllResourceInstances()); n != 1000 {
					b.Fatalf("%d objects", n)
				}
			}
		})
	}
}

// TestApplyGraphHubLinear checks that building the apply graph scales
// linearly when many resources share a local that lists many resources
// (bench/gen's hub shape): each resource's dependencies were searched
// from scratch, which was quadratic. Four times the resources may take
// at most 10x as long (linear is 4x, quadratic 16x). Skipped in -short.
func TestApplyGraphHubLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("timing test")
	}
	timeOf := func(n int) float64 {
		src, _ := gen.Config(gen.Hub, n)
		cfg := loadConfig(t, map[string]string{"main.tf": src})
		c := builtinContext(t)
		plan := mustPlan(t, c, cfg, nil, nil)
		schemas, diags := c.schemasFor(neededProviders(cfg, plan.PriorState))
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		return allocsOf(func() {
			in := &buildInput{config: cfg, schemas: schemas, state: plan.PriorState}
			if _, diags := applyBuilder(in, plan).Build(); diags.HasErrors() {
				t.Fatal(diags.Error())
			}
		})
	}
	small, large := timeOf(1000), timeOf(4000)
	ratio := large / small
	t.Logf("allocations grew %.1fx", ratio)
	if ratio > 10 {
		t.Errorf("apply graph of hub 4000 took %.1fx hub 1000 (want ≤ 10x: linear is 4x, quadratic 16x)", ratio)
	}
}

// BenchmarkPlanBodyFast plans n independent terraform_data resources
// (bench/gen) with resource bodies evaluated by fastBody and by hcldec.
// Run: go test -run '^$' -bench PlanBodyFast -benchmem ./internal/terraform/
func BenchmarkPlanBodyFast(b *testing.B) {
	for _, n := range []int{1000, 10_000} {
		src, err := gen.Config(gen.Independent, n)
		if err != nil {
			b.Fatal(err)
		}
		for _, fast := range []bool{true, false} {
			name := map[bool]string{true: "fast", false: "general"}[fast]
			b.Run(fmt.Sprintf("%d/%s", n, name), func(b *testing.B) {
				defer func(saved bool) { bodyFast = saved }(bodyFast)
				bodyFast = fast
				cfg := loadConfig(b, map[string]string{"main.tf": src})
				c := builtinContext(b)
				b.ReportAllocs()
				for b.Loop() {
					if _, diags := c.Plan(context.Background(), cfg, nil, nil); diags.HasErrors() {
						b.Fatal(diags.Error())
					}
				}
			})
		}
	}
}
