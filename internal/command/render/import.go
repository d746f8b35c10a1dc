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
// when it is; every import names the ID (OpenTofu does so also when the
// import plans no change, so a reader sees which object is adopted), and
// a replacement warns that it destroys the imported object.
func importReasons(rc *plans.ResourceInstanceChange) []string {
	if rc.Importing == nil {
		return nil
	}
	var out []string
	if rc.Action == plans.NoOp && rc.GeneratedConfig != "" {
		out = append(out, "# (config will be generated)")
	}
	if rc.Importing.ID == "" {
		out = append(out, "# (will be imported first)") // a plan that does not carry the ID
	} else {
		out = append(out, "# (imported from "+strconv.Quote(rc.Importing.ID)+")")
	}
	if rc.Action.IsReplace() {
		out = append(out, "# Warning: this will destroy the imported resource")
	}
	return out
}
