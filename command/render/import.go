package render

import (
	"strconv"

	"github.com/plankit/plankit/plans"
)

// importCount is the "N to import, " prefix of the summary line, empty
// when nothing is imported (Terraform's wording).
func importCount(changes *plans.Changes) string {
	n := 0
	for _, rc := range changes.Resources {
		if rc.Importing != nil {
			n++
		}
	}
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n) + " to import, "
}

// importReasons are the comment lines of an import: a no-op import says
// "will be imported" in its header, and "(config will be generated)"
// when it is; an import with an action names the ID, and a replacement
// warns that it destroys the imported object.
func importReasons(rc *plans.ResourceInstanceChange) []string {
	if rc.Importing == nil {
		return nil
	}
	if rc.Action == plans.NoOp {
		if rc.GeneratedConfig != "" {
			return []string{"# (config will be generated)"}
		}
		return nil
	}
	out := []string{"# (imported from " + strconv.Quote(rc.Importing.ID) + ")"}
	if rc.Action.IsReplace() {
		out = append(out, "# Warning: this will destroy the imported resource")
	}
	return out
}
