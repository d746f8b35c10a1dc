package random

import (
	"testing"

	"github.com/plankit/plankit/providers"
)

// FuzzImport feeds arbitrary import IDs to every importable random type:
// no panic, and any accepted ID yields a value conforming to the schema.
func FuzzImport(f *testing.F) {
	for _, seed := range []string{"p-,AQID", "AQID", "15,1,20,s", "15,1,20", "1,2", "hello", "", ",", "6ba7b810-9dad-11d1-80b4-00c04fd430c8"} {
		f.Add(seed)
	}
	p := New()
	schemas := p.GetProviderSchema().ResourceTypes
	types := []string{"random_bytes", "random_id", "random_integer", "random_string", "random_uuid"}
	f.Fuzz(func(t *testing.T, id string) {
		for _, typ := range types {
			resp := p.ImportResourceState(providers.ImportResourceStateRequest{TypeName: typ, ID: id})
			if resp.Diagnostics.HasErrors() {
				continue
			}
			if len(resp.ImportedResources) != 1 {
				t.Fatalf("%s: %d objects", typ, len(resp.ImportedResources))
			}
			if d := schemas[typ].Block.ValidateValue(resp.ImportedResources[0].State); d.HasErrors() {
				t.Fatalf("%s(%q): %s", typ, id, d.Error())
			}
		}
	})
}
