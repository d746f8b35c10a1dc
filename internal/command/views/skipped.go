package views

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/plans"
)

// skippedShown is how many skipped instances the warning names before
// summing up the rest.
const skippedShown = 5

// WithSkippedInstances replaces the detail of the core's skipped-objects
// warning with the planned instance changes that never started (no
// PreApply for them), full instance addresses in address order, e.g.
// module.site[0].local_file.page["a"]. Other diagnostics pass unchanged,
// and so does the warning when every planned change started.
// O(changes log changes).
func WithSkippedInstances(diags hcl.Diagnostics, changes *plans.Changes, started map[string]bool) hcl.Diagnostics {
	if changes == nil {
		return diags
	}
	var names []string
	for _, rc := range plans.SortedResourceChanges(changes.Resources) {
		if rc.Action == plans.NoOp || rc.Action == plans.Forget {
			continue // a forget only edits the state: no PreApply to wait for
		}
		if key := HookKey(rc.Addr, rc.DeposedKey); !started[key] {
			names = append(names, key)
		}
	}
	if len(names) == 0 {
		return diags
	}
	out := make(hcl.Diagnostics, len(diags))
	for i, d := range diags {
		out[i] = d
		if d.Summary != SkippedSummary {
			continue
		}
		what, pron, verbS := "1 planned change was", "it", "s"
		if len(names) > 1 {
			what, pron, verbS = fmt.Sprintf("%d planned changes were", len(names)), "they", ""
		}
		shown, more := names, ""
		if len(shown) > skippedShown {
			shown, more = shown[:skippedShown], fmt.Sprintf(" and %d more", len(names)-skippedShown)
		}
		c := *d
		c.Detail = fmt.Sprintf("%s not applied because something %s depend%s on failed: %s%s. Fix the errors reported above and run again.",
			what, pron, verbS, strings.Join(shown, ", "), more)
		out[i] = &c
	}
	return out
}
