package planfile

import (
	"bytes"

	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/states/statefile"
)

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
