package plugin

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/providers/plugin/plugintest"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
	"github.com/plankit/plankit/tfdiags"
)

func TestFrameworkSchema(t *testing.T) {
	p, _ := testProvider(t, "fw")
	s := p.GetProviderSchema()
	noErrors(t, "schema", s.Diagnostics)
	if !s.ServerCapabilities.GetProviderSchemaOptional || !s.ServerCapabilities.MoveResourceState {
		t.Errorf("capabilities = %+v", s.ServerCapabilities)
	}
	if !s.Provider.Block.Attributes["token"].Sensitive {
		t.Errorf("provider token not sensitive")
	}
	rs := s.ResourceTypes["fwtest_thing"]
	if rs.Version != 1 {
		t.Errorf("schema version %d", rs.Version)
	}
	b := rs.Block
	type nestedSummary struct {
		Nesting   configschema.NestingMode
		Attrs     []string
		Sensitive []string
	}
	summary := func(a *configschema.Attribute) nestedSummary {
		if a == nil || a.NestedType == nil {
			return nestedSummary{}
		}
		var ns nestedSummary
		ns.Nesting = a.NestedType.Nesting
		for _, n := range sortedKeys(a.NestedType.Attributes) {
			ns.Attrs = append(ns.Attrs, n)
			if a.NestedType.Attributes[n].Sensitive {
				ns.Sensitive = append(ns.Sensitive, n)
			}
		}
		return ns
	}
	got := map[string]nestedSummary{}
	for _, n := range []string{"single", "list", "set", "map"} {
		got[n] = summary(b.Attributes[n])
	}
	want := map[string]nestedSummary{
		"single": {configschema.NestingSingle, []string{"a", "s"}, []string{"s"}},
		"list":   {configschema.NestingList, []string{"a", "n"}, nil},
		"set":    {configschema.NestingSet, []string{"a"}, nil},
		"map":    {configschema.NestingMap, []string{"a", "c"}, nil},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("nested attributes (-want +got):\n%s", diff)
	}
	if a := b.Attributes["map"]; !a.Deprecated || !a.NestedType.Attributes["c"].Computed || a.NestedType.Attributes["c"].Description != "Upper-cased a." {
		t.Errorf("map attribute = %+v", a)
	}
	if a := b.Attributes["password_wo"]; !a.WriteOnly || !a.Sensitive {
		t.Errorf("password_wo = %+v", a)
	}
	if a := b.Attributes["dyn"]; !a.Type.Equals(cty.DynamicPseudoType) {
		t.Errorf("dyn type %#v", a.Type)
	}
	if nb := b.BlockTypes["block"]; nb == nil || nb.Nesting != configschema.NestingList {
		t.Errorf("block = %+v", nb)
	}
	if b.Attributes["name"].Description != "Changing the name replaces the thing." {
		t.Errorf("name description %q", b.Attributes["name"].Description)
	}
	if _, ok := s.DataSources["fwtest_thing"]; !ok {
		t.Errorf("no data source")
	}
	schemasValid(t, s)
	f := s.Functions["reverse"]
	if len(f.Parameters) != 1 || !f.Parameters[0].Type.Equals(cty.String) || !f.ReturnType.Equals(cty.String) || f.Summary != "Reverses a string" {
		t.Errorf("function reverse = %+v", f)
	}
}

