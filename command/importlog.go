package command

import (
	"fmt"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/terraform"
)

var _ terraform.ImportHook = (*refreshLog)(nil)

// PrePlanImport prints "ADDR: Preparing import... [id=ID]" before an
// import block's object is imported, as Terraform does (the refresh line
// of the imported object follows). The -json stream has no message for
// it, as Terraform's has none.
func (h *refreshLog) PrePlanImport(addr addrs.AbsResourceInstance, id string) (terraform.HookAction, error) {
	if h.json != nil {
		return terraform.HookActionContinue, nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	fmt.Fprintf(h.w, "%s: Preparing import... [id=%s]\n", addr, id)
	return terraform.HookActionContinue, nil
}
