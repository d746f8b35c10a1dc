package providertest

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/internal/providers/objchange"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
)

func thingSchema() *configschema.Block {
	return &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"name": {Type: cty.String, Required: true},
		"zone": {Type: cty.String, Optional: true},
		"size": {Type: cty.Number, Optional: true},
		"id":   {Type: cty.String, Computed: true},
	}}
}

func cfg(name, zone string, size int64) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{
		"name": cty.StringVal(name), "zone": cty.StringVal(zone),
		"size": cty.NumberIntVal(size), "id": cty.NullVal(cty.String),
	})
}

func newThing() *Provider {
	p := New(map[string]*configschema.Block{"test_thing": thingSchema()})
	p.ForceNew = map[string][]cty.Path{"test_thing": {cty.GetAttrPath("zone")}}
	return p
}

// plan runs PlanResourceChange the way the core does.
func plan(t *testing.T, p *Provider, prior, config cty.Value) providers.PlanResourceChangeResponse {
	t.Helper()
	s := thingSchema()
	resp := p.PlanResourceChange(providers.PlanResourceChangeRequest{
		TypeName: "test_thing", PriorState: prior, Config: config,
		ProposedNewState: objchange.ProposedNew(s, prior, config),
	})
	if resp.Diagnostics.HasErrors() {
		t.Fatal(resp.Diagnostics.Error())
	}
	return resp
}

func apply(t *testing.T, p *Provider, prior, planned, config cty.Value) cty.Value {
	t.Helper()
	resp := p.ApplyResourceChange(providers.ApplyResourceChangeRequest{
		TypeName: "test_thing", PriorState: prior, PlannedState: planned, Config: config,
	})
	if resp.Diagnostics.HasErrors() {
		t.Fatal(resp.Diagnostics.Error())
	}
	return resp.NewState
}

func TestLifecycle(t *testing.T) {
	p := newThing()
	null := cty.NullVal(thingSchema().ImpliedType())

	c1 := cfg("a", "z1", 1)
	pl := plan(t, p, null, c1)
	if id := pl.PlannedState.GetAttr("id"); id.IsKnown() {
		t.Fatalf("planned id should be unknown, got %#v", id)
	}
	s1 := apply(t, p, null, pl.PlannedState, c1)
	if got := s1.GetAttr("id"); got != cty.StringVal("test_thing-1") {
		t.Fatalf("id = %#v", got)
	}

	// In-place update keeps the id.
	c2 := cfg("a", "z1", 2)
	pl = plan(t, p, s1, c2)
	if len(pl.RequiresReplace) != 0 || !pl.PlannedState.GetAttr("id").RawEquals(s1.GetAttr("id")) {
		t.Fatalf("update planned %#v replace %v", pl.PlannedState, pl.RequiresReplace)
	}
	s2 := apply(t, p, s1, pl.PlannedState, c2)

	// Force-new attribute: replacement with a fresh unknown id.
	c3 := cfg("a", "z2", 2)
	pl = plan(t, p, s2, c3)
	if diff := cmp.Diff([]string{"zone"}, paths(pl.RequiresReplace)); diff != "" {
		t.Fatal(diff)
	}
	if pl.PlannedState.GetAttr("id").IsKnown() {
		t.Fatal("replacement should plan an unknown id")
	}

	// Read without drift returns prior; with drift, the drift.
	rr := p.ReadResource(providers.ReadResourceRequest{TypeName: "test_thing", PriorState: s2})
	if !rr.NewState.RawEquals(s2) {
		t.Fatal("read changed state without drift")
	}
	p.Drift = func(providers.ReadResourceRequest) cty.Value { return null }
	if rr = p.ReadResource(providers.ReadResourceRequest{TypeName: "test_thing", PriorState: s2}); !rr.NewState.IsNull() {
		t.Fatal("drift ignored")
	}

	// Delete.
	if got := apply(t, p, s2, null, null); !got.IsNull() {
		t.Fatalf("delete returned %#v", got)
	}

	want := []string{
		"PlanResourceChange create test_thing.a",
		"ApplyResourceChange create test_thing.a",
		"PlanResourceChange update test_thing.a",
		"ApplyResourceChange update test_thing.a",
		"PlanResourceChange update test_thing.a",
		"ReadResource read test_thing.a",
		"ReadResource read test_thing.a",
		"ApplyResourceChange delete test_thing.a",
	}
	if diff := cmp.Diff(want, p.CallStrings()); diff != "" {
		t.Fatalf("calls (-want +got)\n%s", diff)
	}
}

func paths(ps []cty.Path) []string {
	var out []string
	for _, p := range ps {
		out = append(out, configschema.FormatPath(p))
	}
	return out
}

