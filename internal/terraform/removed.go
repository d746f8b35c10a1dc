package terraform

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/states"
)

// Removed blocks. A removed block names a resource or module the
// configuration no longer declares. Its objects are orphans like any
// other, planned by the orphan's resource node; the block decides how:
// with lifecycle.destroy = false each object is forgotten (plans.Forget:
// no refresh, no provider call at apply, the object just leaves the
// state), otherwise it is destroyed as an orphan is, running the block's
// destroy-time provisioners first. A removed block whose target has no
// objects in the state does nothing. Destroy mode ignores removed blocks:
// it destroys everything, as Terraform does.

// removedStatements returns the configuration's removed blocks with
// absolute targets, and the errors Terraform reports for them: a target
// still declared, and references destroy-time provisioners may not make.
func removedStatements(config *configs.Config) ([]configs.RemovedStatement, hcl.Diagnostics) {
	stmts, diags := config.RemovedStatements()
	for _, s := range stmts {
		diags = append(diags, destroyProvisionerDiags(s.AsResource())...)
	}
	return stmts, diags
}

// removedFor returns the removed statement that covers resource addr, nil
// when none does. The most specific one wins: a block for the resource
// over one for a module containing it, a deeper module over its parent.
// O(removed blocks).
func (b *buildInput) removedFor(addr addrs.ConfigResource) *configs.RemovedStatement {
	var best *configs.RemovedStatement
	rank := func(s *configs.RemovedStatement) int {
		if s.Resource != nil {
			return 1 << 30
		}
		return len(s.Module)
	}
	for i := range b.removed {
		s := &b.removed[i]
		if s.Contains(addr.Module, addr.Resource) && (best == nil || rank(s) > rank(best)) {
			best = s
		}
	}
	return best
}

// forgets reports whether the resource's objects are forgotten instead of
// destroyed (a removed block with lifecycle.destroy = false).
func (rb *resourceBlock) forgets() bool {
	return rb.removed != nil && !rb.removed.Block.Destroy
}

// provisioners returns the provisioners of the resource: its block's, or,
// for a resource only a removed block with destroy = true still names,
// the removed block's (destroy-time ones only). cfg is the module they
// are evaluated in: the resource's, or the removed block's when the
// resource's module is gone too.
func (rb *resourceBlock) provisioners() ([]*configs.Provisioner, *configs.Config) {
	if rb.block != nil && rb.block.Managed != nil {
		return rb.block.Managed.Provisioners, rb.cfg
	}
	if rb.removed != nil && rb.removed.Block.Destroy {
		cfg := rb.cfg
		if cfg == nil {
			cfg = rb.removed.Declared
		}
		return rb.removed.Block.Provisioners, cfg
	}
	return nil, rb.cfg
}

// forget plans forgetting every object of an orphaned instance covered
// by a removed block with lifecycle.destroy = false: the stored objects
// (current and deposed) are decoded, not refreshed, as Terraform does, and
// each gets a Forget change whose before value is the object.
func (pi *planInstance) forget() hcl.Diagnostics {
	cur, deposed := pi.ws.currentObject(pi.w.addr)
	var diags hcl.Diagnostics
	if cur != nil {
		diags = append(diags, pi.planForget(cur, addrs.NotDeposed)...)
	}
	for _, k := range sortedDeposed(deposed) {
		diags = append(diags, pi.planForget(deposed[k], k)...)
	}
	return diags
}

func (pi *planInstance) planForget(src *states.ResourceInstanceObjectSrc, dk addrs.DeposedKey) hcl.Diagnostics {
	prior, diags := pi.priorNoRefresh(src)
	if diags.HasErrors() || prior.IsNull() {
		return diags
	}
	pi.planToNull(prior, dk, plans.Forget, pi.w.orphan, false)
	return diags
}

// forgetWarning is Terraform's warning for a plan that forgets objects,
// listing them; nil when it forgets none.
func forgetWarning(p *plans.Plan) hcl.Diagnostics {
	if p == nil || p.Changes == nil {
		return nil
	}
	var list []string
	for _, rc := range p.Changes.Resources {
		if rc.Action != plans.Forget {
			continue
		}
		s := " - " + rc.Addr.String()
		if rc.DeposedKey != addrs.NotDeposed {
			s += " (deposed object " + rc.DeposedKey.String() + ")"
		}
		list = append(list, s)
	}
	if len(list) == 0 {
		return nil
	}
	return hcl.Diagnostics{{Severity: hcl.DiagWarning, Summary: "Some objects will no longer be managed by plankit",
		Detail: fmt.Sprintf("If you apply this plan, plankit will discard its tracking information for the following objects, but it will not delete them:\n%s\n\nAfter applying this plan, plankit will no longer manage these objects. You will need to import them to manage them again.",
			strings.Join(list, "\n"))}}
}

// nodeForget removes one object from the state without destroying it.
type nodeForget struct {
	change *plans.ResourceInstanceChange
	apply  *applyWalk
}

var _ executable = (*nodeForget)(nil)

func (n *nodeForget) Name() string {
	s := n.change.Addr.String() + " (forget"
	if n.change.DeposedKey != addrs.NotDeposed {
		s += " deposed " + string(n.change.DeposedKey)
	}
	return s + ")"
}

func (n *nodeForget) Execute(ctx context.Context, ws *walkState) hcl.Diagnostics {
	if ctx.Err() != nil {
		ws.notStarted.Add(1) // cancelled: reported once for the whole walk
		return nil
	}
	addr, dk := n.change.Addr, n.change.DeposedKey
	if ws.stateObject(addr, dk) == nil {
		return nil // already gone: nothing to forget
	}
	if dk == addrs.NotDeposed {
		ws.state.SetResourceInstanceCurrent(addr, nil, n.change.ProviderAddr)
	} else {
		ws.state.SetResourceInstanceDeposed(addr, dk, nil, n.change.ProviderAddr)
	}
	if n.apply != nil {
		n.apply.changed(addr)
	}
	return nil
}
