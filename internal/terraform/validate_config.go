package terraform

import (
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/providers"
)

// validateConfig asks the provider to validate an instance's evaluated
// configuration. When every instance of the resource block in a module
// instance must evaluate to the same configuration (validateOnce), the
// first instance validates it for all: validation depends on the
// configuration alone, so the others would get the same answer, and its
// warnings are reported once. Instances whose configurations differ are
// validated one by one, with no comparison cost.
func (ic *instanceCtx) validateConfig(cfg cty.Value) hcl.Diagnostics {
	n := ic.n
	var cur *validation
	if n.validateOnce {
		if cur = n.validated.begin(ic.w.mod.key); cur == nil {
			return nil
		}
	}
	var diags hcl.Diagnostics
	switch n.block.Mode {
	case addrs.DataResourceMode:
		r := ic.p.ValidateDataResourceConfig(providers.ValidateDataResourceConfigRequest{TypeName: n.typ, Config: cfg})
		diags = ic.subjectDiags(r.Diagnostics)
	case addrs.EphemeralResourceMode:
		r := ic.p.ValidateEphemeralResourceConfig(providers.ValidateEphemeralResourceConfigRequest{TypeName: n.typ, Config: cfg})
		diags = ic.subjectDiags(r.Diagnostics)
	default:
		r := ic.p.ValidateResourceConfig(providers.ValidateResourceConfigRequest{TypeName: n.typ, Config: cfg})
		diags = ic.subjectDiags(r.Diagnostics)
	}
	if cur != nil {
		cur.finish(!diags.HasErrors())
	}
	return diags
}

// sameConfigForAll reports whether every instance of n in one module
// instance evaluates its body to the same value during a plan: the body
// does not refer to count or each (functions are pure while planning,
// and a resource body cannot refer to self). Checked once per resource
// block that has several instances: O(size of the body).
func (n *nodeResource) sameConfigForAll() bool {
	if n.block == nil || n.spec == nil {
		return false
	}
	refs, _ := n.bodyReferences() // found once per node, shared with evalBody
	for _, r := range refs {
		switch r.Subject.(type) {
		case addrs.CountAttr, addrs.ForEachAttr:
			return false
		}
	}
	return true
}

// validConfigs records, per module instance, the validation of a resource
// block whose instances all share one configuration, so it is done once
// even when the instances run in parallel.
type validConfigs struct {
	mu   sync.Mutex
	done map[string]*validation // by module instance key
}

// validation is one provider validation; wg is done when it finished.
type validation struct {
	wg sync.WaitGroup
	ok bool // no errors; set before wg is done
}

// finish records the outcome of the validation.
func (v *validation) finish(ok bool) {
	v.ok = ok
	v.wg.Done()
}

// begin returns nil when the configuration of module instance key was (or,
// waiting for it, is being) validated without errors. Otherwise the caller
// validates it and calls finish on the result: the first caller, or one
// whose predecessor found errors and must report them for its own
// instance too.
func (v *validConfigs) begin(key string) *validation {
	v.mu.Lock()
	prev := v.done[key]
	if prev == nil {
		if v.done == nil {
			v.done = map[string]*validation{}
		}
		cur := &validation{}
		cur.wg.Add(1)
		v.done[key] = cur
		v.mu.Unlock()
		return cur
	}
	v.mu.Unlock()
	prev.wg.Wait()
	if prev.ok {
		return nil
	}
	again := &validation{}
	again.wg.Add(1)
	return again
}
