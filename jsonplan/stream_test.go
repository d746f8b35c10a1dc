package jsonplan

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/big"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/lang/marks"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
	"github.com/plankit/plankit/states"
)

// variedPlan is a plan with a bit of everything show -json writes:
// nested blocks and nested attributes, sensitive attributes (from the
// schema and from recorded paths), unknowns at every depth, dynamic
// values, numbers that are not small integers, strings encoding/json
// escapes, every action (create, update, both replaces, delete, deposed
// delete, read, no-op), count and for_each instances in modules, drift,
// outputs of every kind, a prior state with tainted, deposed and
// schema-less objects, variables and checks.
func variedPlan(t *testing.T) *plans.Plan {
	t.Helper()
	schema := &configschema.Block{
		Attributes: map[string]*configschema.Attribute{
			"id":      {Type: cty.String, Computed: true},
			"name":    {Type: cty.String, Optional: true},
			"secret":  {Type: cty.String, Optional: true, Sensitive: true},
			"num":     {Type: cty.Number, Optional: true},
			"flag":    {Type: cty.Bool, Optional: true},
			"tags":    {Type: cty.Map(cty.String), Optional: true},
			"set":     {Type: cty.Set(cty.String), Optional: true},
			"dyn":     {Type: cty.DynamicPseudoType, Optional: true},
			"tuple":   {Type: cty.Tuple([]cty.Type{cty.String, cty.Number}), Optional: true},
			"objlist": {Type: cty.List(cty.Object(map[string]cty.Type{"a": cty.String, "b": cty.List(cty.String)})), Optional: true},
			"nested": {NestedType: &configschema.Object{Nesting: configschema.NestingList, Attributes: map[string]*configschema.Attribute{
				"user": {Type: cty.String, Optional: true},
				"pass": {Type: cty.String, Optional: true, Sensitive: true},
			}}, Optional: true},
		},
		BlockTypes: map[string]*configschema.NestedBlock{
			"rule": {Nesting: configschema.NestingList, Block: configschema.Block{Attributes: map[string]*configschema.Attribute{
				"port": {Type: cty.Number, Optional: true},
				"cidr": {Type: cty.List(cty.String), Optional: true},
			}}},
			"single": {Nesting: configschema.NestingSingle, Block: configschema.Block{Attributes: map[string]*configschema.Attribute{
				"x": {Type: cty.String, Optional: true},
			}}},
			"setblk": {Nesting: configschema.NestingSet, Block: configschema.Block{Attributes: map[string]*configschema.Attribute{
				"k": {Type: cty.String, Optional: true},
			}}},
		},
	}
	ty := schema.ImpliedType()
	ruleTy := ty.AttributeType("rule").ElementType()
	big30, _, err := big.ParseFloat("1e30", 10, 512, big.ToNearestEven)
	if err != nil {
		t.Fatal(err)
	}
	obj := func(id cty.Value, name string, num cty.Value, rules cty.Value) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{
			"id": id, "name": cty.StringVal(name), "secret": cty.StringVal("hunter2"), "num": num, "flag": cty.True,
			"tags":  cty.MapVal(map[string]cty.Value{"env": cty.StringVal("prod <&> \"q\""), "u": cty.UnknownVal(cty.String), "ü": cty.StringVal("naïve\u2028line\x01\ttab\n")}),
			"set":   cty.SetVal([]cty.Value{cty.StringVal("b"), cty.StringVal("a"), cty.StringVal("c")}),
			"dyn":   cty.ObjectVal(map[string]cty.Value{"deep": cty.ListVal([]cty.Value{cty.NumberFloatVal(1.5), cty.UnknownVal(cty.Number)})}),
			"tuple": cty.TupleVal([]cty.Value{cty.UnknownVal(cty.String), cty.NumberVal(big30)}),
			"objlist": cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x"), "b": cty.UnknownVal(cty.List(cty.String))}),
				cty.ObjectVal(map[string]cty.Value{"a": cty.NullVal(cty.String), "b": cty.ListValEmpty(cty.String)})}),
			"nested": cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"user": cty.StringVal("u"), "pass": cty.StringVal("p")})}),
			"rule":   rules,
			"single": cty.ObjectVal(map[string]cty.Value{"x": cty.UnknownVal(cty.String)}),
			"setblk": cty.SetVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"k": cty.StringVal("v1")}), cty.ObjectVal(map[string]cty.Value{"k": cty.StringVal("v0")})}),
		})
	}
	rules := cty.ListVal([]cty.Value{
		cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(-443), "cidr": cty.ListVal([]cty.Value{cty.StringVal("10.0.0.0/8"), cty.UnknownVal(cty.String)})}),
		cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(0), "cidr": cty.NullVal(cty.List(cty.String))}),
	})
	old := obj(cty.StringVal("i-1"), "old", cty.NumberIntVal(7), cty.ListValEmpty(ruleTy))
	old, _ = cty.Transform(old, func(p cty.Path, v cty.Value) (cty.Value, error) {
		if !v.IsKnown() {
			return cty.NullVal(v.Type()), nil
		}
		return v, nil
	})
	planned := obj(cty.UnknownVal(cty.String), "new", cty.NumberFloatVal(-0.25), rules)
	pc := addrs.AbsProviderConfig{Provider: testProvider}
	mod := addrs.RootModuleInstance.Child("net", addrs.IntKey(1))
	ri := func(name string, key addrs.InstanceKey, m addrs.ModuleInstance) addrs.AbsResourceInstance {
		return addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "test_thing", Name: name}.Instance(key).Absolute(m)
	}
	data := addrs.Resource{Mode: addrs.DataResourceMode, Type: "test_thing", Name: "lookup"}.Instance(addrs.NoKey).Absolute(nil)
	change := func(addr addrs.AbsResourceInstance, a plans.Action, before, after cty.Value) *plans.ResourceInstanceChange {
		return &plans.ResourceInstanceChange{Addr: addr, PrevRunAddr: addr, ProviderAddr: pc, Change: plans.Change{Action: a, Before: before, After: after}}
	}
	create := change(ri("c", addrs.IntKey(10), nil), plans.Create, cty.NullVal(ty), planned)
	create.AfterSensitivePaths = []cty.Path{cty.GetAttrPath("tags").Index(cty.StringVal("env")), cty.GetAttrPath("rule")}
	create2 := change(ri("c", addrs.IntKey(2), nil), plans.Create, cty.NullVal(ty), cty.UnknownVal(ty))
	update := change(ri("u", addrs.StringKey("a b"), mod), plans.Update, old, planned)
	update.BeforeSensitivePaths = []cty.Path{cty.GetAttrPath("name")}
	replace := change(ri("r", addrs.NoKey, nil), plans.DeleteThenCreate, old, planned)
	replace.RequiredReplace = []cty.Path{cty.GetAttrPath("name"), cty.GetAttrPath("rule").Index(cty.NumberIntVal(0)).GetAttr("port"), cty.GetAttrPath("tags").Index(cty.StringVal("env"))}
	replace.ActionReason = plans.ReasonReplaceBecauseCannotUpdate
	replace.PrevRunAddr = ri("r_old", addrs.NoKey, nil)
	cbd := change(ri("cbd", addrs.NoKey, mod), plans.CreateThenDelete, old, planned)
	cbd.ActionReason = plans.ReasonReplaceBecauseTainted
	del := change(ri("d", addrs.StringKey("x"), mod), plans.Delete, old, cty.NullVal(ty))
	del.ActionReason = plans.ReasonDeleteBecauseNoResourceConfig
	deposed := change(ri("r", addrs.NoKey, nil), plans.Delete, old, cty.NullVal(ty))
	deposed.DeposedKey = "00000001"
	read := change(data, plans.Read, cty.NullVal(ty), planned)
	read.ActionReason = plans.ReasonReadBecauseConfigUnknown
	noop := change(ri("n", addrs.NoKey, nil), plans.NoOp, old, old)
	drift := change(ri("u", addrs.StringKey("a b"), mod), plans.Update, old, old)

	prior := states.NewState()
	enc := func(v cty.Value, status states.ObjectStatus) *states.ResourceInstanceObjectSrc {
		src, err := (&states.ResourceInstanceObject{Value: v, Status: status}).Encode(ty, 1)
		if err != nil {
			t.Fatal(err)
		}
		return src
	}
	taintedSrc := enc(old, states.ObjectTainted)
	taintedSrc.Dependencies = []addrs.ConfigResource{{Resource: addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "test_thing", Name: "n"}}}
	prior.SetResourceInstanceCurrent(ri("cbd", addrs.NoKey, mod), taintedSrc, pc)
	prior.SetResourceInstanceCurrent(ri("r", addrs.NoKey, nil), enc(old, states.ObjectReady), pc)
	prior.SetResourceInstanceDeposed(ri("r", addrs.NoKey, nil), "00000001", enc(old, states.ObjectReady), pc)
	prior.SetResourceInstanceCurrent(ri("n", addrs.NoKey, nil), enc(old, states.ObjectReady), pc)
	other := addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("other")}
	prior.SetResourceInstanceCurrent(addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "other_thing", Name: "raw"}.Instance(addrs.NoKey).Absolute(nil),
		&states.ResourceInstanceObjectSrc{AttrsJSON: []byte("{\n  \"id\": \"x y\",\n  \"html\": \"<b>\"\n}"), Status: states.ObjectReady}, other)
	prior.SetOutputValue(addrs.OutputValue{Name: "plain"}.Absolute(nil), cty.ListVal([]cty.Value{cty.StringVal("a<b")}), false)
	prior.SetOutputValue(addrs.OutputValue{Name: "hidden"}.Absolute(nil), cty.StringVal("s"), true)

	out := func(name string, a plans.Action, sensitive bool, before, after cty.Value) *plans.OutputChange {
		return &plans.OutputChange{Addr: addrs.OutputValue{Name: name}.Absolute(nil), Sensitive: sensitive, Change: plans.Change{Action: a, Before: before, After: after}}
	}
	return &plans.Plan{
		VariableValues: map[string]cty.Value{"region": cty.StringVal("eu<1>"), "n": cty.NumberFloatVal(2.5),
			"obj": cty.ObjectVal(map[string]cty.Value{"l": cty.ListVal([]cty.Value{cty.True}), "m": cty.NullVal(cty.String)})},
		Changes: &plans.Changes{
			Resources: []*plans.ResourceInstanceChange{update, create, create2, replace, deposed, cbd, del, read, noop},
			Outputs: []*plans.OutputChange{
				out("known", plans.Create, false, cty.NullVal(cty.DynamicPseudoType), cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x"), "n": cty.NumberIntVal(1)})),
				out("unknown", plans.Update, false, cty.StringVal("was"), cty.ObjectVal(map[string]cty.Value{"a": cty.UnknownVal(cty.String), "b": cty.StringVal("k")})),
				out("wholly", plans.Create, false, cty.NullVal(cty.DynamicPseudoType), cty.UnknownVal(cty.DynamicPseudoType)),
				out("secret", plans.Create, true, cty.NullVal(cty.String), cty.StringVal("s").Mark(marks.Sensitive)),
				out("gone", plans.Delete, false, cty.StringVal("old"), cty.NullVal(cty.String)),
				{Addr: addrs.OutputValue{Name: "inner"}.Absolute(mod), Change: plans.Change{Action: plans.Create, Before: cty.NullVal(cty.String), After: cty.StringVal("no")}},
			},
		},
		DriftedResources: []*plans.ResourceInstanceChange{drift},
		PriorState:       prior,
		ProviderSchemas: map[addrs.Provider]*providers.GetProviderSchemaResponse{
			testProvider: {
				ResourceTypes: map[string]providers.Schema{"test_thing": {Version: 1, Block: schema}},
				DataSources:   map[string]providers.Schema{"test_thing": {Version: 2, Block: schema}},
			},
		},
		Checks:    []*plans.CheckResult{{Kind: "var", Name: "region", Status: plans.CheckPass, Objects: []plans.CheckObject{{Status: plans.CheckPass}}}},
		Applyable: true, Complete: false, Errored: false,
		Timestamp: time.Date(2025, 6, 7, 8, 9, 10, 0, time.UTC),
	}
}

