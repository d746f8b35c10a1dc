package command

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/states"
)

// TestPlanMoves: what state mv moves for each kind of address, and what
// it refuses without changing anything.
func TestPlanMoves(t *testing.T) {
	st := states.NewState()
	provider := addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("null")}
	for _, s := range []string{`null_resource.a`, `null_resource.c[0]`, `null_resource.c[1]`, `module.m.null_resource.x`, `module.m.module.n.null_resource.y`, `null_resource.taken`} {
		a, ds := addrs.ParseAbsResourceInstanceStr(s)
		if ds.HasErrors() {
			t.Fatal(ds)
		}
		st.SetResourceInstanceCurrent(a, &states.ResourceInstanceObjectSrc{AttrsJSON: []byte(`{"id":"1"}`)}, provider)
	}
	tests := []struct {
		from, to string
		want     []string // "from -> to"
		err      string
	}{
		{"null_resource.a", "null_resource.b", []string{"null_resource.a -> null_resource.b"}, ""},
		{"null_resource.a", "null_resource.b[0]", []string{"null_resource.a -> null_resource.b[0]"}, ""},
		{"null_resource.c", "null_resource.d", []string{"null_resource.c[0] -> null_resource.d[0]", "null_resource.c[1] -> null_resource.d[1]"}, ""},
		{"null_resource.c[1]", "module.k.null_resource.c", []string{"null_resource.c[1] -> module.k.null_resource.c"}, ""},
		{"module.m", "module.k[0]", []string{"module.m.null_resource.x -> module.k[0].null_resource.x", "module.m.module.n.null_resource.y -> module.k[0].module.n.null_resource.y"}, ""},
		{"null_resource.a", "null_resource.taken", nil, "already exists"},
		{"null_resource.a", "random_id.a", nil, "resource types don't match"},
		{"null_resource.nope", "null_resource.b", nil, "there is no null_resource.nope"},
		{"module.m", "null_resource.b", nil, "only to another module instance"},
		{"null_resource.c", "null_resource.taken", nil, "already exists"},
	}
	for _, tt := range tests {
		from, _ := parseStateAddr(tt.from)
		to, _ := parseStateAddr(tt.to)
		moves, diags := planMoves(st, from, to)
		if tt.err != "" {
			if !diags.HasErrors() || !strings.Contains(diags[0].Detail, tt.err) {
				t.Errorf("mv %s %s: %v, want an error with %q", tt.from, tt.to, diags, tt.err)
			}
			continue
		}
		if diags.HasErrors() {
			t.Errorf("mv %s %s: %v", tt.from, tt.to, diags)
			continue
		}
		var got []string
		for _, mv := range moves {
			got = append(got, mv[0].String()+" -> "+mv[1].String())
		}
		if d := cmp.Diff(tt.want, got); d != "" {
			t.Errorf("mv %s %s (-want +got):\n%s", tt.from, tt.to, d)
		}
	}
}
