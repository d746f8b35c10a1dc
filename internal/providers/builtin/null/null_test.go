package null

import (
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/internal/providers/builtin/internal/lifecycle"
	"github.com/plankit/plankit/providers"
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

// TestNullDataSource: the deprecated null_data_source the real provider
// still ships; a configuration reading it must keep working.
func TestNullDataSource(t *testing.T) {
	p := New()
	sch, ok := p.GetProviderSchema().DataSources["null_data_source"]
	if !ok {
		t.Fatal("no null_data_source")
	}
	tests := []struct {
		name, src   string
		wantOut     cty.Value
		wantDefault string
	}{
		{"inputs copied, default filled", `inputs = { a = "1" }`, cty.MapVal(map[string]cty.Value{"a": cty.StringVal("1")}), "default"},
		{"explicit default kept", `has_computed_default = "x"`, cty.NullVal(cty.Map(cty.String)), "x"},
	}
	for _, tt := range tests {
		cfg, diags := lifecycle.DecodeHCL(sch.Block, tt.src)
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		resp := p.ReadDataSource(providers.ReadDataSourceRequest{TypeName: "null_data_source", Config: cfg})
		if resp.Diagnostics.HasErrors() {
			t.Fatal(resp.Diagnostics.Error())
		}
		st := resp.State
		if !st.GetAttr("outputs").RawEquals(tt.wantOut) || st.GetAttr("has_computed_default").AsString() != tt.wantDefault ||
			st.GetAttr("id").AsString() != "static" || !regexp.MustCompile(`^[0-9]+$`).MatchString(st.GetAttr("random").AsString()) {
			t.Errorf("%s: %#v", tt.name, st)
		}
		if d := sch.Block.ValidateValue(st); d.HasErrors() {
			t.Errorf("%s: %s", tt.name, d.Error())
		}
	}
}

// TestNullResourceTriggersNullValues follows the real provider's
// RequiresReplaceIfValuesNotNull on triggers: only adding, changing or
// removing a non-null value replaces.
func TestNullResourceTriggersNullValues(t *testing.T) {
	tests := []struct {
		from, to string
		replace  bool
	}{
		{`triggers = {}`, `triggers = { key = null }`, false},
		{``, `triggers = { key = null }`, false},
		{``, `triggers = { a = null, b = null }`, false},
		{`triggers = { key = null }`, `triggers = { key = null }`, false},
		{`triggers = {}`, `triggers = { key = "123" }`, true},
		{``, `triggers = { key = "123" }`, true},
		{`triggers = { key = null }`, `triggers = { key = "123" }`, true},
		{`triggers = { key = "123" }`, `triggers = { key = null }`, true},
		{`triggers = { key = "123" }`, `triggers = {}`, true},
		{`triggers = { key = "123" }`, ``, true},
		{`triggers = { key = "123" }`, `triggers = { key = "456" }`, true},
	}
	for _, tt := range tests {
		h := lifecycle.New(t, New(), "null_resource")
		s := h.Create(h.Config(tt.from))
		pl := h.Plan(s, h.Config(tt.to))
		if got := len(pl.RequiresReplace) > 0; got != tt.replace {
			t.Errorf("%q -> %q: replace = %v, want %v", tt.from, tt.to, got, tt.replace)
			continue
		}
		if !tt.replace && !pl.PlannedState.GetAttr("id").RawEquals(s.GetAttr("id")) {
			t.Errorf("%q -> %q: an update in place changed the id", tt.from, tt.to)
		}
	}
}
