package jsonplan

import (
	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/depsfile"
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
// record, as prior_state does; so does a change to a resource the state
// does not hold when hosts (Options.Hosts) maps the provider to its
// twin. changed is false, and rcs itself
// returned, when no change needs that (changed entries are copies; the
// plan is not modified).
func withStateHosts(rcs []*plans.ResourceInstanceChange, hosts map[addrs.Provider]addrs.Provider, sts ...*states.State) (_ []*plans.ResourceInstanceChange, changed bool) {
	var out []*plans.ResourceInstanceChange
	for i, rc := range rcs {
		twin, ok := rc.ProviderAddr.Provider.RegistryTwin()
		if !ok {
			continue
		}
		if !recordsProvider(rc, twin, sts) && (hosts[rc.ProviderAddr.Provider] != twin || recordsProvider(rc, rc.ProviderAddr.Provider, sts)) {
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

// hostOf is the provider p is named as: its twin where hosts maps it to
// one (Options.Hosts), else p.
func hostOf(hosts map[addrs.Provider]addrs.Provider, p addrs.Provider) addrs.Provider {
	if to, ok := hosts[p]; ok {
		return to
	}
	return p
}

// HostsFromLocks is Options.Hosts for a working directory with lock
// file locks (the one a plan archive stores): each provider locked only
// under registry.opentofu.org maps its registry.terraform.io twin to it,
// as plankit, resolving a source without a host, serves that twin from
// the host the lock file names.
func HostsFromLocks(locks *depsfile.Locks) map[addrs.Provider]addrs.Provider {
	var out map[addrs.Provider]addrs.Provider
	for _, p := range locks.SortedProviders() {
		if p.Hostname != addrs.OpenTofuProviderRegistryHost {
			continue
		}
		twin, ok := p.RegistryTwin()
		if !ok || locks.Provider(twin) != nil {
			continue
		}
		if out == nil {
			out = map[addrs.Provider]addrs.Provider{}
		}
		out[twin] = p
	}
	return out
}
