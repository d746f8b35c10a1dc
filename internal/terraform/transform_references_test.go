package terraform

import (
	"context"
	"encoding/json"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/addrs"
)

// TestReferencedResources checks which resource nodes of an apply graph
// are marked referenced (their values kept for expressions during the
// apply) and that the apply still evaluates every reference, whether
// through a resource, a local, an output or a module output.
func TestReferencedResources(t *testing.T) {
	files := map[string]string{
		"main.tf": `
resource "test_thing" "a" { name = "a" }
resource "test_thing" "b" { name = "b-${test_thing.a.id}" }
resource "test_thing" "c" { name = "c" }
resource "test_thing" "d" { name = "d" }
resource "test_thing" "e" {
  name       = "e"
  depends_on = [test_thing.f]
}
resource "test_thing" "f" { name = "f" }
resource "test_thing" "alone" {
  count = 3
  name  = "alone${count.index}"
}
locals { d = "from-${test_thing.d.id}" }
resource "test_thing" "g" { name = local.d }
output "c" { value = test_thing.c.name }
module "m" { source = "./m" }
output "m" { value = module.m.v }`,
		"m/main.tf": `
resource "test_thing" "x" { name = "x" }
output "v" { value = test_thing.x.name }`,
	}
	p := newTestProvider()
	cfg := loadConfig(t, files)
	c := testContext(t, p, 4)
	plan := mustPlan(t, c, cfg, nil, nil)
	schemas, diags := c.schemasFor(neededProviders(cfg, plan.PriorState))
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	g, diags := applyBuilder(&buildInput{config: cfg, schemas: schemas, state: plan.PriorState}, plan).Build()
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	var referenced []string
	for _, n := range g.Vertices() {
		if r, ok := n.(*nodeResource); ok && r.referenced {
			referenced = append(referenced, r.Name())
		}
	}
	sort.Strings(referenced)
	want := []string{"module.m.test_thing.x", "test_thing.a", "test_thing.c", "test_thing.d", "test_thing.f"}
	if d := cmp.Diff(want, referenced); d != "" {
		t.Errorf("referenced (-want +got):\n%s", d)
	}
	st, diags := c.Apply(context.Background(), plan, cfg, nil)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	outs := map[string]string{}
	for name, o := range st.RootOutputValues() {
		outs[name] = o.Value.AsString()
	}
	if d := cmp.Diff(map[string]string{"c": "c", "m": "x"}, outs); d != "" {
		t.Errorf("outputs (-want +got):\n%s", d)
	}
	if got := len(stateNames(st)); got != 11 {
		t.Errorf("state has %d instances, want 11: %v", got, stateNames(st))
	}
	attr := func(addr, name string) string {
		t.Helper()
		a, d := addrs.ParseAbsResourceInstanceStr(addr)
		if d.HasErrors() {
			t.Fatal(d.Error())
		}
		ri := st.ResourceInstance(a)
		if ri == nil || ri.Current == nil {
			t.Fatalf("%s not in the state", addr)
		}
		var m map[string]any
		if err := json.Unmarshal(ri.Current.AttrsJSON, &m); err != nil {
			t.Fatal(err)
		}
		s, _ := m[name].(string)
		return s
	}
	if attr("test_thing.a", "id") == "" || attr("test_thing.d", "id") == "" {
		t.Fatal("the provider gave no ids: the checks below would prove nothing")
	}
	got := map[string]string{"b": attr("test_thing.b", "name"), "g": attr("test_thing.g", "name")}
	want2 := map[string]string{"b": "b-" + attr("test_thing.a", "id"), "g": "from-" + attr("test_thing.d", "id")}
	if d := cmp.Diff(want2, got); d != "" {
		t.Errorf("names built from references (-want +got):\n%s", d)
	}
}
