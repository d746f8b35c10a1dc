package terraform

import (
	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/providers"
)

// ProviderSource is how the core finds the providers it starts: it asks
// for a provider by address and never looks for plugins itself. command/
// wires the built-in providers and the installed plugins; tests wire
// their fakes the same way.
type ProviderSource interface {
	// ProviderFactory returns how to start provider p; false when the
	// source does not have it.
	ProviderFactory(p addrs.Provider) (providers.Factory, bool)
	// ProviderAddrs lists the providers the source has (for the error
	// naming a missing one).
	ProviderAddrs() []addrs.Provider
}

// ProviderFactories is a ProviderSource of fixed factories.
type ProviderFactories map[addrs.Provider]providers.Factory

func (f ProviderFactories) ProviderFactory(p addrs.Provider) (providers.Factory, bool) {
	fn, ok := f[p]
	return fn, ok
}

func (f ProviderFactories) ProviderAddrs() []addrs.Provider {
	out := make([]addrs.Provider, 0, len(f))
	for p := range f {
		out = append(out, p)
	}
	return out
}