// schemasValid checks every translated schema with InternalValidate.
func schemasValid(t *testing.T, s providers.GetProviderSchemaResponse) {
	t.Helper()
	check := func(what string, b *configschema.Block) {
		if err := b.InternalValidate(); err != nil {
			t.Errorf("%s: %v", what, err)
		}
	}
	check("provider", s.Provider.Block)
	for n, rs := range s.ResourceTypes {
		check(n, rs.Block)
	}
	for n, ds := range s.DataSources {
		check("data "+n, ds.Block)
	}
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

func TestSDKSchema(t *testing.T) {
	p, _ := testProvider(t, "sdk")
	s := p.GetProviderSchema()
	noErrors(t, "schema", s.Diagnostics)
	schemasValid(t, s)
	b := s.ResourceTypes["sdktest_thing"].Block
	if s.ResourceTypes["sdktest_thing"].Version != 1 {
		t.Errorf("version %d", s.ResourceTypes["sdktest_thing"].Version)
	}
	if a := b.Attributes["name"]; !a.Required {
		t.Errorf("name = %+v", a)
	}
	if a := b.Attributes["created_at"]; !a.ComputedOnly() {
		t.Errorf("created_at = %+v", a)
	}
	if a := b.Attributes["id"]; !a.Computed || !a.Optional {
		t.Errorf("id = %+v", a)
	}
	if !b.Attributes["tags"].Type.Equals(cty.Map(cty.String)) || !b.Attributes["secret"].Sensitive {
		t.Errorf("tags/secret = %+v %+v", b.Attributes["tags"], b.Attributes["secret"])
	}
	if nb := b.BlockTypes["nested"]; nb == nil || nb.Nesting != configschema.NestingList || nb.MaxItems != 1 {
		t.Errorf("nested = %+v", nb)
	}
	if nb := b.BlockTypes["timeouts"]; nb == nil || nb.Nesting != configschema.NestingSingle || nb.Attributes["create"] == nil || nb.Attributes["delete"] == nil {
		t.Errorf("timeouts = %+v", nb)
	}
}

func TestDataSources(t *testing.T) {
	for _, which := range []string{"fw", "sdk"} {
		t.Run(which, func(t *testing.T) {
			p, dir := testProvider(t, which)
			configure(t, p)
			kind, typeName := "thing", "fwtest_thing"
			if which == "sdk" {
				kind, typeName = "sdkthing", "sdktest_thing"
			}
			writeObject(t, dir, kind, "obj1", map[string]any{"id": "obj1", "name": "n", "value": "v", "revision": 3})
			s := p.GetProviderSchema().DataSources[typeName].Block
			cfg := with(s, map[string]cty.Value{"id": cty.StringVal("obj1")})
			v := p.ValidateDataResourceConfig(providers.ValidateDataResourceConfigRequest{TypeName: typeName, Config: cfg})
			noErrors(t, "validate", v.Diagnostics)
			r := p.ReadDataSource(providers.ReadDataSourceRequest{TypeName: typeName, Config: cfg})
			noErrors(t, "read", r.Diagnostics)
			if !r.State.GetAttr("name").RawEquals(cty.StringVal("n")) || !r.State.GetAttr("value").RawEquals(cty.StringVal("v")) {
				t.Errorf("data = %#v", r.State)
			}
			if which == "fw" {
				want := cty.ObjectVal(map[string]cty.Value{"kind": cty.StringVal("thing"), "path": cty.StringVal("obj1.json")})
				if !r.State.GetAttr("info").RawEquals(want) {
					t.Errorf("info = %#v", r.State.GetAttr("info"))
				}
			}
			// A missing object is an error on the id attribute.
			r = p.ReadDataSource(providers.ReadDataSourceRequest{TypeName: typeName, Config: with(s, map[string]cty.Value{"id": cty.StringVal("nope")})})
			if !r.Diagnostics.HasErrors() || !tfdiags.AttributePath(r.Diagnostics[0]).Equals(cty.GetAttrPath("id")) {
				t.Errorf("diagnostics %v (path %#v)", r.Diagnostics, pathOf(r.Diagnostics))
			}
		})
	}
}

func pathOf(ds hcl.Diagnostics) cty.Path {
	if len(ds) == 0 {
		return nil
	}
	return tfdiags.AttributePath(ds[0])
}

func TestImport(t *testing.T) {
	for _, which := range []string{"fw", "sdk"} {
		t.Run(which, func(t *testing.T) {
			p, dir := testProvider(t, which)
			configure(t, p)
			kind, typeName := "thing", "fwtest_thing"
			if which == "sdk" {
				kind, typeName = "sdkthing", "sdktest_thing"
			}
			writeObject(t, dir, kind, "imp", map[string]any{"id": "imp", "name": "imported", "value": "iv", "revision": 5})
			r := p.ImportResourceState(providers.ImportResourceStateRequest{TypeName: typeName, ID: "imp"})
			noErrors(t, "import", r.Diagnostics)
			if len(r.ImportedResources) != 1 || r.ImportedResources[0].TypeName != typeName {
				t.Fatalf("imported %+v", r.ImportedResources)
			}
			ir := r.ImportedResources[0]
			if !ir.State.GetAttr("id").RawEquals(cty.StringVal("imp")) {
				t.Errorf("imported state %#v", ir.State)
			}
			read := p.ReadResource(providers.ReadResourceRequest{TypeName: typeName, PriorState: ir.State, Private: ir.Private})
			noErrors(t, "read", read.Diagnostics)
			if !read.NewState.GetAttr("name").RawEquals(cty.StringVal("imported")) || !read.NewState.GetAttr("value").RawEquals(cty.StringVal("iv")) {
				t.Errorf("read after import %#v", read.NewState)
			}
			if which == "fw" {
				if got := fwPrivate(t, read.Private); got != `{"imported":true}` {
					t.Errorf("private after import+read = %q", got)
				}
			}
		})
	}
}

func TestUpgradeResourceState(t *testing.T) {
	tests := []struct {
		which, typeName string
		req             providers.UpgradeResourceStateRequest
	}{
		{"fw", "fwtest_thing", providers.UpgradeResourceStateRequest{Version: 0, RawStateJSON: []byte(`{"id":"x","name":"n","val":"old"}`)}},
		{"fw", "fwtest_thing", providers.UpgradeResourceStateRequest{Version: 1, RawStateJSON: []byte(`{"id":"x","name":"n","value":"old","revision":1}`)}},
		{"sdk", "sdktest_thing", providers.UpgradeResourceStateRequest{Version: 0, RawStateJSON: []byte(`{"id":"x","name":"n","val":"old"}`)}},
		{"sdk", "sdktest_thing", providers.UpgradeResourceStateRequest{Version: 0, RawStateFlatmap: map[string]string{"id": "x", "name": "n", "val": "old"}}},
	}
	for _, tt := range tests {
		name := tt.which
		if tt.req.RawStateFlatmap != nil {
			name += "-flatmap"
		}
		t.Run(name, func(t *testing.T) {
			p, _ := testProvider(t, tt.which)
			tt.req.TypeName = tt.typeName
			r := p.UpgradeResourceState(tt.req)
			noErrors(t, "upgrade", r.Diagnostics)
			for k, want := range map[string]string{"id": "x", "name": "n", "value": "old"} {
				if got := r.UpgradedState.GetAttr(k); !got.RawEquals(cty.StringVal(want)) {
					t.Errorf("%s = %#v, want %q", k, got, want)
				}
			}
		})
	}
}

func TestMoveResourceState(t *testing.T) {
	p, _ := testProvider(t, "fw")
	r := p.MoveResourceState(providers.MoveResourceStateRequest{
		SourceProviderAddress: plugintest.FWAddress,
		SourceTypeName:        "fwtest_legacy",
		SourceStateJSON:       []byte(`{"id":"m1","name":"moved","value":"mv"}`),
		TargetTypeName:        "fwtest_thing",
	})
	noErrors(t, "move", r.Diagnostics)
	for k, want := range map[string]cty.Value{"id": cty.StringVal("m1"), "name": cty.StringVal("moved"), "value": cty.StringVal("mv"), "revision": cty.NumberIntVal(1)} {
		if got := r.TargetState.GetAttr(k); !got.RawEquals(want) {
			t.Errorf("%s = %#v, want %#v", k, got, want)
		}
	}
	if got := fwPrivate(t, r.TargetPrivate); got != `{"moved":true}` {
		t.Errorf("target private %q", got)
	}
	r = p.MoveResourceState(providers.MoveResourceStateRequest{
		SourceProviderAddress: "registry.terraform.io/hashicorp/null", SourceTypeName: "null_resource",
		SourceStateJSON: []byte(`{"id":"1"}`), TargetTypeName: "fwtest_thing",
	})
	if !r.Diagnostics.HasErrors() {
		t.Errorf("move from null_resource accepted: %#v", r.TargetState)
	}
}

func TestFunctions(t *testing.T) {
	p, _ := testProvider(t, "fw")
	fns := p.GetFunctions()
	noErrors(t, "functions", fns.Diagnostics)
	if _, ok := fns.Functions["reverse"]; !ok {
		t.Fatalf("functions = %v", fns.Functions)
	}
	r := p.CallFunction(providers.CallFunctionRequest{FunctionName: "reverse", Arguments: []cty.Value{cty.StringVal("abc")}})
	if r.Err != nil || !r.Result.RawEquals(cty.StringVal("cba")) {
		t.Errorf("reverse(abc) = %#v, %v", r.Result, r.Err)
	}
	r = p.CallFunction(providers.CallFunctionRequest{FunctionName: "reverse", Arguments: []cty.Value{cty.StringVal("error")}})
	var fe *providers.FunctionError
	if !errors.As(r.Err, &fe) || fe.Argument == nil || *fe.Argument != 0 || !strings.Contains(fe.Text, "refused") {
		t.Errorf("reverse(error) err = %v", r.Err)
	}
	r = p.CallFunction(providers.CallFunctionRequest{FunctionName: "reverse"})
	if r.Err == nil || !strings.Contains(r.Err.Error(), "takes 1 arguments, got 0") {
		t.Errorf("reverse() err = %v", r.Err)
	}
	sdk, _ := testProvider(t, "sdk")
	if fns := sdk.GetFunctions(); len(fns.Functions) != 0 || fns.Diagnostics.HasErrors() {
		t.Errorf("sdk functions = %+v", fns)
	}
}

func TestDiagnosticsWithPaths(t *testing.T) {
	p, _ := testProvider(t, "fw")
	s := p.GetProviderSchema()
	b := s.ResourceTypes["fwtest_thing"].Block
	list := cty.ListVal([]cty.Value{
		cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("ok"), "n": cty.NullVal(cty.Number)}),
		cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("invalid"), "n": cty.NullVal(cty.Number)}),
	})
	cfg := with(b, map[string]cty.Value{"name": cty.StringVal("a"), "value": cty.StringVal("invalid"), "list": list})
	r := p.ValidateResourceConfig(providers.ValidateResourceConfigRequest{TypeName: "fwtest_thing", Config: cfg})
	var got []string
	for _, d := range r.Diagnostics {
		got = append(got, d.Summary+" at "+configschema.FormatPath(tfdiags.AttributePath(d)))
	}
	want := []string{"Invalid value at value", "Invalid nested value at list[1].a"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}

	// Provider configuration: unknown values are allowed; the provider's
	// own refusal carries the attribute path.
	pc := with(s.Provider.Block, map[string]cty.Value{"state_dir": cty.UnknownVal(cty.String)})
	noErrors(t, "configure with unknown", p.ConfigureProvider(providers.ConfigureProviderRequest{Config: pc}).Diagnostics)
	p2, _ := testProvider(t, "fw")
	bad := p2.ConfigureProvider(providers.ConfigureProviderRequest{Config: with(s.Provider.Block, map[string]cty.Value{"token": cty.StringVal("bad")})})
	if !bad.Diagnostics.HasErrors() || !pathOf(bad.Diagnostics).Equals(cty.GetAttrPath("token")) {
		t.Errorf("configure diagnostics %v", bad.Diagnostics)
	}
}

