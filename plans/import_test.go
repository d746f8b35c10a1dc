package plans

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
)

// TestImportIsAChange: a no-op that imports an object makes the changes
// non-empty (the plan is applyable: applying it writes the object).
func TestImportIsAChange(t *testing.T) {
	a := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "t_x", Name: "a"}.Instance(addrs.NoKey).Absolute(nil)
	obj := cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("x")})
	rc := &ResourceInstanceChange{Addr: a, PrevRunAddr: a, Change: Change{Action: NoOp, Before: obj, After: obj}}
	c := &Changes{Resources: []*ResourceInstanceChange{rc}}
	if !c.Empty() {
		t.Fatal("a plain no-op is a change")
	}
	rc.Importing = &Importing{ID: "x"}
	if c.Empty() {
		t.Error("a no-op that imports is not a change")
	}
}
