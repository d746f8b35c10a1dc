package operation

import (
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/tfdiags"
)

// PlanClock returns the clock plantimestamp() reads: SOURCE_DATE_EPOCH
// (whole seconds since the Unix epoch, the reproducible-builds
// convention) when env sets it, so a plan that uses plantimestamp can
// still give the same archive twice; time.Now otherwise. The core reads
// the clock only if the configuration calls plantimestamp.
func PlanClock(env []string) (func() time.Time, hcl.Diagnostics) {
	for i := len(env) - 1; i >= 0; i-- { // the last assignment wins, as in the environment
		v, ok := strings.CutPrefix(env[i], "SOURCE_DATE_EPOCH=")
		if !ok {
			continue
		}
		secs, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil || secs < 0 {
			return nil, hcl.Diagnostics{tfdiags.Errorf("Invalid SOURCE_DATE_EPOCH",
				"SOURCE_DATE_EPOCH is %q, but it must be a whole non-negative number of seconds since 1970-01-01 00:00:00 UTC (for example 1700000000). Fix or unset it.", v)}
		}
		t := time.Unix(secs, 0).UTC()
		return func() time.Time { return t }, nil
	}
	return time.Now, nil
}