func TestUnknowns(t *testing.T) {
	p, _ := testProvider(t, "fw")
	configure(t, p)
	b := p.GetProviderSchema().ResourceTypes["fwtest_thing"].Block
	refined := cty.UnknownVal(cty.String).Refine().NotNull().StringPrefix("pre-").NewValue()
	cfg := with(b, map[string]cty.Value{"name": cty.StringVal("a"), "value": refined, "dyn": cty.DynamicVal})
	r := p.PlanResourceChange(providers.PlanResourceChangeRequest{TypeName: "fwtest_thing", PriorState: cty.NullVal(b.ImpliedType()),
		ProposedNewState: cfg, Config: cfg})
	noErrors(t, "plan", r.Diagnostics)
	// The framework keeps the value unknown (it drops refinements itself;
	// TestEncodeRefinedUnknowns checks that the wire encoding keeps them).
	if got := r.PlannedState.GetAttr("value"); got.IsKnown() || !got.Type().Equals(cty.String) {
		t.Errorf("planned value = %#v, want unknown", got)
	}
	if got := r.PlannedState.GetAttr("dyn"); got.IsKnown() {
		t.Errorf("planned dyn = %#v", got)
	}
}

// TestEncodeRefinedUnknowns checks the codec alone: every kind of
// refinement survives a round trip.
func TestEncodeRefinedUnknowns(t *testing.T) {
	ty := cty.Object(map[string]cty.Type{"s": cty.String, "n": cty.Number, "l": cty.List(cty.String), "d": cty.DynamicPseudoType})
	v := cty.ObjectVal(map[string]cty.Value{
		"s": cty.UnknownVal(cty.String).Refine().NotNull().StringPrefix("abc").NewValue(),
		"n": cty.UnknownVal(cty.Number).Refine().NumberRangeInclusive(cty.NumberIntVal(1), cty.NumberIntVal(9)).NewValue(),
		"l": cty.UnknownVal(cty.List(cty.String)).Refine().CollectionLengthLowerBound(2).NewValue(),
		"d": cty.MapVal(map[string]cty.Value{"k": cty.StringVal("v")}),
	})
	b, err := encodeValue(v, ty)
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeValue(b, nil, ty)
	if err != nil {
		t.Fatal(err)
	}
	if !got.RawEquals(v) {
		t.Errorf("round trip:\n got %#v\nwant %#v", got, v)
	}
	if got, _ := decodeValue(nil, []byte(`{"s":"x","n":1,"l":null,"d":{"value":true,"type":"bool"}}`), ty); !got.GetAttr("d").RawEquals(cty.True) {
		t.Errorf("JSON fallback: %#v", got)
	}
}

