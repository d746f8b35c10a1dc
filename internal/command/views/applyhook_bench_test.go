package views

import (
	"io"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/plans"
)

// BenchmarkApplyHookCreate is the human progress output's cost per
// created instance: PreApply ("Creating...") and PostApply ("Creation
// complete after 0s [id=...]") into the batched writer apply uses.
func BenchmarkApplyHookCreate(b *testing.B) {
	const n = 4096
	addrsN := make([]addrs.AbsResourceInstance, n)
	for i := range addrsN {
		addrsN[i] = addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: "r"}.Instance(addrs.IntKey(i)).Absolute(addrs.RootModuleInstance)
	}
	obj := cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("14ad625c-0318-99c3-9f5f-36870091d0cd"), "input": cty.NullVal(cty.String)})
	prior := cty.NullVal(obj.Type())
	bw := NewBatchWriter(io.Discard, 50*time.Millisecond)
	h := NewApplyHook(bw, nil)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		addr := addrsN[i%n]
		i++
		h.PreApply(addr, addrs.NotDeposed, plans.Create, prior, obj)
		h.PostApply(addr, addrs.NotDeposed, obj, nil)
	}
	bw.Flush()
}
