// Package namedvals is the store of named values the core evaluates during a
// walk: input variables, local values and output values, each per module
// instance. A reference to var.x or local.y resolves with one map lookup, so
// evaluating N expressions costs O(N) however large the configuration is
// (the quadratic trap is rebuilding a whole-module scope per expression).
package namedvals

import (
	"sync"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
)

// Kind says which namespace a named value lives in.
type Kind uint8

const (
	// Variable is an input variable (var.NAME).
	Variable Kind = iota + 1
	// Local is a local value (local.NAME).
	Local
	// Output is an output value of a module instance.
	Output
)

type key struct {
	module string // addrs.ModuleInstance.String()
	kind   Kind
	name   string
}

// Store holds named values. It is safe for concurrent use; the zero value
// is not ready, use New.
type Store struct {
	mu   sync.RWMutex
	vals map[key]cty.Value
}

// New returns an empty store.
func New() *Store { return &Store{vals: map[key]cty.Value{}} }

// Set records the value of a named value of module instance mod. O(1).
func (s *Store) Set(mod addrs.ModuleInstance, kind Kind, name string, v cty.Value) {
	s.SetKey(mod.String(), kind, name, v)
}

// SetKey is Set with the module instance already rendered by String, for
// callers that hold it. O(1).
func (s *Store) SetKey(mod string, kind Kind, name string, v cty.Value) {
	s.mu.Lock()
	s.vals[key{mod, kind, name}] = v
	s.mu.Unlock()
}

// Get returns the value and whether it was set. O(1).
func (s *Store) Get(mod addrs.ModuleInstance, kind Kind, name string) (cty.Value, bool) {
	return s.GetKey(mod.String(), kind, name)
}

// GetKey is Get with the module instance already rendered by String. O(1).
func (s *Store) GetKey(mod string, kind Kind, name string) (cty.Value, bool) {
	s.mu.RLock()
	v, ok := s.vals[key{mod, kind, name}]
	s.mu.RUnlock()
	return v, ok
}
