package objchange

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/providers/configschema"
)

func schema() *configschema.Block {
	return &configschema.Block{
		Attributes: map[string]*configschema.Attribute{
			"name": {Type: cty.String, Required: true},
			"id":   {Type: cty.String, Computed: true},
			"size": {Type: cty.Number, Optional: true, Computed: true},
			"note": {Type: cty.String, Optional: true},
		},
		BlockTypes: map[string]*configschema.NestedBlock{
			"disk": {Nesting: configschema.NestingList, Block: configschema.Block{Attributes: map[string]*configschema.Attribute{
				"gb":     {Type: cty.Number, Required: true},
				"serial": {Type: cty.String, Computed: true},
			}}},
			"tag": {Nesting: configschema.NestingSet, Block: configschema.Block{Attributes: map[string]*configschema.Attribute{
				"k":   {Type: cty.String, Required: true},
				"rev": {Type: cty.Number, Computed: true},
			}}},
			"opt": {Nesting: configschema.NestingSingle, Block: configschema.Block{Attributes: map[string]*configschema.Attribute{
				"x": {Type: cty.String, Optional: true, Computed: true},
			}}},
		},
	}
}

type obj = map[string]cty.Value

func disk(gb int64, serial cty.Value) cty.Value {
	return cty.ObjectVal(obj{"gb": cty.NumberIntVal(gb), "serial": serial})
}
func tag(k string, rev cty.Value) cty.Value {
	return cty.ObjectVal(obj{"k": cty.StringVal(k), "rev": rev})
}

func value(name string, id, size, note cty.Value, disks, tags []cty.Value, opt cty.Value) cty.Value {
	s := schema()
	dl := cty.ListValEmpty(s.BlockTypes["disk"].Block.ImpliedType())
	if len(disks) > 0 {
		dl = cty.ListVal(disks)
	}
	ts := cty.SetValEmpty(s.BlockTypes["tag"].Block.ImpliedType())
	if len(tags) > 0 {
		ts = cty.SetVal(tags)
	}
	if opt == cty.NilVal {
		opt = cty.NullVal(s.BlockTypes["opt"].Block.ImpliedType())
	}
	return cty.ObjectVal(obj{"name": cty.StringVal(name), "id": id, "size": size, "note": note, "disk": dl, "tag": ts, "opt": opt})
}

func TestProposedNew(t *testing.T) {
	s := schema()
	nullStr, nullNum := cty.NullVal(cty.String), cty.NullVal(cty.Number)
	unkStr, unkNum := cty.UnknownVal(cty.String), cty.UnknownVal(cty.Number)
	tests := []struct {
		name                string
		prior, config, want cty.Value
	}{
		{
			"create: computed unknown",
			cty.NullVal(s.ImpliedType()),
			value("a", nullStr, nullNum, nullStr, []cty.Value{disk(1, nullStr)}, []cty.Value{tag("t", nullNum)}, cty.NilVal),
			value("a", unkStr, unkNum, nullStr, []cty.Value{disk(1, unkStr)}, []cty.Value{tag("t", unkNum)}, cty.NilVal),
		},
		{
			"create: optional+computed set in config kept",
			cty.NullVal(s.ImpliedType()),
			value("a", nullStr, cty.NumberIntVal(5), cty.StringVal("n"), nil, nil, cty.NilVal),
			value("a", unkStr, cty.NumberIntVal(5), cty.StringVal("n"), nil, nil, cty.NilVal),
		},
		{
			"update: computed from prior, config wins elsewhere",
			value("a", cty.StringVal("i-1"), cty.NumberIntVal(3), cty.StringVal("old"),
				[]cty.Value{disk(1, cty.StringVal("s1")), disk(2, cty.StringVal("s2"))},
				[]cty.Value{tag("t", cty.NumberIntVal(7)), tag("u", cty.NumberIntVal(8))},
				cty.ObjectVal(obj{"x": cty.StringVal("px")})),
			value("b", nullStr, nullNum, nullStr,
				[]cty.Value{disk(9, nullStr)},
				[]cty.Value{tag("t", nullNum), tag("v", nullNum)},
				cty.ObjectVal(obj{"x": nullStr})),
			value("b", cty.StringVal("i-1"), cty.NumberIntVal(3), nullStr,
				[]cty.Value{disk(9, cty.StringVal("s1"))},
				[]cty.Value{tag("t", cty.NumberIntVal(7)), tag("v", unkNum)},
				cty.ObjectVal(obj{"x": cty.StringVal("px")})),
		},
		{
			"new single block under existing object",
			value("a", cty.StringVal("i-1"), cty.NumberIntVal(3), nullStr, nil, nil, cty.NilVal),
			value("a", nullStr, nullNum, nullStr, nil, nil, cty.ObjectVal(obj{"x": nullStr})),
			value("a", cty.StringVal("i-1"), cty.NumberIntVal(3), nullStr, nil, nil, cty.ObjectVal(obj{"x": unkStr})),
		},
		{
			"destroy",
			value("a", cty.StringVal("i-1"), cty.NumberIntVal(3), nullStr, nil, nil, cty.NilVal),
			cty.NullVal(s.ImpliedType()),
			cty.NullVal(s.ImpliedType()),
		},
		{
			"unknown config",
			cty.NullVal(s.ImpliedType()),
			cty.UnknownVal(s.ImpliedType()),
			cty.UnknownVal(s.ImpliedType()),
		},
		{
			"unknown prior",
			cty.UnknownVal(s.ImpliedType()),
			value("a", nullStr, nullNum, nullStr, nil, nil, cty.NilVal),
			value("a", unkStr, unkNum, nullStr, nil, nil, cty.NilVal),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ProposedNew(s, tt.prior, tt.config)
			if !got.RawEquals(tt.want) {
				t.Fatalf("\ngot  %#v\nwant %#v", got, tt.want)
			}
		})
	}
}

