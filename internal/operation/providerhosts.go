package operation

import (
	"os"
	"path/filepath"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/depsfile"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/states"
)

// hostEvidence is what a working directory says about which public
// registry its providers come from. A source without a hostname
// ("hashicorp/null", or a provider with no required_providers entry)
// means registry.terraform.io to Terraform and registry.opentofu.org to
// OpenTofu, so in a directory that `tofu init` initialised the lock file
// and .terraform/providers name registry.opentofu.org. plankit serves
// such a source from the host the directory already uses, so that it
// never adds a registry twin of a locked provider, and the directory
// stays usable by the tool that initialised it.
type hostEvidence struct {
	locks *depsfile.Locks
	// state holds the providers the state's resources name.
	state map[addrs.Provider]bool
	// installed reports whether .terraform/providers holds a package
	// directory of the provider.
	installed func(addrs.Provider) bool
	// dirHost is the host the directory as a whole uses when the
	// provider itself is nowhere: "" when the evidence is missing or
	// mixed.
	dirHost string
}

// resolve returns the address plankit uses for p, a registry.terraform.io
// address the configuration implied: p itself, or its registry.opentofu.org
// twin when the directory uses that one. The lock file decides first, then
// the installed packages, then the state, then the directory's host.
func (e *hostEvidence) resolve(p addrs.Provider) addrs.Provider {
	if p.Hostname != addrs.DefaultProviderRegistryHost {
		return p
	}
	twin, _ := p.RegistryTwin()
	pick := func(has func(addrs.Provider) bool) (addrs.Provider, bool) {
		a, b := has(p), has(twin)
		switch {
		case a:
			return p, true
		case b:
			return twin, true
		}
		return p, false
	}
	if got, ok := pick(func(q addrs.Provider) bool { return e.locks.Provider(q) != nil }); ok {
		return got
	}
	if e.installed != nil {
		if got, ok := pick(e.installed); ok {
			return got
		}
	}
	if got, ok := pick(func(q addrs.Provider) bool { return e.state[q] }); ok {
		return got
	}
	if e.dirHost == addrs.OpenTofuProviderRegistryHost {
		return twin
	}
	return p
}

// newHostEvidence gathers the evidence of a working directory: its
// installed packages (providersDir), its lock file and its state.
func newHostEvidence(providersDir string, locks *depsfile.Locks, state *states.State) *hostEvidence {
	e := &hostEvidence{locks: locks, state: map[addrs.Provider]bool{}}
	for _, p := range StateProviders(state) {
		e.state[p] = true
	}
	if providersDir != "" {
		e.installed = func(p addrs.Provider) bool {
			st, err := os.Stat(filepath.Join(providersDir, p.Hostname, p.Namespace, p.Type))
			return err == nil && st.IsDir()
		}
	}
	// The directory's host: the one public registry its lock entries
	// name, else the one its installed packages are under, else the one
	// its state names.
	hosts := map[string]bool{}
	for _, p := range locks.SortedProviders() {
		hosts[p.Hostname] = true
	}
	if !hosts[addrs.DefaultProviderRegistryHost] && !hosts[addrs.OpenTofuProviderRegistryHost] && providersDir != "" {
		for _, h := range []string{addrs.DefaultProviderRegistryHost, addrs.OpenTofuProviderRegistryHost} {
			if st, err := os.Stat(filepath.Join(providersDir, h)); err == nil && st.IsDir() {
				hosts[h] = true
			}
		}
	}
	if !hosts[addrs.DefaultProviderRegistryHost] && !hosts[addrs.OpenTofuProviderRegistryHost] {
		for p := range e.state {
			hosts[p.Hostname] = true
		}
	}
	switch {
	case hosts[addrs.OpenTofuProviderRegistryHost] && !hosts[addrs.DefaultProviderRegistryHost]:
		e.dirHost = addrs.OpenTofuProviderRegistryHost
	case hosts[addrs.DefaultProviderRegistryHost] && !hosts[addrs.OpenTofuProviderRegistryHost]:
		e.dirHost = addrs.DefaultProviderRegistryHost
	}
	return e
}

// providerHosts maps each provider address the configuration implied to
// the address plankit serves it as, where the two differ (see
// hostEvidence).
type providerHosts map[addrs.Provider]addrs.Provider

// of returns the address p is served as.
func (h providerHosts) of(p addrs.Provider) addrs.Provider {
	if to, ok := h[p]; ok {
		return to
	}
	return p
}

// resolveHosts decides the host of every registry.terraform.io provider
// the configuration implied (never one a module names with a hostname),
// and of every such provider the state names: a resource plankit created
// from an implied source records registry.terraform.io, which OpenTofu
// reads as its own registry's provider too.
func resolveHosts(e *hostEvidence, config *configs.Config, state *states.State) providerHosts {
	out := providerHosts{}
	explicit := map[addrs.Provider]bool{}
	var implied []addrs.Provider
	if config != nil {
		explicit = config.ExplicitHostProviders()
		implied = config.ProviderTypes()
	}
	for _, p := range append(implied, StateProviders(state)...) {
		if explicit[p] {
			continue
		}
		if to := e.resolve(p); to != p {
			out[p] = to
		}
	}
	return out
}

// alias also registers each factory under the configuration's addresses
// that resolved to it, so the core finds the provider by either.
func (h providerHosts) alias(factories map[addrs.Provider]providers.Factory) {
	for from, to := range h {
		if f, ok := factories[to]; ok {
			if _, taken := factories[from]; !taken {
				factories[from] = f
			}
		}
	}
}
