package command

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/states/statefile"
	"github.com/plankit/plankit/tfdiags"
)

// applyHint is the command printed after plan -out: apply with the same
// -chdir, -state and -plugin-dir the plan used, so that running it as printed applies
// to the state the plan was made from. -out and -state stay as given:
// with the same -chdir they resolve to the same files.
func applyHint(f *planFlags) string {
	parts := []string{"apply"}
	if f.chdir != "" {
		parts = append(parts, "-chdir="+shellQuote(f.chdir))
	}
	if f.state != "" {
		parts = append(parts, "-state="+shellQuote(f.state))
	}
	// apply looks for the plugins the plan used where plan found them.
	for _, d := range f.pluginDirs {
		parts = append(parts, "-plugin-dir="+shellQuote(d))
	}
	return strings.Join(append(parts, `"`+f.out+`"`), " ")
}

var shellSafe = regexp.MustCompile(`^[A-Za-z0-9_@%+=:,./-]+$`)

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if shellSafe.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// recordPlanContext records in the plan what apply needs to know about
// how it was made: the absolute state path (for stateElsewhereWarning)
// and its time, which show -json reports as "timestamp" (clock is
// SOURCE_DATE_EPOCH when set, so archives stay byte-reproducible).
func recordPlanContext(p *plans.Plan, spath string, clock func() time.Time) {
	if p == nil {
		return
	}
	// A remote backend (no spath) is recorded in the archive instead.
	if abs, err := filepath.Abs(spath); spath != "" && err == nil {
		p.StatePath = abs
	}
	if p.Timestamp.IsZero() && clock != nil {
		p.Timestamp = clock().UTC().Truncate(time.Second)
	}
}

// stateElsewhereWarning warns when a plan made from no state is applied
// to another state path where there is no state either: the apply is
// allowed (the objects will be recorded there), but it is most often a
// missing -state, and the next plan against the original path would
// create everything again. It names the -state to use itself: plan's
// hint after -out has -state only when plan was given one.
func stateElsewhereWarning(p *plans.Plan, spath string, cur, planned *statefile.File) hcl.Diagnostics {
	if p == nil || p.StatePath == "" || planned == nil || planned.Lineage != "" {
		return nil
	}
	if cur != nil && (cur.Lineage != "" || (cur.State != nil && !cur.State.Empty())) {
		return nil
	}
	if spath == "" {
		return nil
	}
	abs, err := filepath.Abs(spath)
	if err != nil || abs == p.StatePath {
		return nil
	}
	return hcl.Diagnostics{tfdiags.Warning("Applying to a different state file", fmt.Sprintf(
		"This plan was made with no state at %s and is applied to %s, where there is no state either, so the new objects are recorded in %s. A later plan against %s will not see them and will plan to create them again. To keep using that state, apply this plan with -state=%s.",
		p.StatePath, abs, abs, p.StatePath, shellQuote(p.StatePath)))}
}
