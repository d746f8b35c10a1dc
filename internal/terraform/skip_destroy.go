package terraform

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/tfdiags"
)

// skipDestroyDiag refuses to plan the destruction of an object OpenTofu
// marked skip_destroy (lifecycle { destroy = false }): OpenTofu forgets
// such an object instead of destroying it, and plankit cannot forget, so
// planning a delete would destroy what the user asked to keep. nil when
// obj is not so marked.
func skipDestroyDiag(addr addrs.AbsResourceInstance, obj *states.ResourceInstanceObjectSrc) *hcl.Diagnostic {
	if obj == nil || !obj.SkipDestroy {
		return nil
	}
	return tfdiags.Errorf("Object must be kept, not destroyed",
		"%s is marked skip_destroy in the state: OpenTofu's lifecycle { destroy = false } asks for it to be forgotten, not destroyed, once it leaves the configuration, and plankit cannot forget objects. Put its resource block back, or remove it from the state (plan state rm %s) before planning.", addr, addr)
}
