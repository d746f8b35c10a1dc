package plans

import (
	"fmt"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
)

// variedChanges is n resource changes of many kinds: creates, updates
// whose values change type along the way (the type table's indexes depend
// on the order values come in), no-ops with equal and with different
// values, deletes, and nil values.
func variedChanges(n int) []*ResourceInstanceChange {
	out := make([]*ResourceInstanceChange, n)
	for i := range n {
		addr := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "t", Name: "r"}.Instance(addrs.IntKey(i)).Absolute(nil)
		var in cty.Value
		switch i % 5 {
		case 0:
			in = cty.StringVal(fmt.Sprint("v", i))
		case 1:
			in = cty.NumberIntVal(int64(i))
		case 2:
			in = cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal(fmt.Sprint(i))})
		case 3:
			in = cty.ObjectVal(map[string]cty.Value{fmt.Sprint("k", i%97): cty.True})
		default:
			in = cty.UnknownVal(cty.String).RefineNotNull()
		}
		obj := cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal(fmt.Sprint(i)), "input": in})
		c := Change{Action: Create, Before: cty.NullVal(obj.Type()), After: obj}
		switch i % 7 {
		case 1:
			c = Change{Action: NoOp, Before: obj, After: obj}
		case 2:
			c = Change{Action: NoOp, Before: obj, After: cty.ObjectVal(obj.AsValueMap())}
		case 3:
			c = Change{Action: Update, Before: obj, After: cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("x"), "input": cty.NumberIntVal(1)})}
		case 4:
			c = Change{Action: Delete, Before: obj, After: cty.NullVal(obj.Type())}
		case 5:
			c = Change{Action: NoOp, Before: cty.NilVal, After: obj}
		case 6:
			c = Change{Action: NoOp, Before: obj, After: cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("y"), "input": in})}
		}
		out[i] = &ResourceInstanceChange{Addr: addr, PrevRunAddr: addr, ProviderAddr: addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("t")}, Change: c}
	}
	return out
}

// benchMarshal encodes a plan of 100,000 varied changes.
func benchMarshal(b *testing.B) {
	p := &Plan{UIMode: NormalMode, Changes: &Changes{Resources: variedChanges(100_000)}}
	for b.Loop() {
		if _, err := Marshal(p, ""); err != nil {
			b.Fatal(err)
		}
	}
}
