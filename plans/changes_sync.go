package plans

import (
	"sync"

	"github.com/plankit/plankit/addrs"
)

// ChangesSync wraps a Changes for the concurrent graph walks: every method
// takes one mutex. Lookups go through an index built on first use and kept
// up to date by the wrapper's own mutations, so they are O(1); callers must
// not change the wrapped Changes directly while a ChangesSync is in use.
type ChangesSync struct {
	mu      sync.Mutex
	changes *Changes
	index   map[changeKey]int // position in changes.Resources; nil until first lookup
}

type changeKey struct {
	addr    string
	deposed addrs.DeposedKey
}

func keyOf(addr addrs.AbsResourceInstance, dk addrs.DeposedKey) changeKey {
	return changeKey{addr: addr.String(), deposed: dk}
}

// SyncWrapper returns a ChangesSync over c.
func (c *Changes) SyncWrapper() *ChangesSync {
	return &ChangesSync{changes: c}
}

// AppendResourceInstanceChange adds rc. Amortized O(1).
func (s *ChangesSync) AppendResourceInstanceChange(rc *ResourceInstanceChange) {
	if rc == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.changes.Resources = append(s.changes.Resources, rc)
	if s.index != nil {
		s.index[keyOf(rc.Addr, rc.DeposedKey)] = len(s.changes.Resources) - 1
	}
}

// GetResourceInstanceChange returns a shallow copy of the change of the
// object (addr, dk) (dk empty for the current object), or nil. O(1) after
// the first call.
func (s *ChangesSync) GetResourceInstanceChange(addr addrs.AbsResourceInstance, dk addrs.DeposedKey) *ResourceInstanceChange {
	s.mu.Lock()
	defer s.mu.Unlock()
	i, ok := s.lookup(addr, dk)
	if !ok {
		return nil
	}
	cp := *s.changes.Resources[i]
	return &cp
}

// RemoveResourceInstanceChange drops the change of (addr, dk), if any,
// keeping the order of the others. O(n).
func (s *ChangesSync) RemoveResourceInstanceChange(addr addrs.AbsResourceInstance, dk addrs.DeposedKey) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i, ok := s.lookup(addr, dk)
	if !ok {
		return
	}
	rs := s.changes.Resources
	s.changes.Resources = append(rs[:i:i], rs[i+1:]...)
	s.index = nil // positions shifted; rebuilt on the next lookup
}

// AppendOutputChange adds oc, replacing an existing change of the same
// output. O(outputs).
func (s *ChangesSync) AppendOutputChange(oc *OutputChange) {
	if oc == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, old := range s.changes.Outputs {
		if outputAddrEqual(old.Addr, oc.Addr) {
			s.changes.Outputs[i] = oc
			return
		}
	}
	s.changes.Outputs = append(s.changes.Outputs, oc)
}

// GetOutputChange returns a shallow copy of the change of addr, or nil.
func (s *ChangesSync) GetOutputChange(addr addrs.AbsOutputValue) *OutputChange {
	s.mu.Lock()
	defer s.mu.Unlock()
	if oc := s.changes.Output(addr); oc != nil {
		cp := *oc
		return &cp
	}
	return nil
}

// RemoveOutputChange drops the change of addr, if any.
func (s *ChangesSync) RemoveOutputChange(addr addrs.AbsOutputValue) {
	s.mu.Lock()
	defer s.mu.Unlock()
	os := s.changes.Outputs
	for i, oc := range os {
		if outputAddrEqual(oc.Addr, addr) {
			s.changes.Outputs = append(os[:i:i], os[i+1:]...)
			return
		}
	}
}

// lookup finds (addr, dk) through the index, building it if needed. The
// caller holds s.mu.
func (s *ChangesSync) lookup(addr addrs.AbsResourceInstance, dk addrs.DeposedKey) (int, bool) {
	if s.index == nil {
		s.index = make(map[changeKey]int, len(s.changes.Resources))
		for i, rc := range s.changes.Resources {
			s.index[keyOf(rc.Addr, rc.DeposedKey)] = i
		}
	}
	i, ok := s.index[keyOf(addr, dk)]
	return i, ok
}
