package terraform

import (
	"testing"

	"github.com/google/go-cmp/cmp"
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
