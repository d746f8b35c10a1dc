// Package depsfile reads and writes the dependency lock file,
// .terraform.lock.hcl: for each provider, the version selected, the
// version constraints it was selected under and the package hashes that are
// trusted for it. The format is Terraform's, so a lock file written by
// plankit is read by Terraform and OpenTofu and the reverse.
package depsfile

import (
	"maps"
	"slices"
	"strings"

	"github.com/plankit/plankit/addrs"
)

// Locks is the content of a lock file: one ProviderLock per provider.
type Locks struct {
	providers map[addrs.Provider]*ProviderLock
}

// NewLocks returns an empty set of locks.
func NewLocks() *Locks {
	return &Locks{providers: map[addrs.Provider]*ProviderLock{}}
}

// Provider returns the lock for p, or nil.
func (l *Locks) Provider(p addrs.Provider) *ProviderLock {
	if l == nil {
		return nil
	}
	return l.providers[p]
}

// SetProvider records (replacing any earlier lock) that p is locked to
// version, selected under constraints ("" for none), with the given hashes
// (sorted and de-duplicated; nil for none). Built-in providers
// (terraform.io/builtin/...) are never locked: for them the lock is returned
// but not recorded, as Terraform does.
func (l *Locks) SetProvider(p addrs.Provider, version, constraints string, hashes []string) *ProviderLock {
	lock := &ProviderLock{addr: p, version: version, constraints: constraints, hashes: normalizeHashes(hashes)}
	if !p.IsBuiltIn() {
		l.providers[p] = lock
	}
	return lock
}

// RemoveProvider deletes the lock for p, if any.
func (l *Locks) RemoveProvider(p addrs.Provider) {
	delete(l.providers, p)
}

// AllProviders returns the locks by provider, in a new map.
func (l *Locks) AllProviders() map[addrs.Provider]*ProviderLock {
	if l == nil {
		return map[addrs.Provider]*ProviderLock{}
	}
	return maps.Clone(l.providers)
}

// SortedProviders returns the locked providers in the order the file
// lists them: by hostname, then namespace, then type, as terraform init
// and tofu init order them (not by the address string, whose order
// differs where one part is a prefix of another: "a/x" and "a-b/x").
func (l *Locks) SortedProviders() []addrs.Provider {
	if l == nil {
		return nil
	}
	out := slices.Collect(maps.Keys(l.providers))
	slices.SortFunc(out, func(a, b addrs.Provider) int {
		if c := strings.Compare(a.Hostname, b.Hostname); c != 0 {
			return c
		}
		if c := strings.Compare(a.Namespace, b.Namespace); c != 0 {
			return c
		}
		return strings.Compare(a.Type, b.Type)
	})
	return out
}

// Empty reports whether no provider is locked.
func (l *Locks) Empty() bool { return l == nil || len(l.providers) == 0 }

// Equal reports whether l and o lock the same providers to the same
// versions, constraints and hashes.
func (l *Locks) Equal(o *Locks) bool {
	if l.Empty() || o.Empty() {
		return l.Empty() == o.Empty()
	}
	if len(l.providers) != len(o.providers) {
		return false
	}
	for p, a := range l.providers {
		if !a.Equal(o.providers[p]) {
			return false
		}
	}
	return true
}

// DeepCopy returns an independent copy of l.
func (l *Locks) DeepCopy() *Locks {
	out := NewLocks()
	if l != nil {
		for p, lock := range l.providers {
			c := *lock
			c.hashes = slices.Clone(lock.hashes)
			out.providers[p] = &c
		}
	}
	return out
}

// ProviderLock is one provider's lock. It is immutable.
type ProviderLock struct {
	addr        addrs.Provider
	version     string
	constraints string
	hashes      []string
}

// Provider returns the locked provider's address.
func (pl *ProviderLock) Provider() addrs.Provider { return pl.addr }

// Version returns the selected version, e.g. "3.2.1".
func (pl *ProviderLock) Version() string { return pl.version }

// VersionConstraints returns the constraints the version was selected
// under, as written in the file ("" for none).
func (pl *ProviderLock) VersionConstraints() string { return pl.constraints }

// Hashes returns the trusted package hashes ("h1:...", "zh:..."), sorted.
// The slice is a copy.
func (pl *ProviderLock) Hashes() []string { return slices.Clone(pl.hashes) }

// ContainsHash reports whether h is one of the trusted hashes.
func (pl *ProviderLock) ContainsHash(h string) bool {
	_, found := slices.BinarySearch(pl.hashes, h)
	return found
}

// Equal reports whether pl and o are the same lock.
func (pl *ProviderLock) Equal(o *ProviderLock) bool {
	if pl == nil || o == nil {
		return pl == o
	}
	return pl.addr == o.addr && pl.version == o.version && pl.constraints == o.constraints && slices.Equal(pl.hashes, o.hashes)
}

func normalizeHashes(hashes []string) []string {
	if len(hashes) == 0 {
		return nil
	}
	out := slices.Clone(hashes)
	slices.Sort(out)
	return slices.Compact(out)
}
