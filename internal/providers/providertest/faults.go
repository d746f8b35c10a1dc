package providertest

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/tfdiags"
)

// Fault is behaviour injected into matching calls: a gate to wait on,
// then a panic or error diagnostics. Method must equal the call's; the
// other match fields match anything when empty.
type Fault struct {
	Method   Method
	TypeName string
	Key      string
	Action   Action

	// Times limits how many calls the fault affects; 0 means every one.
	Times int

	// Entered, if set, receives each matching call as it arrives, before
	// the gate (a buffered channel avoids blocking the provider).
	Entered chan<- Call
	// Gate, if set, holds each matching call until it is closed or a value
	// is received from it, or until Stop is called (then the call fails).
	Gate <-chan struct{}

	// Panic, if non-nil, makes the call panic with this value.
	Panic any
	// Diags are added to the response; an error in them makes the call
	// fail (its result value is the prior one, see each method).
	Diags hcl.Diagnostics
	// Err is a shorthand for an error diagnostic with its text.
	Err error

	hits int
}

// Inject adds a fault. Faults are checked in the order added; every
// matching one applies.
func (p *Provider) Inject(f *Fault) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.faults = append(p.faults, f)
}

// matching returns the faults that apply to c, counting their hits.
func (p *Provider) matching(c Call) []*Fault {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []*Fault
	for _, f := range p.faults {
		if f.Method != c.Method ||
			(f.TypeName != "" && f.TypeName != c.TypeName) ||
			(f.Key != "" && f.Key != c.Key) ||
			(f.Action != NoAction && f.Action != c.Action) {
			continue
		}
		if f.Times > 0 && f.hits >= f.Times {
			continue
		}
		f.hits++
		out = append(out, f)
	}
	return out
}

// enter records the call and runs the matching faults' gates and panics.
// It returns the injected diagnostics; the caller fails the call if they
// have errors.
func (p *Provider) enter(c Call) hcl.Diagnostics {
	p.init()
	c = p.record(c)
	var diags hcl.Diagnostics
	for _, f := range p.matching(c) {
		if f.Entered != nil {
			f.Entered <- c
		}
		if f.Gate != nil {
			select {
			case <-f.Gate:
			case <-p.stopped:
				diags = append(diags, tfdiags.Errorf("Provider stopped", "%s was interrupted by Stop.", c))
			}
		}
		if f.Panic != nil {
			panic(f.Panic)
		}
		diags = append(diags, f.Diags...)
		if f.Err != nil {
			diags = append(diags, tfdiags.Error(fmt.Sprintf("Injected failure in %s", c.Method), f.Err.Error()))
		}
	}
	return diags
}
