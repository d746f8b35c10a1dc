package terraform

import (
	"context"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/providers"
)

// countingSource is a ProviderSource that records what the core asks it.
type countingSource struct {
	f     providers.Factory
	asked []string
}

func (s *countingSource) ProviderFactory(p addrs.Provider) (providers.Factory, bool) {
	s.asked = append(s.asked, p.ForDisplay())
	if p == testProviderAddr {
		return s.f, true
	}
	return nil, false
}

func (s *countingSource) ProviderAddrs() []addrs.Provider { return []addrs.Provider{testProviderAddr} }

// TestProviderSource: the core starts providers only through the
// ProviderSource it is given (ContextOpts.Providers unused then), and
// plans with what the source returns.
func TestProviderSource(t *testing.T) {
	src := &countingSource{f: newTestProvider().Factory()}
	c, diags := NewContext(&ContextOpts{ProviderSource: src, Providers: map[addrs.Provider]providers.Factory{}})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	cfg := loadConfig(t, map[string]string{"main.tf": `resource "test_thing" "a" { ami = "x" }`})
	p, diags := c.Plan(context.Background(), cfg, nil, &PlanOpts{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if got := renderChanges(p.Changes.Resources)["test_thing.a"].Action; got != "Create" {
		t.Errorf("test_thing.a planned %q, want Create", got)
	}
	if !slices.Contains(src.asked, testProviderAddr.ForDisplay()) {
		t.Errorf("the source was not asked for %s: %q", testProviderAddr.ForDisplay(), src.asked)
	}
	// A provider the source lacks is named with what it has.
	missing := c.missingProvider(addrs.NewDefaultProvider("aws"))
	if d := cmp.Diff(true, contains(missing.Detail, "Available providers: "+testProviderAddr.ForDisplay())); d != "" {
		t.Errorf("missing provider detail: %s", missing.Detail)
	}
}