// TestMarshalVariedGolden pins show -json of variedPlan byte for byte
// (compact, as plan show -json prints it). testdata/varied.json was
// written by the encoding/json-based encoder this package used before
// the streaming one, so the streaming encoder is held to its bytes.
func TestMarshalVariedGolden(t *testing.T) {
	got, err := Marshal(variedPlan(t), Options{Version: "1.2.3"})
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "testdata/varied.json", append(got, '\n'))
}

// TestMarshalCompatGolden pins show -json, configuration section and
// relevant_attributes included, of compatPlan byte for byte; like
// varied.json, testdata/compat.json was written by the encoder before the
// streaming one.
func TestMarshalCompatGolden(t *testing.T) {
	p, cfg := compatPlan(t)
	got, err := Marshal(p, Options{Version: "1.2.3", Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "testdata/compat.json", append(got, '\n'))
}

// checkGolden compares got with the golden file at path, rewriting the
// file first under -update.
func checkGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", path, diff)
	}
}

// chunkWriter records the size of every write and can fail after some.
type chunkWriter struct {
	bytes.Buffer
	writes []int
	failAt int // fail the failAt-th write (1-based); 0 never
}

func (w *chunkWriter) Write(p []byte) (int, error) {
	w.writes = append(w.writes, len(p))
	if w.failAt == len(w.writes) {
		return 0, errors.New("disk full")
	}
	return w.Buffer.Write(p)
}