func TestProposedNewDynamicList(t *testing.T) {
	s := &configschema.Block{BlockTypes: map[string]*configschema.NestedBlock{
		"l": {Nesting: configschema.NestingList, Block: configschema.Block{Attributes: map[string]*configschema.Attribute{
			"v":  {Type: cty.DynamicPseudoType, Optional: true},
			"id": {Type: cty.String, Computed: true},
		}}},
	}}
	prior := cty.ObjectVal(obj{"l": cty.TupleVal([]cty.Value{cty.ObjectVal(obj{"v": cty.NumberIntVal(1), "id": cty.StringVal("p")})})})
	config := cty.ObjectVal(obj{"l": cty.TupleVal([]cty.Value{
		cty.ObjectVal(obj{"v": cty.NumberIntVal(2), "id": cty.NullVal(cty.String)}),
		cty.ObjectVal(obj{"v": cty.StringVal("s"), "id": cty.NullVal(cty.String)}),
	})})
	want := cty.ObjectVal(obj{"l": cty.TupleVal([]cty.Value{
		cty.ObjectVal(obj{"v": cty.NumberIntVal(2), "id": cty.StringVal("p")}),
		cty.ObjectVal(obj{"v": cty.StringVal("s"), "id": cty.UnknownVal(cty.String)}),
	})})
	if got := ProposedNew(s, prior, config); !got.RawEquals(want) {
		t.Fatalf("\ngot  %#v\nwant %#v", got, want)
	}
}

// TestProposedNewMap: map blocks pair elements by key, so a kept key keeps
// its computed attributes, a new key gets unknowns and a dropped key goes.
func TestProposedNewMap(t *testing.T) {
	s := &configschema.Block{BlockTypes: map[string]*configschema.NestedBlock{
		"m": {Nesting: configschema.NestingMap, Block: configschema.Block{Attributes: map[string]*configschema.Attribute{
			"v":  {Type: cty.String, Optional: true},
			"id": {Type: cty.String, Computed: true},
		}}},
	}}
	elem := func(v string, id cty.Value) cty.Value { return cty.ObjectVal(obj{"v": cty.StringVal(v), "id": id}) }
	nullStr := cty.NullVal(cty.String)
	prior := cty.ObjectVal(obj{"m": cty.MapVal(obj{"a": elem("1", cty.StringVal("pa")), "gone": elem("2", cty.StringVal("pg"))})})
	config := cty.ObjectVal(obj{"m": cty.MapVal(obj{"a": elem("3", nullStr), "new": elem("4", nullStr)})})
	want := cty.ObjectVal(obj{"m": cty.MapVal(obj{"a": elem("3", cty.StringVal("pa")), "new": elem("4", cty.UnknownVal(cty.String))})})
	if got := ProposedNew(s, prior, config); !got.RawEquals(want) {
		t.Fatalf("\ngot  %#v\nwant %#v", got, want)
	}
}
