package views

import (
	"fmt"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/terraform"
)

var _ terraform.ImportHook = (*RefreshLog)(nil)

// PrePlanImport prints "ADDR: Preparing import... [id=ID]" before an
// import block's object is imported, as Terraform does (the refresh line
// of the imported object follows). The -json stream has no message for
// it, as Terraform's has none.
func (h *RefreshLog) PrePlanImport(addr addrs.AbsResourceInstance, id string) (terraform.HookAction, error) {
	if h.json != nil {
		return terraform.HookActionContinue, nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	fmt.Fprintf(h.w, "%s: Preparing import... [id=%s]\n", addr, id)
	return terraform.HookActionContinue, nil
}

var _ terraform.ApplyImportHook = (*ApplyHook)(nil)

// PreApplyImport prints "ADDR: Importing... [id=ID]", as Terraform does
// (the -json stream has no message for it, as Terraform's has none).
func (h *ApplyHook) PreApplyImport(addr addrs.AbsResourceInstance, id string) (terraform.HookAction, error) {
	return h.importLine(addr, "Importing...", id)
}

// PostApplyImport prints "ADDR: Import complete [id=ID]".
func (h *ApplyHook) PostApplyImport(addr addrs.AbsResourceInstance, id string) (terraform.HookAction, error) {
	return h.importLine(addr, "Import complete", id)
}

func (h *ApplyHook) importLine(addr addrs.AbsResourceInstance, what, id string) (terraform.HookAction, error) {
	if h.json != nil {
		return terraform.HookActionContinue, nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	fmt.Fprintf(h.w, "%s: %s [id=%s]\n", addr, what, id)
	return terraform.HookActionContinue, nil
}
