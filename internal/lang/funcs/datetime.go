package funcs

import (
	"fmt"
	"time"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// TimestampFunc returns the current UTC time in RFC 3339 form. It is
// impure: lang.Scope makes it return unknown during plan, so the value is
// chosen at apply.
var TimestampFunc = function.New(&function.Spec{
	Description:  "Returns the current UTC date and time in RFC 3339 format.",
	Params:       []function.Parameter{},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		return cty.StringVal(time.Now().UTC().Format(time.RFC3339)), nil
	},
})

// TimeCmpFunc compares two RFC 3339 timestamps as instants (UTC offsets
// taken into account): -1 when the first is earlier, 0 when they are the
// same instant, 1 when it is later.
var TimeCmpFunc = function.New(&function.Spec{
	Description: "Compares two timestamps and returns -1, 0 or 1 for earlier, the same instant, or later.",
	Params: []function.Parameter{
		{Name: "timestamp_a", Type: cty.String},
		{Name: "timestamp_b", Type: cty.String},
	},
	Type: function.StaticReturnType(cty.Number),
	RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder {
		return b.NotNull().NumberRangeInclusive(cty.NumberIntVal(-1), cty.NumberIntVal(1))
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		var ts [2]time.Time
		for i, a := range args {
			t, err := parseTimestamp(a)
			if err != nil {
				return cty.NilVal, function.NewArgError(i, err)
			}
			ts[i] = t
		}
		return cty.NumberIntVal(int64(ts[0].Compare(ts[1]))), nil
	},
})

// parseTimestamp parses an RFC 3339 timestamp. The message never quotes
// the value: the function machinery unmarks arguments before Impl runs, so
// a sensitive timestamp would leak into the diagnostic.
func parseTimestamp(v cty.Value) (time.Time, error) {
	t, err := time.Parse(time.RFC3339, v.AsString())
	if err != nil {
		return time.Time{}, fmt.Errorf("not a valid RFC 3339 timestamp; write it like \"2006-01-02T15:04:05Z\" or with an offset such as \"+02:00\"")
	}
	return t, nil
}

// MakePlanTimestampFunc builds plantimestamp: the time the plan was made,
// in UTC RFC 3339 form. The same value is used when that plan is applied,
// so it is known in both phases. A zero planTime (validation, or any
// evaluation outside a plan) gives an unknown string, as Terraform's
// validate does.
func MakePlanTimestampFunc(planTime time.Time) function.Function {
	return MakeLazyPlanTimestampFunc(func() time.Time { return planTime })
}

// MakeLazyPlanTimestampFunc is MakePlanTimestampFunc with the time asked
// of planTime at each call (never when the function is not called), so a
// caller can read the clock only if the configuration uses plantimestamp.
// A zero time gives an unknown string.
func MakeLazyPlanTimestampFunc(planTime func() time.Time) function.Function {
	return function.New(&function.Spec{
		Description:  "Returns the time of the plan being made or applied, in RFC 3339 format.",
		Params:       []function.Parameter{},
		Type:         function.StaticReturnType(cty.String),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			t := planTime()
			if t.IsZero() {
				return cty.UnknownVal(cty.String), nil
			}
			return cty.StringVal(t.UTC().Format(time.RFC3339)), nil
		},
	})
}
