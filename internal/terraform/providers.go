package terraform

import (
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/tfdiags"
)

// providerSet holds the provider instances of one walk: one per provider
// configuration, started and configured by its provider node and closed by
// its close node.
type providerSet struct {
	c  *Context
	mu sync.Mutex
	m  map[string]providers.Interface // by AbsProviderConfig.String()
}

func newProviderSet(c *Context) *providerSet {
	return &providerSet{c: c, m: map[string]providers.Interface{}}
}

// start creates the instance for addr from its factory.
func (s *providerSet) start(addr addrs.AbsProviderConfig) (providers.Interface, hcl.Diagnostics) {
	return s.startKey(addr, addrs.NoKey)
}

// startKey creates instance key of addr (a configuration with for_each;
// addrs.NoKey for one without).
func (s *providerSet) startKey(addr addrs.AbsProviderConfig, key addrs.InstanceKey) (providers.Interface, hcl.Diagnostics) {
	p := s.c.spares.take(addr.Provider) // the schema's instance, if unused
	if p == nil {
		f, ok := s.c.factory(addr.Provider)
		if !ok {
			return nil, hcl.Diagnostics{s.c.missingProvider(addr.Provider)}
		}
		var err error
		if p, err = f(); err != nil {
			return nil, tfdiags.FromError("Failed to start provider "+addr.String(), err)
		}
	}
	s.mu.Lock()
	s.m[providerInstanceKey(addr, key)] = p
	s.mu.Unlock()
	return p, nil
}

// providerInstanceKey is the key of instance key of addr in providerSet.m:
// addr.String(), then the instance key ("[...]"), which no alias contains.
func providerInstanceKey(addr addrs.AbsProviderConfig, key addrs.InstanceKey) string {
	if key == addrs.NoKey {
		return addr.String()
	}
	return addr.String() + key.String()
}

// get returns the started instance for addr.
func (s *providerSet) get(addr addrs.AbsProviderConfig) (providers.Interface, hcl.Diagnostics) {
	return s.getKey(addr, addrs.NoKey)
}

// getKey returns the started instance key of addr.
func (s *providerSet) getKey(addr addrs.AbsProviderConfig, key addrs.InstanceKey) (providers.Interface, hcl.Diagnostics) {
	s.mu.Lock()
	p := s.m[providerInstanceKey(addr, key)]
	s.mu.Unlock()
	if p == nil {
		if key != addrs.NoKey {
			return nil, hcl.Diagnostics{tfdiags.Errorf("Provider instance not found",
				"%s has no instance %s: its for_each has no such key.", addr, key)}
		}
		return nil, hcl.Diagnostics{tfdiags.Errorf("Provider not initialized",
			"%s was used before it was configured; this is a bug in plankit's graph.", addr)}
	}
	return p, nil
}

// close closes and forgets the instances of addr (all of them, for a
// configuration with for_each).
func (s *providerSet) close(addr addrs.AbsProviderConfig) {
	prefix := addr.String()
	var ps []providers.Interface
	s.mu.Lock()
	for k, p := range s.m {
		if k == prefix || strings.HasPrefix(k, prefix+"[") {
			ps = append(ps, p)
			delete(s.m, k)
		}
	}
	s.mu.Unlock()
	for _, p := range ps {
		_ = p.Close()
	}
}

// stopAll asks every running instance to stop (cancellation).
func (s *providerSet) stopAll() {
	s.mu.Lock()
	ps := make([]providers.Interface, 0, len(s.m))
	for _, p := range s.m {
		ps = append(ps, p)
	}
	s.mu.Unlock()
	for _, p := range ps {
		_ = p.Stop()
	}
}

// closeAll closes whatever is left (after a failed or cancelled walk).
func (s *providerSet) closeAll() {
	s.mu.Lock()
	ps := s.m
	s.m = map[string]providers.Interface{}
	s.mu.Unlock()
	for _, p := range ps {
		_ = p.Close()
	}
}

// providersSchema is a resource type's schema with its version.
type providersSchema = providers.Schema
