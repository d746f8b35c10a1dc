package plans

import (
	"bytes"
	"fmt"
	"math"
	"runtime"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/lang/marks"
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

// marshalSequential is Marshal with every value encoded in order on one
// goroutine, as before values were encoded on every core.
func marshalSequential(t *testing.T, p *Plan) ([]byte, error) {
	t.Helper()
	saved := parallelEncodeMin
	parallelEncodeMin = math.MaxInt
	defer func() { parallelEncodeMin = saved }()
	return Marshal(p, "test")
}

// TestParallelEncodeIsALoop: a plan with enough changes to be encoded on
// every core gives the bytes, or the error, of the sequential encoding:
// the same type indexes, the same shared no-op encodings, the first
// failing change's error.
func TestParallelEncodeIsALoop(t *testing.T) {
	const n = 3*parallelEncodeMinDefault + 17
	tests := map[string]func(rcs []*ResourceInstanceChange){
		"valid":        func([]*ResourceInstanceChange) {},
		"marked value": func(rcs []*ResourceInstanceChange) { rcs[n-300].After = rcs[n-300].After.Mark(marks.Sensitive) },
		"two errors": func(rcs []*ResourceInstanceChange) {
			rcs[n/2].ActionReason = -1
			rcs[n-5].After = cty.StringVal("x").Mark(marks.Sensitive)
		},
		"bad action":    func(rcs []*ResourceInstanceChange) { rcs[2*encodeBatch+3].Action = Action('?') },
		"marked before": func(rcs []*ResourceInstanceChange) { rcs[10].Before = cty.StringVal("x").Mark(marks.Sensitive) },
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(2, runtime.GOMAXPROCS(0)))) // the parallel path needs two
	for name, mutate := range tests {
		t.Run(name, func(t *testing.T) {
			mk := func() *Plan {
				rcs := variedChanges(n)
				mutate(rcs)
				drift := variedChanges(parallelEncodeMinDefault + 1)
				return &Plan{UIMode: NormalMode, Changes: &Changes{Resources: rcs}, DriftedResources: drift, Applyable: true, Complete: true}
			}
			want, wantErr := marshalSequential(t, mk())
			got, gotErr := Marshal(mk(), "test")
			if (wantErr == nil) != (gotErr == nil) || wantErr != nil && wantErr.Error() != gotErr.Error() {
				t.Fatalf("error %v, sequential %v", gotErr, wantErr)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("encodings differ: %d bytes, sequential %d", len(got), len(want))
			}
			if (name == "valid") != (gotErr == nil) {
				t.Fatalf("error %v", gotErr)
			}
		})
	}
}

// BenchmarkMarshal100kSequential and BenchmarkMarshal100kParallel encode
// the same plan of 100,000 creates in one loop and on every core.
func BenchmarkMarshal100kSequential(b *testing.B) {
	saved := parallelEncodeMin
	parallelEncodeMin = math.MaxInt
	defer func() { parallelEncodeMin = saved }()
	benchMarshal(b)
}

func BenchmarkMarshal100kParallel(b *testing.B) { benchMarshal(b) }

func benchMarshal(b *testing.B) {
	p := &Plan{UIMode: NormalMode, Changes: &Changes{Resources: variedChanges(100_000)}}
	for b.Loop() {
		if _, err := Marshal(p, ""); err != nil {
			b.Fatal(err)
		}
	}
}
