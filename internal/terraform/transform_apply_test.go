package terraform

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/states"
)

// TestApplyStateDependencies: each object records every resource it
// depends on, directly, through locals (one shared local included) and
// through other resources, as OpenTofu records them.
func TestApplyStateDependencies(t *testing.T) {
	st, diags, _ := planApply(t, newTestProvider(), map[string]string{"main.tf": `
resource "test_thing" "a" { name = "a" }
resource "test_thing" "b" { name = test_thing.a.id }
resource "test_thing" "c" { name = "c" }
locals {
  both = [test_thing.b.id, test_thing.c.id]
  more = concat(local.both, [test_thing.c.id])
}
resource "test_thing" "d" { name = join(",", local.both) }
resource "test_thing" "e" { name = "${length(local.more)}${test_thing.a.id}" }
`}, nil, nil, 0)
	if diags != "" {
		t.Fatal(diags)
	}
	want := map[string][]string{
		"test_thing.a": nil, "test_thing.b": {"test_thing.a"}, "test_thing.c": nil,
		"test_thing.d": {"test_thing.a", "test_thing.b", "test_thing.c"}, "test_thing.e": {"test_thing.a", "test_thing.b", "test_thing.c"},
	}
	got := map[string][]string{}
	for _, a := range st.AllResourceInstances() {
		var deps []string
		for _, d := range st.ResourceInstance(a).Current.Dependencies {
			deps = append(deps, d.String())
		}
		got[a.String()] = deps
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("dependencies (-want +got):\n%s", d)
	}
}

// TestApplyStateForcedCreateBeforeDestroy: the state records
// create_before_destroy on the objects a create-before-destroy dependent
// forces it on (directly or through another resource), as OpenTofu
// does, so later destroys keep the order after the dependent is gone; an
// explicit create_before_destroy = false is kept.
func TestApplyStateForcedCreateBeforeDestroy(t *testing.T) {
	st, diags, _ := planApply(t, newTestProvider(), map[string]string{"main.tf": `
resource "test_thing" "base" { name = "base" }
resource "test_thing" "mid" { name = test_thing.base.id }
resource "test_thing" "top" {
  name = test_thing.mid.id
  lifecycle { create_before_destroy = true }
}
resource "test_thing" "alone" { name = "alone" }
resource "test_thing" "off" {
  name = "off"
  lifecycle { create_before_destroy = false }
}
resource "test_thing" "user" {
  name = test_thing.off.id
  lifecycle { create_before_destroy = true }
}
`}, nil, nil, 0)
	if diags != "" {
		t.Fatal(diags)
	}
	got := map[string]bool{}
	for _, a := range st.AllResourceInstances() {
		got[a.String()] = st.ResourceInstance(a).Current.CreateBeforeDestroy
	}
	want := map[string]bool{
		"test_thing.base": true, "test_thing.mid": true, "test_thing.top": true,
		"test_thing.alone": false, "test_thing.off": false, "test_thing.user": true,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("create_before_destroy (-want +got):\n%s", d)
	}
}

// TestPlanRecordsDependencies: the plan's prior state (what an apply
// persists for the objects it leaves alone) records, as OpenTofu's
// does, the configuration's dependencies and create_before_destroy for
// an object with no change, and the configuration's joined with the
// recorded ones for an object that changes (the recorded ones still order
// this apply); an object whose record agrees is left as it was read.
func TestPlanRecordsDependencies(t *testing.T) {
	st := thingState(t, map[string]string{
		"test_thing.a":     `{"id":"a","name":"a"}`,
		"test_thing.b":     `{"id":"b","name":"a"}`,
		"test_thing.c":     `{"id":"c","name":"b"}`,
		"test_thing.d":     `{"id":"d","name":"old"}`,
		"test_thing.gone":  `{"id":"gone"}`,
		"test_thing.right": `{"id":"right","name":"a"}`,
	})
	dep := func(names ...string) []addrs.ConfigResource {
		var out []addrs.ConfigResource
		for _, n := range names {
			out = append(out, mustInstance(t, "test_thing."+n).ConfigResource())
		}
		return out
	}
	obj := func(n string) *states.ResourceInstanceObjectSrc {
		return st.ResourceInstance(mustInstance(t, "test_thing."+n)).Current
	}
	obj("c").Dependencies = dep("b")     // direct only, as older records have it
	obj("d").Dependencies = dep("gone")  // a dependency the configuration dropped
	obj("right").Dependencies = dep("a") // already what the configuration says
	obj("gone").CreateBeforeDestroy, obj("a").CreateBeforeDestroy = false, false
	p := newTestProvider()
	c := testContext(t, p, 0)
	cfg := loadConfig(t, map[string]string{"main.tf": `
resource "test_thing" "a" { name = "a" }
resource "test_thing" "b" { name = test_thing.a.id }
resource "test_thing" "c" {
  name = test_thing.b.id
  lifecycle { create_before_destroy = true }
}
resource "test_thing" "d" { name = "new-${test_thing.a.id}" }
resource "test_thing" "right" { name = test_thing.a.id }
`})
	rightBefore := obj("right")
	plan := mustPlan(t, c, cfg, st, nil)
	type rec struct {
		Deps []string
		CBD  bool
	}
	got := map[string]rec{}
	for _, a := range plan.PriorState.AllResourceInstances() {
		o := plan.PriorState.ResourceInstance(a).Current
		r := rec{CBD: o.CreateBeforeDestroy}
		for _, d := range o.Dependencies {
			r.Deps = append(r.Deps, d.String())
		}
		got[a.String()] = r
	}
	want := map[string]rec{
		"test_thing.a":     {CBD: true},
		"test_thing.b":     {Deps: []string{"test_thing.a"}, CBD: true},
		"test_thing.c":     {Deps: []string{"test_thing.a", "test_thing.b"}, CBD: true},
		"test_thing.d":     {Deps: []string{"test_thing.a", "test_thing.gone"}},
		"test_thing.gone":  {},
		"test_thing.right": {Deps: []string{"test_thing.a"}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("prior state records (-want +got):\n%s", d)
	}
	if plan.PriorState.ResourceInstance(mustInstance(t, "test_thing.right")).Current != rightBefore {
		t.Errorf("an object whose record agreed was written again")
	}
}
