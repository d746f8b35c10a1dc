package funcs

import (
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"
)

func TestTimestamp(t *testing.T) {
	before := time.Now().UTC().Truncate(time.Second)
	got, err := TimestampFunc.Call(nil)
	if err != nil {
		t.Fatal(err)
	}
	after := time.Now().UTC()
	ts, err := time.Parse(time.RFC3339, got.AsString())
	if err != nil {
		t.Fatalf("not RFC 3339: %q: %s", got.AsString(), err)
	}
	if ts.Before(before) || ts.After(after) {
		t.Errorf("timestamp %s outside [%s, %s]", ts, before, after)
	}
	if ts.Location() != time.UTC {
		t.Errorf("timestamp %q is not UTC", got.AsString())
	}
}

func TestTimeCmp(t *testing.T) {
	s := cty.StringVal
	n := cty.NumberIntVal
	runCases(t, TimeCmpFunc, []callCase{
		{name: "same", args: []cty.Value{s("2017-11-22T00:00:00Z"), s("2017-11-22T00:00:00Z")}, want: n(0)},
		{name: "earlier", args: []cty.Value{s("2017-11-22T00:00:00Z"), s("2017-11-22T01:00:00Z")}, want: n(-1)},
		{name: "later", args: []cty.Value{s("2017-11-22T01:00:00Z"), s("2017-11-22T00:00:00Z")}, want: n(1)},
		{name: "offsets", args: []cty.Value{s("2017-11-22T01:00:00Z"), s("2017-11-22T00:00:00-01:00")}, want: n(0)},
		{name: "fraction", args: []cty.Value{s("2017-11-22T00:00:00.5Z"), s("2017-11-22T00:00:00Z")}, want: n(1)},
		{name: "unknown", args: []cty.Value{cty.UnknownVal(cty.String), s("2017-11-22T00:00:00Z")}, want: cty.UnknownVal(cty.Number)},
		{name: "sensitive", args: []cty.Value{sens(s("2017-11-22T00:00:00Z")), s("2018-01-01T00:00:00Z")}, want: sens(n(-1))},
		{name: "null", args: []cty.Value{cty.NullVal(cty.String), s("2017-11-22T00:00:00Z")}, err: "must not be null"},
		{name: "not RFC 3339", args: []cty.Value{s("2017-11-22"), s("2017-11-22T00:00:00Z")}, err: "not a valid RFC 3339 timestamp"},
		{name: "second bad", args: []cty.Value{s("2017-11-22T00:00:00Z"), s("yesterday")}, err: "not a valid RFC 3339 timestamp"},
		{name: "sensitive bad not quoted", args: []cty.Value{sens(s("secret-ish")), s("2017-11-22T00:00:00Z")}, err: "not a valid"},
	})
	// An unknown result is still known to be in [-1, 1].
	got, err := TimeCmpFunc.Call([]cty.Value{cty.UnknownVal(cty.String), cty.StringVal("2017-11-22T00:00:00Z")})
	if err != nil {
		t.Fatal(err)
	}
	if lt := got.LessThan(cty.NumberIntVal(2)); !lt.IsKnown() || lt.False() {
		t.Errorf("unknown timecmp result is not refined to at most 1: %#v", got)
	}
}

func TestPlanTimestamp(t *testing.T) {
	planTime := time.Date(2024, 8, 16, 12, 45, 5, 999, time.FixedZone("x", 3600))
	runCases(t, MakePlanTimestampFunc(planTime), []callCase{
		{name: "plan time in UTC", want: cty.StringVal("2024-08-16T11:45:05Z")},
	})
	runCases(t, MakePlanTimestampFunc(time.Time{}), []callCase{
		{name: "no plan: unknown", want: cty.UnknownVal(cty.String)},
	})
	// Same input, same value: plan and apply agree.
	a, _ := MakePlanTimestampFunc(planTime).Call(nil)
	b, _ := MakePlanTimestampFunc(planTime).Call(nil)
	if !a.RawEquals(b) {
		t.Errorf("plantimestamp differs between calls: %#v, %#v", a, b)
	}
}
