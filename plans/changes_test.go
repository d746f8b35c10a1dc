package plans

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/addrs"
)

func inst(mod addrs.ModuleInstance, typ, name string, key addrs.InstanceKey) addrs.AbsResourceInstance {
	return addrs.Resource{Mode: addrs.ManagedResourceMode, Type: typ, Name: name}.Instance(key).Absolute(mod)
}

func TestChangesSort(t *testing.T) {
	child := addrs.RootModuleInstance.Child("a", addrs.StringKey("x"))
	data := addrs.Resource{Mode: addrs.DataResourceMode, Type: "null_data_source", Name: "d"}.Instance(addrs.NoKey).Absolute(nil)
	c := &Changes{
		Resources: []*ResourceInstanceChange{
			{Addr: inst(child, "null_resource", "a", addrs.NoKey)},
			{Addr: inst(nil, "null_resource", "b", addrs.IntKey(10)), DeposedKey: "0000000a"},
			{Addr: data},
			{Addr: inst(nil, "null_resource", "b", addrs.IntKey(10))},
			{Addr: inst(nil, "null_resource", "b", addrs.IntKey(2))},
			{Addr: inst(nil, "null_resource", "a", addrs.NoKey)},
		},
		Outputs: []*OutputChange{
			{Addr: addrs.OutputValue{Name: "z"}.Absolute(nil)},
			{Addr: addrs.OutputValue{Name: "a"}.Absolute(child)},
			{Addr: addrs.OutputValue{Name: "b"}.Absolute(nil)},
		},
	}
	c.Sort()
	var got []string
	for _, rc := range c.Resources {
		got = append(got, rc.Addr.String()+"/"+string(rc.DeposedKey))
	}
	for _, oc := range c.Outputs {
		got = append(got, oc.Addr.String())
	}
	want := []string{
		"data.null_data_source.d/", "null_resource.a/", "null_resource.b[2]/", "null_resource.b[10]/", "null_resource.b[10]/0000000a",
		`module.a["x"].null_resource.a/`,
		"output.b", "output.z", `module.a["x"].output.a`,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("order (-want +got):\n%s", d)
	}
}

func TestChangesEmpty(t *testing.T) {
	a := inst(nil, "null_resource", "a", addrs.NoKey)
	b := inst(nil, "null_resource", "b", addrs.NoKey)
	child := addrs.RootModuleInstance.Child("c", addrs.NoKey)
	tests := []struct {
		name string
		c    *Changes
		want bool
	}{
		{"nothing", NewChanges(), true},
		{"noop only", &Changes{Resources: []*ResourceInstanceChange{{Addr: a, PrevRunAddr: a}}}, true},
		{"create", &Changes{Resources: []*ResourceInstanceChange{{Addr: a, Change: Change{Action: Create}}}}, false},
		{"moved noop", &Changes{Resources: []*ResourceInstanceChange{{Addr: a, PrevRunAddr: b}}}, false},
		{"root output update", &Changes{Outputs: []*OutputChange{{Addr: addrs.OutputValue{Name: "o"}.Absolute(nil), Change: Change{Action: Update}}}}, false},
		{"child output update", &Changes{Outputs: []*OutputChange{{Addr: addrs.OutputValue{Name: "o"}.Absolute(child), Change: Change{Action: Update}}}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.c.Empty(); got != tt.want {
				t.Fatalf("Empty() = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestChangesLookup(t *testing.T) {
	a := inst(nil, "null_resource", "a", addrs.IntKey(0))
	cur := &ResourceInstanceChange{Addr: a, Change: Change{Action: Update}}
	dep := &ResourceInstanceChange{Addr: a, DeposedKey: "deadbeef", Change: Change{Action: Delete}}
	out := &OutputChange{Addr: addrs.OutputValue{Name: "o"}.Absolute(nil)}
	c := &Changes{Resources: []*ResourceInstanceChange{dep, cur}, Outputs: []*OutputChange{out}}
	if got := c.ResourceInstance(a); got != cur {
		t.Errorf("ResourceInstance = %v, want current", got)
	}
	if got := c.ResourceInstanceDeposed(a, "deadbeef"); got != dep {
		t.Errorf("ResourceInstanceDeposed = %v, want deposed", got)
	}
	if got := c.ResourceInstance(inst(nil, "null_resource", "a", addrs.IntKey(1))); got != nil {
		t.Errorf("missing instance gave %v", got)
	}
	if got := c.Output(addrs.OutputValue{Name: "o"}.Absolute(nil)); got != out {
		t.Errorf("Output = %v", got)
	}
}

func TestActionIsReplace(t *testing.T) {
	for _, a := range AllActions() {
		want := a == DeleteThenCreate || a == CreateThenDelete
		if a.IsReplace() != want {
			t.Errorf("%s.IsReplace() = %v", a, !want)
		}
		if a.String() == fmt.Sprintf("Action(%d)", rune(a)) {
			t.Errorf("action %d has no name", rune(a))
		}
	}
	for _, r := range AllReasons() {
		if r.String() == fmt.Sprintf("Reason(%d)", rune(r)) {
			t.Errorf("reason %d has no name", rune(r))
		}
	}
}
