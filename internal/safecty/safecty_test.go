package safecty

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestUnmarshal(t *testing.T) {
	ty, err := UnmarshalType([]byte(`["object",{"a":"string"}]`))
	if err != nil || !ty.Equals(cty.Object(map[string]cty.Type{"a": cty.String})) {
		t.Fatalf("UnmarshalType = %#v, %v", ty, err)
	}
	if _, err := UnmarshalType([]byte(`["nope"]`)); err == nil {
		t.Error("an invalid type was accepted")
	}
	v, err := Unmarshal([]byte(`{"a":"x"}`), ty)
	if err != nil || !v.GetAttr("a").RawEquals(cty.StringVal("x")) {
		t.Fatalf("Unmarshal = %#v, %v", v, err)
	}
	// A dynamic value whose tuple type lists more elements than the value
	// has makes go-cty panic; it must come back as an error.
	_, err = Unmarshal([]byte(`{"value":[],"type":["tuple",["string"]]}`), cty.DynamicPseudoType)
	if err == nil {
		t.Error("a malformed dynamic tuple was accepted")
	}
}
