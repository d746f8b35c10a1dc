package jsonplan

import (
	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/states"
)

// withStateHosts returns rcs with each change that the configuration's
// provider planned for a resource the state records under that
// provider's registry twin (a state OpenTofu wrote names
// registry.opentofu.org/plankit/fwtest where plankit's configuration
// implies registry.terraform.io/plankit/fwtest) naming the state's
// provider instead: the apply keeps the state's address (states'
// SetResourceInstanceCurrent), so the document says what the state will
// record, as prior_state does. changed is false, and rcs itself
// returned, when no change needs that (changed entries are copies; the
// plan is not modified).
func withStateHosts(rcs []*plans.ResourceInstanceChange, sts ...*states.State) (_ []*plans.ResourceInstanceChange, changed bool) {
	var out []*plans.ResourceInstanceChange
	for i, rc := range rcs {
		twin, ok := rc.ProviderAddr.Provider.RegistryTwin()
		if !ok || !recordsProvider(rc, twin, sts) {
			continue
		}
		if out == nil {
			out = append(make([]*plans.ResourceInstanceChange, 0, len(rcs)), rcs...)
		}
		c := *rc
		c.ProviderAddr.Provider = twin
		out[i] = &c
	}
	if out == nil {
		return rcs, false
	}
	return out, true
}

// recordsProvider reports whether the first of sts that holds rc's
// resource (at its address, or its address before a move) records it
// under provider p.
func recordsProvider(rc *plans.ResourceInstanceChange, p addrs.Provider, sts []*states.State) bool {
	for _, st := range sts {
		if st == nil {
			continue
		}
		for _, a := range []addrs.AbsResourceInstance{rc.Addr, rc.PrevRunAddr} {
			if a.Resource.Resource.Type == "" {
				continue
			}
			if r := st.Resource(a.ContainingResource()); r != nil {
				return r.ProviderConfig.Provider == p
			}
		}
	}
	return false
}