// TestWriteIsMarshalStreamed: Write writes Marshal's bytes and a newline,
// for every plan the golden tests use, in writes of about flushAt bytes.
func TestWriteIsMarshalStreamed(t *testing.T) {
	cp, cfg := compatPlan(t)
	for name, c := range map[string]struct {
		p    *plans.Plan
		opts Options
	}{
		"varied": {variedPlan(t), Options{Version: "1.2.3"}},
		"compat": {cp, Options{Version: "1.2.3", Config: cfg}},
		"test":   {testPlan(t), Options{}},
		"empty":  {&plans.Plan{}, Options{}},
		"many":   {manyPlan(3000), Options{Version: "x"}},
	} {
		t.Run(name, func(t *testing.T) {
			want, err := Marshal(c.p, c.opts)
			if err != nil {
				t.Fatal(err)
			}
			var w chunkWriter
			if err := Write(&w, c.p, c.opts); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want)+"\n", w.String()); diff != "" {
				t.Errorf("Write differs from Marshal (-want +got):\n%s", diff)
			}
			for i, n := range w.writes {
				if n > 2*flushAt || (n < flushAt && i < len(w.writes)-1) {
					t.Errorf("write %d of %d is %d bytes, want about %d (all but the last at least)", i, len(w.writes), n, flushAt)
				}
			}
			if name == "many" && len(w.writes) < 10 {
				t.Errorf("%d writes for %d bytes: not streamed", len(w.writes), w.Len())
			}
		})
	}
}

