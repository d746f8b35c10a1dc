package terraform

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/internal/dag"
)

// notStartedNote is " N resource instances were not <verb>." for the
// instances a cancellation left undone, "" when there were none.
func (ws *walkState) notStartedNote(verb string) string {
	switch n := ws.notStarted.Load(); n {
	case 0:
		return ""
	case 1:
		return " 1 resource instance operation was not " + verb + "."
	default:
		return fmt.Sprintf(" %d resource instance operations were not %s.", n, verb)
	}
}

// skippedShown is how many skipped objects skippedSummary names before
// summing up the rest.
const skippedShown = 5

// skippedSummary is one diagnostic for everything a failure kept from
// running: the resource blocks and destroys downstream of a failed node
// (a dependent waits for every instance of what it depends on, as in
// Terraform, so one failed instance skips the whole dependent blocks).
// The walk's own "upstream failed" results are one per node and are not
// shown, so without this the user would not learn what was left undone;
// with it, a failure deep in a large graph costs one line, not one per
// dependent. Nil when nothing was skipped. O(V log V), only after errors.
func (ws *walkState) skippedSummary(res *dag.WalkResult[Node]) hcl.Diagnostics {
	var names []string
	for _, n := range res.Vertices() {
		if res.Status(n) != dag.StatusUpstreamFailed {
			continue
		}
		switch n.(type) {
		case *nodeResource, *nodeDestroy:
			names = append(names, n.Name())
		}
	}
	if len(names) == 0 {
		return nil
	}
	verb := ws.traits.verb
	what, pron, verbS := "1 object was", "it", "s"
	if len(names) > 1 {
		what, pron, verbS = fmt.Sprintf("%d objects were", len(names)), "they", ""
	}
	shown := names
	more := ""
	if len(shown) > skippedShown {
		shown = shown[:skippedShown]
		more = fmt.Sprintf(" and %d more", len(names)-skippedShown)
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagWarning,
		Summary:  "Objects skipped after errors",
		Detail: fmt.Sprintf("%s not %s because something %s depend%s on failed: %s%s. Fix the errors reported above and run again.",
			what, verb, pron, verbS, strings.Join(shown, ", "), more),
	}}
}
