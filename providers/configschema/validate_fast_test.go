package configschema

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// TestValidateValueOfNoChecksNoAlloc checks that validating a value of a
// schema without required, nested or block parts (terraform_data's shape)
// does not allocate, while a null required attribute is still reported.
func TestValidateValueOfNoChecksNoAlloc(t *testing.T) {
	b := &Block{Attributes: map[string]*Attribute{
		"input":  {Type: cty.String, Optional: true},
		"id":     {Type: cty.String, Computed: true},
		"output": {Type: cty.String, Computed: true},
	}}
	want := b.ImpliedType()
	v := cty.ObjectVal(map[string]cty.Value{"input": cty.StringVal("v"), "id": cty.UnknownVal(cty.String), "output": cty.NullVal(cty.String)})
	if n := testing.AllocsPerRun(100, func() {
		if diags := b.ValidateValueOf(v, want); len(diags) > 0 {
			t.Fatal(diags.Error())
		}
	}); n != 0 {
		t.Errorf("ValidateValueOf allocated %v times, want 0", n)
	}
	b.Attributes["input"].Required, b.Attributes["input"].Optional = true, false
	diags := b.ValidateValueOf(cty.ObjectVal(map[string]cty.Value{"input": cty.NullVal(cty.String), "id": cty.UnknownVal(cty.String), "output": cty.NullVal(cty.String)}), want)
	if len(diags) != 1 || diags[0].Summary != "Missing required argument" {
		t.Errorf("diagnostics %v, want one Missing required argument", diags)
	}
}
