package planfile

import (
	"bytes"
	"fmt"

	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/states/statefile"
)

// stateEntries encodes the prior and previous-run states for the archive.
// When the plan changed nothing in the state (a no-op re-plan, whose
// refresh found no drift) the two are the same objects, and one encoding
// serves both entries: the second state of a large plan is neither
// encoded again nor held twice in memory. O(objects) to compare, plus the
// encoding(s).
func stateEntries(prior, prev *statefile.File) (priorBytes, prevBytes []byte, err error) {
	encode := func(f *statefile.File) ([]byte, error) {
		if f.State == nil { // no state yet: store an empty one, as a first plan has
			cp := *f
			cp.State = states.NewState()
			f = &cp
		}
		var buf bytes.Buffer
		if err := statefile.Write(f, &buf); err != nil {
			return nil, err
		}
		return buf.Bytes(), nil
	}
	if priorBytes, err = encode(prior); err != nil {
		return nil, nil, fmt.Errorf("encoding %s: %w", EntryPriorState, err)
	}
	if sameStateFile(prior, prev) {
		return priorBytes, priorBytes, nil
	}
	if prevBytes, err = encode(prev); err != nil {
		return nil, nil, fmt.Errorf("encoding %s: %w", EntryPrevRunState, err)
	}
	return priorBytes, prevBytes, nil
}

// sameStateFile reports whether a and b encode to the same bytes because
// they hold the same things: equal metadata and, in every module, the
// same resources with the very same (immutable) objects and equal output
// values. It may report false for equal states built separately; that
// only costs an encoding. O(objects).
func sameStateFile(a, b *statefile.File) bool {
	if a.Serial != b.Serial || a.Lineage != b.Lineage || !bytes.Equal(a.CheckResults, b.CheckResults) ||
		(a.TerraformVersion == nil) != (b.TerraformVersion == nil) ||
		a.TerraformVersion != nil && a.TerraformVersion.Original() != b.TerraformVersion.Original() {
		return false
	}
	if a.State == nil || b.State == nil {
		return a.State == b.State
	}
	if len(a.State.Modules) != len(b.State.Modules) {
		return false
	}
	for k, ma := range a.State.Modules {
		mb, ok := b.State.Modules[k]
		if !ok || !sameModule(ma, mb) {
			return false
		}
	}
	return true
}

func sameModule(a, b *states.Module) bool {
	if !a.Addr.Equal(b.Addr) || len(a.Resources) != len(b.Resources) || len(a.OutputValues) != len(b.OutputValues) {
		return false
	}
	for k, oa := range a.OutputValues {
		ob, ok := b.OutputValues[k]
		if !ok || oa.Sensitive != ob.Sensitive || !oa.Value.RawEquals(ob.Value) { // written by name (the key)
			return false
		}
	}
	for k, ra := range a.Resources {
		rb, ok := b.Resources[k]
		if !ok || !ra.Addr.Equal(rb.Addr) || !ra.ProviderConfig.Equal(rb.ProviderConfig) || len(ra.Instances) != len(rb.Instances) {
			return false
		}
		for key, ia := range ra.Instances {
			ib, ok := rb.Instances[key]
			if !ok || ia.Current != ib.Current || ia.ProviderKey != ib.ProviderKey || len(ia.Deposed) != len(ib.Deposed) {
				return false
			}
			for dk, oa := range ia.Deposed {
				if ob, ok := ib.Deposed[dk]; !ok || oa != ob {
					return false
				}
			}
		}
	}
	return true
}
