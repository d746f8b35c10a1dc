package plans

import (
	"bytes"
	"fmt"
	"math"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/internal/lang/marks"
)

// withCtyEncoder runs f with plan values encoded by go-cty's own
// msgpack.Marshal, as they were before fastmsgpack.
func withCtyEncoder(f func()) {
	useCtyEncoder.Store(true)
	defer useCtyEncoder.Store(false)
	f()
}

// encoderTestValues are values of every kind a plan holds, and those
// fastmsgpack hands to go-cty (floats, big numbers, refined unknowns,
// dynamic values, values of another type than their own).
func encoderTestValues() []cty.Value {
	return []cty.Value{
		cty.NumberFloatVal(1.5), cty.MustParseNumberVal("123456789012345678901234567890.25"), cty.NumberIntVal(math.MinInt64),
		cty.StringVal("caf\u00e9"), cty.NullVal(cty.DynamicPseudoType), cty.UnknownVal(cty.DynamicPseudoType),
		cty.UnknownVal(cty.String).Refine().StringPrefix("ab").NewValue(),
		cty.UnknownVal(cty.Number).Refine().NumberRangeLowerBound(cty.Zero, true).NewValue(),
		cty.UnknownVal(cty.List(cty.String)).Refine().CollectionLengthLowerBound(1).NewValue(),
		cty.MapVal(map[string]cty.Value{"b": cty.StringVal("2"), "a": cty.NullVal(cty.String)}),
		cty.SetVal([]cty.Value{cty.NumberIntVal(300), cty.NumberIntVal(-40000)}),
		cty.TupleVal([]cty.Value{cty.True, cty.EmptyObjectVal, cty.ListValEmpty(cty.Bool)}),
		cty.ObjectVal(map[string]cty.Value{"n": cty.ObjectVal(map[string]cty.Value{"deep": cty.ListVal([]cty.Value{cty.UnknownVal(cty.Bool)})})}),
	}
}

// TestMarshalMatchesCtyEncoder: a plan's bytes are, change for change and
// value for value, the bytes it had when every value was encoded by
// go-cty's msgpack.Marshal; and a marked value is the same error.
func TestMarshalMatchesCtyEncoder(t *testing.T) {
	extra := encoderTestValues()
	mk := func(mutate func([]*ResourceInstanceChange)) *Plan {
		rcs := variedChanges(2500)
		for i, rc := range rcs {
			if i%3 == 0 {
				v := extra[i%len(extra)]
				obj := cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal(fmt.Sprint(i)), "input": v, "s": cty.StringVal(string(make([]byte, i%400)))})
				rc.Change = Change{Action: Update, Before: rc.Before, After: obj}
			}
		}
		if mutate != nil {
			mutate(rcs)
		}
		return &Plan{UIMode: NormalMode, Changes: &Changes{Resources: rcs}, DriftedResources: variedChanges(40), Applyable: true, Complete: true}
	}
	for name, mutate := range map[string]func([]*ResourceInstanceChange){
		"valid":  nil,
		"marked": func(rcs []*ResourceInstanceChange) { rcs[700].After = rcs[700].After.Mark(marks.Sensitive) },
		"nested mark": func(rcs []*ResourceInstanceChange) {
			rcs[9].After = cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("s").Mark(marks.Sensitive)})
		},
	} {
		t.Run(name, func(t *testing.T) {
			marshal := func() ([]byte, error) { return Marshal(mk(mutate), "test") }
			got, gotErr := marshal()
			var want []byte
			var wantErr error
			withCtyEncoder(func() { want, wantErr = marshal() })
			if (wantErr == nil) != (gotErr == nil) || wantErr != nil && wantErr.Error() != gotErr.Error() {
				t.Fatalf("error %v, with go-cty's encoder %v", gotErr, wantErr)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("%d bytes, with go-cty's encoder %d", len(got), len(want))
			}
			if (name == "valid") != (gotErr == nil) {
				t.Fatalf("error %v", gotErr)
			}
		})
	}
}

// BenchmarkMarshal100k and BenchmarkMarshal100kCtyEncoder encode the
// same plan with fastmsgpack and with go-cty's msgpack encoder.
// Run: go test -run '^$' -bench Marshal100k -benchmem ./plans/
func BenchmarkMarshal100k(b *testing.B) { benchMarshal(b) }

func BenchmarkMarshal100kCtyEncoder(b *testing.B) {
	withCtyEncoder(func() { benchMarshal(b) })
}
