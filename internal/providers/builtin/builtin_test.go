package builtin

import (
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFactories checks the registry's addresses, and that every built-in
// schema is sound and its resource types are the ones users write.
func TestFactories(t *testing.T) {
	want := map[string][]string{
		"terraform.io/builtin/terraform":         {"terraform_data"},
		"registry.terraform.io/hashicorp/null":   {"null_resource"},
		"registry.terraform.io/hashicorp/random": {"random_bytes", "random_id", "random_integer", "random_password", "random_pet", "random_shuffle", "random_string", "random_uuid", "random_uuid4", "random_uuid7"},
		"registry.terraform.io/hashicorp/local":  {"local_file", "local_sensitive_file"},
	}
	// OpenTofu's addresses for the same providers serve the same types.
	for _, typ := range []string{"null", "random", "local"} {
		want["registry.opentofu.org/hashicorp/"+typ] = want["registry.terraform.io/hashicorp/"+typ]
	}
	got := map[string][]string{}
	for addr, f := range Factories() {
		p, err := f()
		if err != nil {
			t.Fatalf("%s: %v", addr, err)
		}
		resp := p.GetProviderSchema()
		if resp.Diagnostics.HasErrors() {
			t.Fatalf("%s: %s", addr, resp.Diagnostics.Error())
		}
		var types []string
		for name, s := range resp.ResourceTypes {
			types = append(types, name)
			if err := s.Block.InternalValidate(); err != nil {
				t.Errorf("%s %s: %v", addr, name, err)
			}
		}
		for name, s := range resp.DataSources {
			if err := s.Block.InternalValidate(); err != nil {
				t.Errorf("%s data %s: %v", addr, name, err)
			}
		}
		sort.Strings(types)
		got[addr.String()] = types
		if err := p.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("(-want +got)\n%s", diff)
	}
}
