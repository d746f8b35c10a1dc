package terraform

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/providers/providertest"
	"github.com/plankit/plankit/providers"
)

// TestSchemaInstanceServesTheWalk: the instance started to fetch the
// schema is the one the walk configures (one provider start per
// operation), and an operation that does not take it (GraphDOT, a plan
// that fails before its walk) closes it before returning.
func TestSchemaInstanceServesTheWalk(t *testing.T) {
	cfg := loadConfig(t, map[string]string{"main.tf": `
resource "test_thing" "a" {
  count = 3
  name  = "a${count.index}"
}
`})
	var starts atomic.Int64
	var insts []*providertest.Provider
	newContext := func() *Context {
		c, diags := NewContext(&ContextOpts{Providers: map[addrs.Provider]providers.Factory{
			testProviderAddr: func() (providers.Interface, error) {
				starts.Add(1)
				p := newTestProvider()
				insts = append(insts, p)
				return p, nil
			},
		}})
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		return c
	}
	allClosed := func(what string) {
		t.Helper()
		if len(insts) == 0 {
			t.Errorf("%s: no instance started", what)
		}
		for i, p := range insts {
			if !p.Closed() {
				t.Errorf("%s: instance %d not closed", what, i)
			}
		}
	}

	plan := mustPlan(t, newContext(), cfg, nil, nil)
	if n := starts.Load(); n != 1 {
		t.Errorf("plan started %d instances, want 1", n)
	}
	if got := insts[0].CallStrings(providertest.GetProviderSchema, providertest.ConfigureProvider, providertest.Close); len(got) != 3 {
		t.Errorf("plan's instance calls = %q, want the schema, the configuration and the close", got)
	}
	allClosed("plan")

	starts.Store(0)
	insts = nil
	if _, diags := newContext().Apply(context.Background(), plan, cfg, nil); diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if n := starts.Load(); n != 1 {
		t.Errorf("apply started %d instances, want 1", n)
	}
	allClosed("apply")

	starts.Store(0)
	insts = nil
	if _, diags := newContext().GraphDOT(cfg, nil, nil, GraphKindPlan); diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if n := starts.Load(); n != 1 {
		t.Errorf("graph started %d instances, want 1", n)
	}
	allClosed("graph")

	starts.Store(0)
	insts = nil
	bad := loadConfig(t, map[string]string{"main.tf": `
resource "test_thing" "a" {
  name = "a"
}
resource "test_thing" "b" {
  name = test_thing.c.name
}
`})
	if _, diags := newContext().Plan(context.Background(), bad, nil, nil); !diags.HasErrors() {
		t.Fatal("plan of a configuration referring to an undeclared resource succeeded")
	}
	allClosed("failed plan")
}
