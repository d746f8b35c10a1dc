package providers

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/providers/configschema"
)

// richStateSchema has an attribute or block of every kind decodeStateFast
// reads, and some it leaves to the general path.
func richStateSchema() *configschema.Block {
	inner := configschema.Block{Attributes: map[string]*configschema.Attribute{
		"port": {Type: cty.Number, Optional: true},
		"name": {Type: cty.String, Optional: true},
	}}
	dyn := configschema.Block{Attributes: map[string]*configschema.Attribute{
		"any": {Type: cty.DynamicPseudoType, Optional: true},
	}}
	return &configschema.Block{
		Attributes: map[string]*configschema.Attribute{
			"id":      {Type: cty.String, Computed: true},
			"count":   {Type: cty.Number, Optional: true},
			"on":      {Type: cty.Bool, Optional: true},
			"input":   {Type: cty.DynamicPseudoType, Optional: true},
			"tags":    {Type: cty.Map(cty.String), Optional: true},
			"names":   {Type: cty.List(cty.String), Optional: true},
			"ports":   {Type: cty.Set(cty.Number), Optional: true},
			"pair":    {Type: cty.Tuple([]cty.Type{cty.String, cty.Bool}), Optional: true},
			"obj":     {Type: cty.Object(map[string]cty.Type{"a": cty.String, "b": cty.List(cty.Number)}), Optional: true},
			"anylist": {Type: cty.List(cty.DynamicPseudoType), Optional: true},
			"nested": {NestedType: &configschema.Object{Nesting: configschema.NestingList, Attributes: map[string]*configschema.Attribute{
				"x": {Type: cty.String, Optional: true},
			}}, Optional: true},
		},
		BlockTypes: map[string]*configschema.NestedBlock{
			"single": {Nesting: configschema.NestingSingle, Block: inner},
			"group":  {Nesting: configschema.NestingGroup, Block: inner},
			"list":   {Nesting: configschema.NestingList, Block: inner},
			"set":    {Nesting: configschema.NestingSet, Block: inner},
			"map":    {Nesting: configschema.NestingMap, Block: inner},
			"dlist":  {Nesting: configschema.NestingList, Block: dyn},
			"dset":   {Nesting: configschema.NestingSet, Block: dyn},
		},
	}
}

// fastSeeds are stored objects in the forms plankit, Terraform and
// OpenTofu write: decodeStateFast must take every one of them (else a
// re-plan silently falls back to the slow path).
var fastSeeds = []string{
	`{"id":"b6ddfeb7","input":{"value":"v0","type":"string"},"output":{"value":"v0","type":"string"},"triggers_replace":null}`,
	`{"id":"a","count":1.5e3,"on":true,"tags":{"k":"v","e":""},"names":["x","y"],"ports":[80,443,80],"pair":["p",false]}`,
	`{"obj":{"a":"s","b":[1,-2,0.5]},"nested":[{"x":"1"},{"x":null},{}],"anylist":null}`,
	`{"single":{"port":1},"group":null,"list":[{"port":2,"name":"n","gone":[1,{"z":null}]}],"set":[{"port":3},{"port":3}],"map":{"m":{"name":"q"}}}`,
	`{"dlist":{"value":[{"any":{"value":1,"type":"number"}}],"type":["tuple",[["object",{"any":"dynamic"}]]]}}`,
	`{"input":{"type":["object",{"a":["list","string"]}],"value":{"a":["x"]}},"list":[],"map":{},"set":[]}`,
	`{"input":{"value":{"value":true,"type":"bool"},"type":"dynamic"},"id":"caf\u00e9 <&>"}`,
	" {\n \"id\" : \"sp\" ,\n \"removed_attr\" : {\"deep\": [true, false, null, -0.0e+1, \"s\\\"\"]}\n}\n",
	`{"id":"é\u0301"}`,
	`{}`,
}

func TestDecodeStateFastTakesCommonForms(t *testing.T) {
	s := richStateSchema()
	for _, raw := range fastSeeds {
		fast, ok := decodeStateFast(s, []byte(raw))
		if !ok {
			t.Errorf("fast path refused %s", raw)
			continue
		}
		general, err := decodeStateGeneral(s, []byte(raw))
		if err != nil {
			t.Fatalf("general path: %v for %s", err, raw)
		}
		if got, want := fillEmptyBlocks(s, fast), general; !got.RawEquals(want) {
			t.Errorf("%s:\nfast    %#v\ngeneral %#v", raw, got, want)
		}
	}
}

// TestDecodeStateFastLeavesTheRest: inputs whose reading differs in
// detail (and errors, whose wording the general path owns) are not taken.
func TestDecodeStateFastLeavesTheRest(t *testing.T) {
	s := richStateSchema()
	for _, raw := range []string{
		`{"id":"a","id":"b"}`, // repeated key: the general path keeps the last
		`{"count":"12"}`,      // a string for a number
		`{"on":"true"}`,       // a string for a bool
		`{"id":12}`,           // a number for a string
		`{"anylist":[{"value":1,"type":"number"}]}`, // elements of possibly different types
		`{"dset":[{"any":null}]}`,
		`{"obj":{"a":"s","c":1}}`, // an attribute an object type lacks is an error
		`{"i\u0064":"escaped key"}`,
		`{"input":{"value":1}}`,
		`{"input":{"value":1,"type":"number","x":1}}`,
		`{"pair":["p"]}`,
		`{"count":01}`,
		`{"id":"a"} x`,
		`{"id":"a",}`,
		`null`,
		`[]`,
		``,
	} {
		if v, ok := decodeStateFast(s, []byte(raw)); ok {
			t.Errorf("fast path took %s (gave %#v)", raw, v)
		}
	}
}

// FuzzDecodeStateFast checks the fast path against the general one: when
// it takes an input, the general path decodes the same value.
func FuzzDecodeStateFast(f *testing.F) {
	for _, seed := range fastSeeds {
		f.Add([]byte(seed))
	}
	s := richStateSchema()
	f.Fuzz(func(t *testing.T, raw []byte) {
		fast, ok := decodeStateFast(s, raw)
		if !ok {
			return
		}
		general, err := decodeStateGeneral(s, raw)
		if err != nil {
			t.Fatalf("fast path took what the general one refuses (%v): %q", err, raw)
		}
		if got := fillEmptyBlocks(s, fast); !got.RawEquals(general) {
			t.Fatalf("%q:\nfast    %#v\ngeneral %#v", raw, got, general)
		}
	})
}

// BenchmarkDecodeStateJSON decodes a terraform_data object, as a re-plan
// does for every instance in the state: the fast path against the
// general one in the same run.
func BenchmarkDecodeStateJSON(b *testing.B) {
	s := &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"id":               {Type: cty.String, Computed: true},
		"input":            {Type: cty.DynamicPseudoType, Optional: true},
		"output":           {Type: cty.DynamicPseudoType, Computed: true},
		"triggers_replace": {Type: cty.DynamicPseudoType, Optional: true},
	}}
	raw := []byte(`{"id":"b6ddfeb7-0057-4ffb-5118-9bcf2b5be71c","input":{"value":"v0","type":"string"},"output":{"value":"v0","type":"string"},"triggers_replace":null}`)
	b.Run("fast", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := DecodeStateJSON(s, raw); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("general", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := decodeStateGeneral(s, raw); err != nil {
				b.Fatal(err)
			}
		}
	})
}