// TestWriteReportsWriteErrors: a failing writer stops Write with its
// error, at the first write and at a later one.
func TestWriteReportsWriteErrors(t *testing.T) {
	for _, failAt := range []int{1, 3} {
		w := &chunkWriter{failAt: failAt}
		err := Write(w, manyPlan(3000), Options{})
		if err == nil || err.Error() != "disk full" {
			t.Errorf("failAt %d: err = %v, want disk full", failAt, err)
		}
		if len(w.writes) != failAt {
			t.Errorf("failAt %d: %d writes, want none after the failure", failAt, len(w.writes))
		}
	}
}

// manyPlan is n terraform_data-like creates in the root module and a
// child module, as bench fixtures plan them.
func manyPlan(n int) *plans.Plan {
	schema := &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"id":               {Type: cty.String, Computed: true},
		"input":            {Type: cty.DynamicPseudoType, Optional: true},
		"output":           {Type: cty.DynamicPseudoType, Computed: true},
		"triggers_replace": {Type: cty.DynamicPseudoType, Optional: true},
	}}
	ty := schema.ImpliedType()
	pc := addrs.AbsProviderConfig{Provider: testProvider}
	var rcs []*plans.ResourceInstanceChange
	for i := range n {
		var mod addrs.ModuleInstance
		if i%4 == 3 {
			mod = addrs.RootModuleInstance.Child("m", addrs.IntKey(i%3))
		}
		addr := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "test_thing", Name: "r" + strconv.Itoa(i)}.Instance(addrs.NoKey).Absolute(mod)
		after := cty.ObjectVal(map[string]cty.Value{
			"id": cty.UnknownVal(cty.String), "input": cty.StringVal("v" + strconv.Itoa(i)),
			"output": cty.UnknownVal(cty.DynamicPseudoType), "triggers_replace": cty.NullVal(cty.DynamicPseudoType),
		})
		rcs = append(rcs, &plans.ResourceInstanceChange{Addr: addr, PrevRunAddr: addr, ProviderAddr: pc,
			Change: plans.Change{Action: plans.Create, Before: cty.NullVal(ty), After: after}})
	}
	return &plans.Plan{
		Changes: &plans.Changes{Resources: rcs},
		ProviderSchemas: map[addrs.Provider]*providers.GetProviderSchemaResponse{
			testProvider: {ResourceTypes: map[string]providers.Schema{"test_thing": {Block: schema}}},
		},
		Applyable: true, Complete: true,
	}
}

