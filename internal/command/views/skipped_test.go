package views

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/tfdiags"
)

// TestWithSkippedInstances checks that the skipped-objects warning names
// full instance addresses (module and resource keys) of the planned
// changes that never started, and leaves everything else alone.
func TestWithSkippedInstances(t *testing.T) {
	page := func(mod int, key string) addrs.AbsResourceInstance {
		return addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "local_file", Name: "page"}.
			Instance(addrs.StringKey(key)).Absolute(addrs.ModuleInstance{{Name: "site", InstanceKey: addrs.IntKey(mod)}})
	}
	fail := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "null_resource", Name: "fail"}.Instance(addrs.NoKey).Absolute(nil)
	ch := func(a addrs.AbsResourceInstance, act plans.Action) *plans.ResourceInstanceChange {
		return &plans.ResourceInstanceChange{Addr: a, PrevRunAddr: a, Change: plans.Change{Action: act}}
	}
	changes := &plans.Changes{Resources: []*plans.ResourceInstanceChange{
		ch(page(1, "a"), plans.Create), ch(page(0, "a"), plans.Create), ch(fail, plans.Create), ch(page(0, "b"), plans.NoOp),
		ch(page(0, "forgotten"), plans.Forget), // never has a PreApply, never skipped
	}}
	skipped := tfdiags.Warning(SkippedSummary, "1 object was not applied because something it depends on failed: module.site.local_file.page.")
	other := tfdiags.Error("Provisioner failed", "exit status 1")
	tests := []struct {
		name    string
		started map[string]bool
		want    []string
	}{
		{"two instances skipped", map[string]bool{"null_resource.fail": true}, []string{
			"exit status 1",
			`2 planned changes were not applied because something they depend on failed: module.site[0].local_file.page["a"], module.site[1].local_file.page["a"]. Fix the errors reported above and run again.`}},
		{"one instance skipped", map[string]bool{"null_resource.fail": true, `module.site[0].local_file.page["a"]`: true}, []string{
			"exit status 1",
			`1 planned change was not applied because something it depends on failed: module.site[1].local_file.page["a"]. Fix the errors reported above and run again.`}},
		{"everything started", map[string]bool{"null_resource.fail": true, `module.site[0].local_file.page["a"]`: true, `module.site[1].local_file.page["a"]`: true},
			[]string{"exit status 1", skipped.Detail}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := WithSkippedInstances(hcl.Diagnostics{other, skipped}, changes, tt.started)
			var details []string
			for _, d := range got {
				details = append(details, d.Detail)
			}
			if diff := cmp.Diff(tt.want, details); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	var many []*plans.ResourceInstanceChange
	for i := range 7 {
		many = append(many, ch(page(i, "a"), plans.Create))
	}
	got := WithSkippedInstances(hcl.Diagnostics{skipped}, &plans.Changes{Resources: many}, nil)
	want := fmt.Sprintf("7 planned changes were not applied because something they depend on failed: %s, %s, %s, %s, %s and 2 more. Fix the errors reported above and run again.",
		page(0, "a"), page(1, "a"), page(2, "a"), page(3, "a"), page(4, "a"))
	if got[0].Detail != want {
		t.Errorf("got %q\nwant %q", got[0].Detail, want)
	}
}
