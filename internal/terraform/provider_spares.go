package terraform

import (
	"sync"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/providers"
)

// spareProviders are provider instances started to fetch a provider's
// schema and kept, unconfigured, for the walk that follows: the first
// configuration of that provider in the walk takes the instance instead of
// starting another, so one process serves both the schema and the plan
// (or apply). Spares nobody took are closed when the operation that
// fetched them ends (closeSpares, deferred by Plan, Apply, Validate and
// GraphDOT).
type spareProviders struct {
	mu sync.Mutex
	m  map[addrs.Provider][]providers.Interface
}

// put keeps inst, which has answered GetProviderSchema and nothing else.
func (s *spareProviders) put(p addrs.Provider, inst providers.Interface) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[addrs.Provider][]providers.Interface{}
	}
	s.m[p] = append(s.m[p], inst)
}

// take returns a spare instance of p, or nil.
func (s *spareProviders) take(p addrs.Provider) providers.Interface {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.m[p]
	if len(l) == 0 {
		return nil
	}
	inst := l[len(l)-1]
	if len(l) == 1 {
		delete(s.m, p)
	} else {
		s.m[p] = l[:len(l)-1]
	}
	return inst
}

// closeAll closes every spare left.
func (s *spareProviders) closeAll() {
	s.mu.Lock()
	m := s.m
	s.m = nil
	s.mu.Unlock()
	for _, l := range m {
		for _, inst := range l {
			_ = inst.Close()
		}
	}
}

// closeSpares closes the schema instances no walk took.
func (c *Context) closeSpares() { c.spares.closeAll() }