// encoderCase has a field of every kind the model uses and some it
// does not, to hold the encoder to encoding/json's bytes.
type encoderCase struct {
	S      string                     `json:"s"`
	SO     string                     `json:"so,omitempty"`
	B      bool                       `json:"b,omitempty"`
	I      int                        `json:"i"`
	U      uint64                     `json:"u,omitempty"`
	F      float64                    `json:"f"`
	A      any                        `json:"a"`
	AO     any                        `json:"ao,omitempty"`
	P      *encoderCase               `json:"p,omitempty"`
	L      []any                      `json:"l"`
	LO     [][]any                    `json:"lo,omitempty"`
	M      map[string]int             `json:"m"`
	Raw    json.RawMessage            `json:"raw"`
	RawO   json.RawMessage            `json:"rawo,omitempty"`
	RawMap map[string]json.RawMessage `json:"rawmap,omitempty"`
	Bytes  []byte                     `json:"bytes"`
	Time   time.Time                  `json:"time"`
	Skip   string                     `json:"-"`
	NoTag  string
	hidden string
	Emb    *embedding `json:"emb,omitempty"`
}

// embedding promotes the fields of an embedded struct, which the encoder
// leaves to encoding/json.
type embedding struct {
	encoderCase2
	Own string `json:"own"`
}

type encoderCase2 struct {
	Promoted string `json:"promoted"`
}