func TestInjectedErrorAndPanic(t *testing.T) {
	p := newThing()
	null := cty.NullVal(thingSchema().ImpliedType())
	p.Inject(&Fault{Method: ApplyResourceChange, Key: "bad", Err: errors.New("boom"), Times: 1})
	p.Inject(&Fault{Method: ApplyResourceChange, Key: "crash", Panic: "kaboom"})

	c := cfg("bad", "z", 1)
	resp := p.ApplyResourceChange(providers.ApplyResourceChangeRequest{TypeName: "test_thing", PriorState: null, PlannedState: c, Config: c})
	if !resp.Diagnostics.HasErrors() || resp.Diagnostics[0].Detail != "boom" || !resp.NewState.IsNull() {
		t.Fatalf("error not injected: %#v", resp)
	}
	// Times: 1 means the second call succeeds.
	if resp = p.ApplyResourceChange(providers.ApplyResourceChangeRequest{TypeName: "test_thing", PriorState: null, PlannedState: c, Config: c}); resp.Diagnostics.HasErrors() {
		t.Fatal(resp.Diagnostics.Error())
	}

	func() {
		defer func() {
			if r := recover(); r != "kaboom" {
				t.Fatalf("recovered %v", r)
			}
		}()
		c := cfg("crash", "z", 1)
		p.ApplyResourceChange(providers.ApplyResourceChangeRequest{TypeName: "test_thing", PriorState: null, PlannedState: c, Config: c})
		t.Fatal("no panic")
	}()

	if diags := p.ValidateResourceConfig(providers.ValidateResourceConfigRequest{TypeName: "nope", Config: c}).Diagnostics; !diags.HasErrors() {
		t.Fatal("unknown type accepted")
	}
}

// TestGateOrdersConcurrentCalls holds one apply at a gate while others run,
// then releases it: the recorded order shows the held call finishing last.
func TestGateOrdersConcurrentCalls(t *testing.T) {
	p := newThing()
	null := cty.NullVal(thingSchema().ImpliedType())
	gate := make(chan struct{})
	entered := make(chan Call, 1)
	p.Inject(&Fault{Method: ApplyResourceChange, Key: "slow", Gate: gate, Entered: entered})

	var wg sync.WaitGroup
	done := make(chan string, 10)
	run := func(name string) {
		defer wg.Done()
		c := cfg(name, "z", 1)
		r := p.ApplyResourceChange(providers.ApplyResourceChangeRequest{TypeName: "test_thing", PriorState: null, PlannedState: c, Config: c})
		if r.Diagnostics.HasErrors() {
			t.Error(r.Diagnostics.Error())
		}
		done <- name
	}
	wg.Add(1)
	go run("slow")
	<-entered
	for i := range 8 {
		wg.Add(1)
		go run(fmt.Sprintf("fast%d", i))
	}
	for range 8 {
		if n := <-done; n == "slow" {
			t.Fatal("gated call finished before release")
		}
	}
	close(gate)
	if n := <-done; n != "slow" {
		t.Fatalf("got %s", n)
	}
	wg.Wait()
	if got := len(p.CallsOf(ApplyResourceChange)); got != 9 {
		t.Fatalf("%d calls recorded", got)
	}
	ids := map[string]bool{}
	for _, c := range p.CallsOf(ApplyResourceChange) {
		if ids[c.Key] {
			t.Fatalf("duplicate key %s", c.Key)
		}
		ids[c.Key] = true
	}
}

func TestStopReleasesGate(t *testing.T) {
	p := newThing()
	entered := make(chan Call, 1)
	p.Inject(&Fault{Method: ReadResource, Gate: make(chan struct{}), Entered: entered})
	s := cfg("a", "z", 1)
	res := make(chan providers.ReadResourceResponse)
	go func() { res <- p.ReadResource(providers.ReadResourceRequest{TypeName: "test_thing", PriorState: s}) }()
	<-entered
	if err := p.Stop(); err != nil {
		t.Fatal(err)
	}
	if r := <-res; !r.Diagnostics.HasErrors() {
		t.Fatal("stopped call did not fail")
	}
}

func TestImportUpgradeDataSource(t *testing.T) {
	p := newThing()
	p.Schema.DataSources["test_data"] = providers.Schema{Block: &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"q":   {Type: cty.String, Required: true},
		"out": {Type: cty.String, Computed: true},
	}}}
	ir := p.ImportResourceState(providers.ImportResourceStateRequest{TypeName: "test_thing", ID: "i-9"})
	if ir.Diagnostics.HasErrors() || len(ir.ImportedResources) != 1 || ir.ImportedResources[0].State.GetAttr("id") != cty.StringVal("i-9") {
		t.Fatalf("import: %#v", ir)
	}
	ur := p.UpgradeResourceState(providers.UpgradeResourceStateRequest{TypeName: "test_thing", RawStateJSON: []byte(`{"name":"a","id":"x"}`)})
	if ur.Diagnostics.HasErrors() || ur.UpgradedState.GetAttr("id") != cty.StringVal("x") {
		t.Fatalf("upgrade: %#v", ur)
	}
	dr := p.ReadDataSource(providers.ReadDataSourceRequest{TypeName: "test_data", Config: cty.ObjectVal(map[string]cty.Value{
		"q": cty.StringVal("k"), "out": cty.NullVal(cty.String)})})
	if dr.Diagnostics.HasErrors() || !dr.State.IsWhollyKnown() || dr.State.GetAttr("out").IsNull() {
		t.Fatalf("data: %#v", dr)
	}
}
