package terraform

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/internal/providers/providertest"
)

// severities renders diagnostics as "error: summary" lines.
func severities(diags hcl.Diagnostics) []string {
	var out []string
	for _, d := range diags {
		sev := "error"
		if d.Severity == hcl.DiagWarning {
			sev = "warning"
		}
		out = append(out, sev+": "+d.Summary)
	}
	return out
}

// TestApplyFailedInstanceSkipsDependentsOnce checks that one failed
// instance of a counted resource keeps every dependent block from running
// (a dependent depends on the whole resource, as in Terraform) and that
// this costs one error for the failure plus one summary of what was
// skipped, not a diagnostic per dependent.
func TestApplyFailedInstanceSkipsDependentsOnce(t *testing.T) {
	files := map[string]string{"main.tf": `
resource "test_thing" "a" {
  count = 3
  name  = "a${count.index}"
}
resource "test_thing" "b" {
  count = 3
  name  = "b-${test_thing.a[count.index].id}"
}
resource "test_thing" "c" { name = "c-${test_thing.b[0].id}" }
resource "test_thing" "d" {
  count = 20
  name  = "d${count.index}-${test_thing.c.id}"
}
resource "test_thing" "e" { name = "e-${test_thing.d[0].id}" }
resource "test_thing" "f" { name = "f-${test_thing.e.id}" }
resource "test_thing" "g" { name = "g-${test_thing.f.id}" }
resource "test_thing" "free" { name = "free" }`}
	p := newTestProvider()
	p.Inject(&providertest.Fault{Method: providertest.ApplyResourceChange, Key: "a1", Err: errors.New("boom")})
	cfg := loadConfig(t, files)
	c := testContext(t, p, 2)
	plan := mustPlan(t, c, cfg, nil, nil)
	st, diags := c.Apply(context.Background(), plan, cfg, nil)
	if d := cmp.Diff([]string{"error: Injected failure in ApplyResourceChange", "warning: Objects skipped after errors"}, severities(diags)); d != "" {
		t.Fatalf("diagnostics (-want +got):\n%s\n%s", d, diagsString(diags))
	}
	detail := diags[1].Detail
	if !strings.Contains(detail, "6 objects were not applied") || !strings.Contains(detail, "test_thing.b, test_thing.c, test_thing.d, test_thing.e, test_thing.f and 1 more") {
		t.Errorf("summary: %s", detail)
	}
	if d := cmp.Diff([]string{"test_thing.a[0]", "test_thing.a[2]", "test_thing.free"}, stateNames(st)); d != "" {
		t.Errorf("state (-want +got):\n%s", d)
	}
}

func TestPlanFailureSummary(t *testing.T) {
	p := newTestProvider()
	p.Inject(&providertest.Fault{Method: providertest.PlanResourceChange, Key: "a", Err: errors.New("no")})
	cfg := loadConfig(t, map[string]string{"main.tf": `
resource "test_thing" "a" { name = "a" }
resource "test_thing" "b" { name = test_thing.a.id }`})
	_, diags := testContext(t, p, 2).Plan(context.Background(), cfg, nil, nil)
	if d := cmp.Diff([]string{"error: Injected failure in PlanResourceChange", "warning: Objects skipped after errors"}, severities(diags)); d != "" {
		t.Fatalf("diagnostics (-want +got):\n%s", d)
	}
	if want := "1 object was not planned because something it depends on failed: test_thing.b."; !strings.Contains(diags[1].Detail, want) {
		t.Errorf("summary %q lacks %q", diags[1].Detail, want)
	}
}

// TestApplyCancelReportsOnce checks that cancelling an apply of a large
// counted resource gives one cancellation error with the count of
// instances not started, not one error per instance.
func TestApplyCancelReportsOnce(t *testing.T) {
	p := newTestProvider()
	entered := make(chan providertest.Call, 1)
	gate := make(chan struct{})
	p.Inject(&providertest.Fault{Method: providertest.ApplyResourceChange, Key: "n0", Entered: entered, Gate: gate, Times: 1})
	cfg := loadConfig(t, map[string]string{"main.tf": `
resource "test_thing" "n" {
  count = 40
  name  = "n${count.index}"
}`})
	c := testContext(t, p, 1)
	plan := mustPlan(t, c, cfg, nil, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	var got hcl.Diagnostics
	go func() {
		defer close(done)
		_, got = c.Apply(ctx, plan, cfg, nil)
	}()
	<-entered
	cancel()
	close(gate)
	<-done
	var cancels []string
	for _, d := range got {
		if strings.Contains(strings.ToLower(d.Summary+d.Detail), "cancel") {
			cancels = append(cancels, d.Summary+": "+d.Detail)
		}
	}
	if len(cancels) != 1 || !strings.Contains(cancels[0], "39 resource instance operations were not started") {
		t.Errorf("cancellation diagnostics: %q", cancels)
	}
}
