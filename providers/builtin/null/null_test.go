package null

import (
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/providers/builtin/internal/lifecycle"
)

func TestNullResourceLifecycle(t *testing.T) {
	h := lifecycle.New(t, New(), "null_resource")
	c := h.Config(`triggers = { v = "1" }`)
	s := h.Create(c)
	if !regexp.MustCompile(`^[0-9]+$`).MatchString(s.GetAttr("id").AsString()) {
		t.Fatalf("id %q", s.GetAttr("id").AsString())
	}
	if got := h.Read(s); !got.RawEquals(s) {
		t.Fatal("read changed state")
	}
	if pl := h.Plan(s, c); len(pl.RequiresReplace) != 0 || !pl.PlannedState.RawEquals(s) {
		t.Fatal("unchanged triggers did not plan a no-op")
	}
	c2 := h.Config(`triggers = { v = "2" }`)
	pl := h.Plan(s, c2)
	if diff := cmp.Diff([]string{"triggers"}, lifecycle.ReplacePaths(pl.RequiresReplace)); diff != "" {
		t.Fatal(diff)
	}
	if pl.PlannedState.GetAttr("id").IsKnown() {
		t.Fatal("replacement keeps id")
	}
	s2 := h.Create(c2)
	if s2.GetAttr("id").RawEquals(s.GetAttr("id")) {
		t.Fatal("new object got the old id")
	}
	h.Destroy(s2)
	if d := h.Invalid(`id = "x"`); !d.HasErrors() {
		t.Fatal("configuring id accepted")
	}
	imp, diags := h.Import("123")
	if diags.HasErrors() || imp.GetAttr("id").AsString() != "123" {
		t.Fatalf("import %#v %v", imp, diags)
	}
}
