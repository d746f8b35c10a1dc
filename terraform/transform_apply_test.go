package terraform

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestApplyStateDependencies: each object records the resources it
// depends on, directly or through locals (one shared local included), and
// not the resources beyond them.
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
		"test_thing.d": {"test_thing.b", "test_thing.c"}, "test_thing.e": {"test_thing.a", "test_thing.b", "test_thing.c"},
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
