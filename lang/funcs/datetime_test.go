package funcs

import (
	"testing"
	"time"
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
