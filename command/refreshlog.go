package command

import (
	"fmt"
	"io"
	"sync"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/terraform"
)

// refreshLog prints "ADDR: Refreshing state... [id=ID]" for each managed
// resource instance refreshed during plan, as Terraform does when the
// output is not a terminal (on a terminal a single progress line counts
// them instead; see progressHook). Lines come in the order the parallel
// walk refreshes the instances. Its mutex orders the workers' writes.
type refreshLog struct {
	terraform.NilHook
	mu sync.Mutex
	w  io.Writer
}

var _ terraform.Hook = (*refreshLog)(nil)

// PreRefresh prints the line for a current object (deposed objects are
// refreshed silently, as in Terraform).
func (h *refreshLog) PreRefresh(addr addrs.AbsResourceInstance, dk addrs.DeposedKey, prior cty.Value) (terraform.HookAction, error) {
	if dk != addrs.NotDeposed || addr.Resource.Resource.Mode != addrs.ManagedResourceMode {
		return terraform.HookActionContinue, nil
	}
	line := addr.String() + ": Refreshing state..."
	if k, v := idOf(prior); k != "" {
		line += fmt.Sprintf(" [%s=%s]", k, v)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	fmt.Fprintln(h.w, line)
	return terraform.HookActionContinue, nil
}
