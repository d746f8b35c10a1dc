package states

import (
	"testing"

	"github.com/plankit/plankit/addrs"
)

// TestSetKeepsEquivalentProvider: writing an object with the same
// provider under the other public registry's host keeps the address the
// resource had (an OpenTofu state stays OpenTofu's); any other provider
// replaces it, as Terraform moves a resource to the provider its
// configuration now names.
func TestSetKeepsEquivalentProvider(t *testing.T) {
	tofu := addrs.AbsProviderConfig{Provider: addrs.Provider{Hostname: addrs.OpenTofuProviderRegistryHost, Namespace: "hashicorp", Type: "null"}}
	other := addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("null"), Alias: "west"}
	a := inst(nil, "null_resource", "a", addrs.NoKey)
	s := NewState()
	s.SetResourceInstanceCurrent(a, obj("1"), tofu)
	s.SetResourceInstanceCurrent(a, obj("2"), nullProvider)
	s.SetResourceInstanceDeposed(a, "00000001", obj("1"), nullProvider)
	if got := s.Resource(a.ContainingResource()).ProviderConfig; got.String() != tofu.String() {
		t.Fatalf("provider = %s, want the state's %s", got, tofu)
	}
	s.SetResourceInstanceCurrent(a, obj("3"), other)
	if got := s.Resource(a.ContainingResource()).ProviderConfig; got.String() != other.String() {
		t.Fatalf("provider = %s, want %s", got, other)
	}
}
