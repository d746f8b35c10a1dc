package render

import "github.com/plankit/plankit/plans"

// HasMoves reports whether any resource instance moved (a moved block or
// an implied move): such a plan lists the moves even when nothing else
// changes, and is applyable, as in Terraform.
func HasMoves(changes *plans.Changes) bool {
	for _, rc := range changes.Resources {
		if rc.Moved() {
			return true
		}
	}
	return false
}

// movedOnly reports whether rc is a move with no other change, rendered
// "# OLD has moved to NEW", among planned changes or (refresh-only) in
// the drift; a move with changes gets the usual header and a "(moved
// from OLD)" line.
func movedOnly(rc *plans.ResourceInstanceChange) bool {
	return rc.Action == plans.NoOp && rc.Moved()
}

// movedHeader is the header line of a move without other changes.
func movedHeader(rc *plans.ResourceInstanceChange, col Colorizer) string {
	return "  " + col.Bold("# "+rc.PrevRunAddr.String()) + " has moved to " + col.Bold(rc.Addr.String()) + "\n"
}

// shown reports whether a planned change is listed: any action but no-op,
// and a no-op that moved ("# OLD has moved to NEW") or imports ("will be
// imported").
func shown(rc *plans.ResourceInstanceChange) bool {
	return rc.Action != plans.NoOp || rc.Moved() || rc.Importing != nil
}
