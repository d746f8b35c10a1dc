package plans

import (
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
	"github.com/zclconf/go-cty/cty/msgpack"
	"google.golang.org/protobuf/proto"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/plans/internal/foreignproto"
)

func mustMsgpack(t testing.TB, v cty.Value, ty cty.Type) []byte {
	t.Helper()
	b, err := msgpack.Marshal(v, ty)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestDecodeForeignValue: without a schema, values decode to what their
// bytes say, and their JSON (what show -json and the diff read) is the
// JSON of the value as written.
func TestDecodeForeignValue(t *testing.T) {
	objTy := cty.Object(map[string]cty.Type{
		"s": cty.String, "n": cty.Number, "b": cty.Bool, "l": cty.List(cty.String), "set": cty.Set(cty.Number),
		"m": cty.Map(cty.String), "d": cty.DynamicPseudoType, "nul": cty.String, "blk": cty.List(cty.Object(map[string]cty.Type{"x": cty.String})),
	})
	full := cty.ObjectVal(map[string]cty.Value{
		"s": cty.StringVal("str"), "n": cty.NumberFloatVal(-1.5), "b": cty.True,
		"l": cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}), "set": cty.SetVal([]cty.Value{cty.NumberIntVal(300000)}),
		"m":   cty.MapVal(map[string]cty.Value{"k": cty.StringVal("v")}),
		"d":   cty.ObjectVal(map[string]cty.Value{"nested": cty.ListVal([]cty.Value{cty.NumberIntVal(-7)})}),
		"nul": cty.NullVal(cty.String), "blk": cty.ListValEmpty(cty.Object(map[string]cty.Type{"x": cty.String})),
	})
	for _, tt := range []struct {
		name      string
		v         cty.Value
		ty        cty.Type
		unknownAt []string // attributes that must come back unknown
	}{
		{name: "object", v: full, ty: objTy},
		{name: "unknowns", v: cty.ObjectVal(map[string]cty.Value{
			"id": cty.UnknownVal(cty.String), "refined": cty.UnknownVal(cty.String).RefineNotNull(), "known": cty.NumberIntVal(1),
		}), ty: cty.Object(map[string]cty.Type{"id": cty.String, "refined": cty.String, "known": cty.Number}), unknownAt: []string{"id", "refined"}},
		{name: "dynamic output", v: cty.TupleVal([]cty.Value{cty.StringVal("x"), cty.NumberIntVal(1 << 40)}), ty: cty.DynamicPseudoType},
		{name: "large integers", v: cty.ObjectVal(map[string]cty.Value{"u": cty.NumberIntVal(1 << 62), "f": cty.NumberFloatVal(0.1), "i": cty.NumberIntVal(-1 << 63)}), ty: cty.Object(map[string]cty.Type{"u": cty.Number, "i": cty.Number, "f": cty.Number})},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := decodeForeignValue(mustMsgpack(t, tt.v, tt.ty), cty.DynamicPseudoType)
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range tt.unknownAt {
				if got.GetAttr(name).IsKnown() {
					t.Errorf("%s is known", name)
				}
			}
			if len(tt.unknownAt) > 0 {
				return
			}
			want, err := ctyjson.Marshal(tt.v, tt.v.Type())
			if err != nil {
				t.Fatal(err)
			}
			gotJSON, err := ctyjson.Marshal(got, got.Type())
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(string(want), string(gotJSON)); d != "" {
				t.Errorf("JSON differs (-written +decoded):\n%s", d)
			}
		})
	}
	// msgpack's uint64 (other writers than cty use it) reads as a number.
	if got, err := decodeForeignValue([]byte("\xcf\xff\xff\xff\xff\xff\xff\xff\xff"), cty.DynamicPseudoType); err != nil || !got.RawEquals(cty.NumberUIntVal(1<<64-1)) {
		t.Errorf("uint64: %#v, %v", got, err)
	}
	// A number too large for msgpack's numbers is written as a string.
	huge, _ := new(big.Float).SetString("1e400")
	got, err := decodeForeignValue(mustMsgpack(t, cty.NumberVal(huge), cty.Number), cty.DynamicPseudoType)
	if err != nil || got.Type() != cty.String {
		t.Errorf("huge number: %#v, %v", got, err)
	}
}

// TestDecodeForeignValueMalformed: hostile bytes give errors, never a
// panic or a huge allocation.
func TestDecodeForeignValueMalformed(t *testing.T) {
	deep := strings.Repeat("\x91", 10000) + "\xc0"
	for name, b := range map[string]string{
		"empty":            "",
		"truncated string": "\xa5ab",
		"huge array":       "\xdd\xff\xff\xff\xff",
		"huge map":         "\xdf\xff\xff\xff\xff\x00",
		"non-string key":   "\x81\x01\x02",
		"bin alone":        "\xc4\x01x",
		"bad type":         "\x92\xc4\x03xyz\xc0",
		"type mismatch":    "\x92\xc4\x08\"string\"\x81\xa1a\x01",
		"trailing bytes":   "\xc0\xc0",
		"NaN":              "\xcb\x7f\xf8\x00\x00\x00\x00\x00\x01",
		"unknown format":   "\xc1",
		"deep":             deep,
	} {
		t.Run(name, func(t *testing.T) {
			if v, err := decodeForeignValue([]byte(b), cty.DynamicPseudoType); err == nil {
				t.Errorf("decoded %#v, want an error", v)
			}
		})
	}
}

