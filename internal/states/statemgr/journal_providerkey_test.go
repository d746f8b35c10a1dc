package statemgr

import (
	"testing"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/states"
)

// An instance whose provider configuration has for_each (OpenTofu) keeps
// its provider instance through the journal: a replayed record restores
// it, so a state recovered after a crash names the same provider
// instance the apply used.
func TestJournalKeepsProviderInstance(t *testing.T) {
	tests := []struct {
		name string
		key  addrs.InstanceKey
	}{
		{"string key", addrs.StringKey("eu-west-1")},
		{"no key", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			addr := instAddr(1)
			// OpenTofu's provider for_each needs an alias.
			pc := addrs.AbsProviderConfig{Provider: nullProvider.Provider, Alias: "by"}
			src := states.NewState()
			src.SetResourceInstanceCurrent(addr, objSrc("a"), pc)
			if tc.key != nil {
				src.SetResourceInstanceProviderKey(addr, tc.key)
			}
			rec, err := EncodeSet(src, addr)
			if err != nil {
				t.Fatal(err)
			}
			got := states.NewState()
			if _, err := ReplayJournal(got, [][]byte{rec}); err != nil {
				t.Fatal(err)
			}
			r := got.Resource(addr.ContainingResource())
			if r == nil || r.Instances[addr.Resource.Key] == nil {
				t.Fatalf("replay lost %s", addr)
			}
			if !r.ProviderConfig.Equal(pc) {
				t.Errorf("provider after replay = %s, want %s", r.ProviderConfig, pc)
			}
			if k := r.Instances[addr.Resource.Key].ProviderKey; k != tc.key {
				t.Errorf("provider key after replay = %#v, want %#v", k, tc.key)
			}
			if got, want := ids(got), ids(src); got[addr.String()] != want[addr.String()] {
				t.Errorf("object after replay = %q, want %q", got, want)
			}
		})
	}
}