func TestEncoderMatchesEncodingJSON(t *testing.T) {
	for _, c := range []encoderCase{
		{},
		{S: "<a&b>\u2028\xff", SO: "x", B: true, I: -3, U: 7, F: 1.5e-7, A: 3, AO: "s", P: &encoderCase{S: "in"},
			L: []any{1, "a", nil, []any{}}, LO: [][]any{{"x", int64(2)}}, M: map[string]int{"b": 1, "a": 2, "<": 3},
			Raw: json.RawMessage("{\n \"k\" : [1, 2],\"h\":\"<\"}"), RawO: json.RawMessage(`"x y"`),
			RawMap: map[string]json.RawMessage{"z": json.RawMessage(`{"a":"b c"}`), "y": json.RawMessage(`true`)},
			Bytes:  []byte("hi"), Time: time.Date(2024, 1, 2, 3, 4, 5, 6, time.UTC), Skip: "no", NoTag: "yes", hidden: "no",
			Emb: &embedding{encoderCase2: encoderCase2{Promoted: "p<"}, Own: "o"}},
	} {
		want, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		e := &encoder{}
		if err := e.encode(c); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(want), string(e.buf)); diff != "" {
			t.Errorf("encoder differs from encoding/json (-want +got):\n%s", diff)
		}
	}
	// Raw JSON that needs compacting goes through encoding/json, which
	// refuses it when it is not JSON.
	if err := (&encoder{}).encode(encoderCase{Raw: json.RawMessage("{ ")}); err == nil {
		t.Errorf("invalid raw JSON encoded without an error")
	}
}

// FuzzAppendJSONString holds string escaping to encoding/json's.
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range genStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := appendJSONString(nil, s); string(got) != string(want) {
			t.Errorf("%q: got %s, want %s", s, got, want)
		}
	})
}

// TestWriteLoadConfig: with LoadConfig instead of Config, Write writes
// the same document, calls it once, and only after the resource entries
// are out (so the caller can load the configuration meanwhile); a nil
// configuration leaves the section out as a nil Config does.
func TestWriteLoadConfig(t *testing.T) {
	p, cfg := compatPlan(t)
	want, err := Marshal(p, Options{Version: "v", Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	var w chunkWriter
	calls := 0
	if err := Write(&w, p, Options{Version: "v", LoadConfig: func() *configs.Config { calls++; return cfg }}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want)+"\n", w.String()); diff != "" || calls != 1 {
		t.Errorf("%d calls; Write with LoadConfig differs from Marshal with Config (-want +got):\n%s", calls, diff)
	}

	if again, err := Marshal(p, Options{Version: "v", LoadConfig: func() *configs.Config { return cfg }}); err != nil || string(again) != string(want) {
		t.Errorf("Marshal with LoadConfig differs from Marshal with Config (%v)", err)
	}

	noConfig, err := Marshal(p, Options{Version: "v"})
	if err != nil {
		t.Fatal(err)
	}
	w = chunkWriter{}
	if err := Write(&w, p, Options{Version: "v", LoadConfig: func() *configs.Config { return nil }}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(noConfig)+"\n", w.String()); diff != "" {
		t.Errorf("nil configuration (-want +got):\n%s", diff)
	}

	many := manyPlan(3000)
	w = chunkWriter{}
	var before string
	if err := Write(&w, many, Options{LoadConfig: func() *configs.Config { before = w.String(); return cfg }}); err != nil {
		t.Fatal(err)
	}
	// All but the buffered tail (less than flushAt) of what precedes the
	// configuration section was written before the call.
	at := strings.Index(w.String(), `"configuration":`)
	if !strings.Contains(before, `"resource_changes":[`) || at < 0 || len(before) < at-flushAt {
		t.Errorf("LoadConfig was called with %d bytes written, want about %d (the resource entries)", len(before), at)
	}
}

// TestWriteReportsValueErrors: a value JSON cannot hold (infinity) fails
// Marshal and Write alike, naming the problem.
func TestWriteReportsValueErrors(t *testing.T) {
	p := manyPlan(5)
	rc := p.Changes.Resources[3]
	m := rc.After.AsValueMap()
	m["input"] = cty.PositiveInfinity
	rc.After = cty.ObjectVal(m)
	if _, err := Marshal(p, Options{}); err == nil || !strings.Contains(err.Error(), "infinity") {
		t.Errorf("Marshal: err = %v, want one about infinity", err)
	}
	var w chunkWriter
	if err := Write(&w, p, Options{}); err == nil || !strings.Contains(err.Error(), "infinity") {
		t.Errorf("Write: err = %v, want one about infinity", err)
	}
}