func TestBadExecutable(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "terraform-provider-broken")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\necho 'this is not a provider' >&2\nexit 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := Factory(Meta{Provider: addrs.NewDefaultProvider("broken"), Executable: exe}, Options{})()
	if err == nil || !strings.Contains(err.Error(), "hashicorp/broken") || !strings.Contains(err.Error(), "this is not a provider") {
		t.Errorf("error = %v", err)
	}
	_, err = Factory(Meta{Provider: addrs.NewDefaultProvider("missing"), Executable: filepath.Join(dir, "nope")}, Options{})()
	if err == nil || !strings.Contains(err.Error(), "hashicorp/missing") {
		t.Errorf("missing binary error = %v", err)
	}
}

// TestStderrAndSchemaOnce runs the framework provider with TF_LOG=trace so
// it logs every RPC it receives, and counts GetProviderSchema calls: one
// for the first process, none for a second process of the same binary
// (the framework declares get_provider_schema_optional).
func TestStderrAndSchemaOnce(t *testing.T) {
	bins := plugintest.Build(t)
	pa, _ := addrs.ParseProviderSourceString(plugintest.FWAddress)
	meta := Meta{Provider: pa, Version: "0.0.1-" + t.Name(), Executable: bins.FW}
	var logs [2]bytes.Buffer
	for i := range logs {
		p, err := Factory(meta, Options{Stderr: &logs[i], Env: []string{"TF_LOG=trace", "FWTEST_STATE_DIR=" + t.TempDir()}})()
		if err != nil {
			t.Fatal(err)
		}
		noErrors(t, "schema", p.GetProviderSchema().Diagnostics)
		p.GetProviderSchema()
		p.ValidateResourceConfig(providers.ValidateResourceConfigRequest{TypeName: "fwtest_thing",
			Config: with(p.GetProviderSchema().ResourceTypes["fwtest_thing"].Block, map[string]cty.Value{"name": cty.StringVal("x")})})
		p.Close()
	}
	schemaCalls := func(s string) int {
		n := 0
		for _, line := range strings.Split(s, "\n") {
			if strings.Contains(line, "Received request") && strings.Contains(line, `"tf_rpc":"GetProviderSchema"`) {
				n++
			}
		}
		return n
	}
	if !strings.Contains(logs[0].String(), `"tf_rpc":"ValidateResourceConfig"`) {
		t.Fatalf("provider stderr was not captured:\n%s", logs[0].String())
	}
	if got := [2]int{schemaCalls(logs[0].String()), schemaCalls(logs[1].String())}; got != [2]int{1, 0} {
		t.Errorf("GetProviderSchema calls per process = %v, want [1 0]", got)
	}
}

// TestLargeValues sends and receives a value far over gRPC's default 4 MiB
// message limit.
func TestLargeValues(t *testing.T) {
	p, _ := testProvider(t, "fw")
	configure(t, p)
	b := p.GetProviderSchema().ResourceTypes["fwtest_thing"].Block
	big := cty.StringVal(strings.Repeat("x", 12<<20))
	cfg := with(b, map[string]cty.Value{"name": cty.StringVal("big"), "value": big})
	r := p.PlanResourceChange(providers.PlanResourceChangeRequest{TypeName: "fwtest_thing", PriorState: cty.NullVal(b.ImpliedType()), ProposedNewState: cfg, Config: cfg})
	noErrors(t, "plan", r.Diagnostics)
	if !r.PlannedState.GetAttr("value").RawEquals(big) {
		t.Errorf("planned value lost its 12 MiB")
	}
}
