package render

import (
	"strconv"

	"github.com/plankit/plankit/plans"
)

// ImportPrefix is the "N to import, " (or "N imported, ") part of a
// summary line, empty when nothing is imported, in Terraform's words.
func ImportPrefix(c Counts, verb string) string {
	if c.Import == 0 {
		return ""
	}
	return strconv.Itoa(c.Import) + " " + verb + ", "
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
	if rc.Importing.ID == "" {
		out[0] = "# (will be imported first)" // a plan that does not carry the ID
	}
	if rc.Action.IsReplace() {
		out = append(out, "# Warning: this will destroy the imported resource")
	}
	return out
}
