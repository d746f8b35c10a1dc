package tfdiags

import (
	"errors"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

func TestWithPathRoundTrip(t *testing.T) {
	d := WithPath(Error("bad", "worse"), cty.GetAttrPath("content"))
	got := AttributePath(d)
	if !got.Equals(cty.GetAttrPath("content")) {
		t.Fatalf("path = %#v", got)
	}
	if AttributePath(Error("x", "y")) != nil {
		t.Fatal("diagnostic without path reported one")
	}
}

func TestFromError(t *testing.T) {
	if FromError("s", nil) != nil {
		t.Fatal("nil error gave diagnostics")
	}
	ds := FromError("Reading state", errors.New("boom"))
	if len(ds) != 1 || ds[0].Summary != "Reading state" || ds[0].Detail != "boom" {
		t.Fatalf("got %v", ds)
	}
	inner := hcl.Diagnostics{Error("a", "b")}
	if got := FromError("s", inner); len(got) != 1 || got[0].Summary != "a" {
		t.Fatalf("wrapped diagnostics not unwrapped: %v", got)
	}
	if Err(hcl.Diagnostics{Warning("w", "")}) != nil || Err(inner) == nil {
		t.Fatal("Err misreports severity")
	}
}