// TestUnmarshalForeignWithSchemas: a plan whose tfschemas entry gives the
// resource type's schema decodes its values with the schema's types (sets
// stay sets), and lists nothing as decoded without one.
func TestUnmarshalForeignWithSchemas(t *testing.T) {
	block := &foreignproto.SchemaBlock{
		Attributes: []*foreignproto.SchemaAttribute{
			{Name: "id", Type: []byte(`"string"`), Computed: true},
			{Name: "tags", Type: []byte(`["set","string"]`), Optional: true},
			{Name: "secret", Type: []byte(`"string"`), Optional: true, Sensitive: true},
		},
		BlockTypes: []*foreignproto.SchemaNestedBlock{{TypeName: "rule", Nesting: foreignproto.SchemaNestingMode_SCHEMA_NESTING_LIST,
			Block: &foreignproto.SchemaBlock{Attributes: []*foreignproto.SchemaAttribute{{Name: "x", Type: []byte(`"number"`), Optional: true}}}}},
	}
	schemasRaw, err := proto.Marshal(&foreignproto.Schemas{Providers: map[string]*foreignproto.ProviderSchema{
		"registry.opentofu.org/acme/thing": {ManagedResourceTypes: map[string]*foreignproto.ResourceSchema{"thing_x": {Schema: &foreignproto.Schema{Version: 3, Block: block}}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	schemas, err := ForeignSchemas(schemasRaw)
	if err != nil {
		t.Fatal(err)
	}
	prov, err := addrs.ParseProviderSourceString("registry.opentofu.org/acme/thing")
	if err != nil {
		t.Fatal(err)
	}
	ty := schemas[prov].ResourceTypes["thing_x"].Block.ImpliedType()
	after := cty.ObjectVal(map[string]cty.Value{
		"id": cty.UnknownVal(cty.String), "tags": cty.SetVal([]cty.Value{cty.StringVal("a")}), "secret": cty.StringVal("s"),
		"rule": cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"x": cty.NumberIntVal(1)})}),
	})
	plan, err := proto.Marshal(&foreignproto.Plan{
		Version: 3, TerraformVersion: "1.13.0",
		ResourceChanges: []*foreignproto.ResourceInstanceChange{{
			Addr: "thing_x.a", Provider: `provider["registry.opentofu.org/acme/thing"]`,
			Change: &foreignproto.Change{Action: foreignproto.Action_CREATE, Values: []*foreignproto.DynamicValue{{Msgpack: mustMsgpack(t, after, ty)}}},
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	p, info, err := UnmarshalForeign(plan, schemas)
	if err != nil {
		t.Fatal(err)
	}
	if len(info.WithoutSchema) != 0 {
		t.Errorf("decoded without a schema: %v", info.WithoutSchema)
	}
	rc := p.Changes.Resources[0]
	if !rc.After.Type().Equals(ty) || !rc.Before.IsNull() || rc.Action != Create {
		t.Errorf("after %#v (%s), before %#v", rc.After, rc.After.Type().FriendlyName(), rc.Before)
	}
	// Without the schemas, the same plan decodes by the bytes and says so.
	p, info, err = UnmarshalForeign(plan, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"thing_x.a"}, info.WithoutSchema); d != "" {
		t.Errorf("WithoutSchema (-want +got):\n%s", d)
	}
	if tags := p.Changes.Resources[0].After.GetAttr("tags"); !tags.Type().IsTupleType() {
		t.Errorf("tags decoded as %s", tags.Type().FriendlyName())
	}
}

// foreignSeeds are the tfplan entries of the checked-in fixtures.
func foreignSeeds(t testing.TB) [][]byte {
	files, _ := filepath.Glob("../planfile/testdata/foreign/*/*/plan.tfplan")
	if len(files) == 0 {
		t.Fatal("no fixtures")
	}
	var out [][]byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, tfplanEntry(t, b))
	}
	return out
}

// FuzzUnmarshalForeign: no bytes make the foreign decoder panic.
func FuzzUnmarshalForeign(f *testing.F) {
	for _, s := range foreignSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		UnmarshalForeign(b, nil)
		IsForeignPlan(b)
	})
}

// FuzzDecodeForeignValue: no msgpack bytes make the value decoder panic.
func FuzzDecodeForeignValue(f *testing.F) {
	f.Add([]byte("\x84\xa2id\xd4\x00\x00\xa5input\x92\xc4\x08\"string\"\xa4same\xa1n\xcb@\x00\x00\x00\x00\x00\x00\x00\xa1l\x92\x01\xc0"))
	f.Add([]byte("\x92\xc4\x10[\"list\",\"string\"]\x91\xa1a"))
	f.Fuzz(func(t *testing.T, b []byte) {
		decodeForeignValue(b, cty.DynamicPseudoType)
	})
}

// TestUnmarshalForeignOldLayout: a format 3 plan of a Terraform older than
// 1.1, whose changes have no address field, is refused saying which
// versions are read.
func TestUnmarshalForeignOldLayout(t *testing.T) {
	b, err := proto.Marshal(&foreignproto.Plan{Version: 3, TerraformVersion: "0.15.5", ResourceChanges: []*foreignproto.ResourceInstanceChange{{Provider: `provider["registry.terraform.io/hashicorp/null"]`}}})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = UnmarshalForeign(b, nil)
	if err == nil || !strings.Contains(err.Error(), "Terraform 1.5 and later") {
		t.Fatalf("got %v, want a refusal naming the versions read", err)
	}
}
