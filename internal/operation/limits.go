package operation

import (
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/tfdiags"
)

// maxInstancesEnv names the environment variable that changes how many
// resource and module instances a plan may expand to
// (terraform.ContextOpts.MaxInstances).
const maxInstancesEnv = "PLANKIT_MAX_INSTANCES"

// EnvMaxInstances returns PLANKIT_MAX_INSTANCES from env, 0 (the core's
// default) when unset, and an error for anything but a positive whole
// number.
func EnvMaxInstances(env []string) (int, hcl.Diagnostics) {
	for i := len(env) - 1; i >= 0; i-- {
		v, ok := strings.CutPrefix(env[i], maxInstancesEnv+"=")
		if !ok {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n <= 0 {
			return 0, hcl.Diagnostics{tfdiags.Errorf("Invalid "+maxInstancesEnv,
				"The environment variable %s is %q; it must be a positive whole number of instances, such as 20000000.", maxInstancesEnv, v)}
		}
		return n, nil
	}
	return 0, nil
}
