package plans

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/msgpack"

	"github.com/plankit/plankit/addrs"
)

// TestNoOpEncodedOnce: a no-op's after value shares the before value's
// encoding, which is what encoding it separately gives; other actions, and
// no-ops whose values differ, encode both.
func TestNoOpEncodedOnce(t *testing.T) {
	v := cty.ObjectVal(map[string]cty.Value{
		"id":   cty.StringVal("x"),
		"n":    cty.NumberFloatVal(1.5),
		"tags": cty.MapVal(map[string]cty.Value{"b": cty.StringVal("2"), "a": cty.StringVal("1")}),
		"set":  cty.SetVal([]cty.Value{cty.NumberIntVal(3), cty.NumberIntVal(1)}),
		"dyn":  cty.NullVal(cty.DynamicPseudoType),
	})
	other := cty.ObjectVal(map[string]cty.Value{
		"id": cty.StringVal("y"), "n": cty.NumberFloatVal(1.5), "tags": v.GetAttr("tags"), "set": v.GetAttr("set"), "dyn": v.GetAttr("dyn"),
	})
	want, err := msgpack.Marshal(v, v.Type())
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name   string
		c      Change
		shared bool
	}{
		{"no-op", Change{Action: NoOp, Before: v, After: v}, true},
		{"no-op, equal values built apart", Change{Action: NoOp, Before: v, After: cty.ObjectVal(v.AsValueMap())}, true},
		{"no-op, different values", Change{Action: NoOp, Before: v, After: other}, false},
		{"update", Change{Action: Update, Before: v, After: v}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := &encoder{types: newTypeTable()}
			pc, err := e.change(&tt.c)
			if err != nil {
				t.Fatal(err)
			}
			if (pc.After == pc.Before) != tt.shared {
				t.Fatalf("after shares before's encoding: %v, want %v", pc.After == pc.Before, tt.shared)
			}
			if !bytes.Equal(pc.Before.Msgpack, want) {
				t.Fatal("before value encoded wrongly")
			}
			wantAfter, _ := msgpack.Marshal(tt.c.After, tt.c.After.Type())
			if !bytes.Equal(pc.After.Msgpack, wantAfter) || pc.After.Type != pc.Before.Type {
				t.Fatal("after value's bytes differ from its own encoding")
			}
		})
	}
}

// BenchmarkMarshalNoOps encodes 10,000 no-op changes, as a re-plan of an
// unchanged configuration writes them.
func BenchmarkMarshalNoOps(b *testing.B) {
	p := &Plan{Changes: NewChanges()}
	p.Changes.Resources = largeNoOps(10_000)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Marshal(p, ""); err != nil {
			b.Fatal(err)
		}
	}
}

// largeNoOps is n no-op changes of terraform_data-like objects.
func largeNoOps(n int) []*ResourceInstanceChange {
	out := make([]*ResourceInstanceChange, n)
	prov := addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}
	for i := range n {
		addr := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: "r"}.Instance(addrs.IntKey(i)).Absolute(nil)
		v := cty.ObjectVal(map[string]cty.Value{
			"id":               cty.StringVal(fmt.Sprintf("%08d-0057-4ffb-5118-9bcf2b5be71c", i)),
			"input":            cty.StringVal(fmt.Sprint("v", i)),
			"output":           cty.StringVal(fmt.Sprint("v", i)),
			"triggers_replace": cty.NullVal(cty.DynamicPseudoType),
		})
		out[i] = &ResourceInstanceChange{Addr: addr, PrevRunAddr: addr, ProviderAddr: prov, Change: Change{Action: NoOp, Before: v, After: v}}
	}
	return out
}
