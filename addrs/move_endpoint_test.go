package addrs

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

func TestParseMoveEndpoint(t *testing.T) {
	tests := []struct {
		in, other string
		kind      MoveEndpointKind // after unifying with other
		str       string
		wantErr   string
	}{
		{in: "null_resource.a", other: "null_resource.b", kind: MoveResource, str: "null_resource.a"},
		{in: "null_resource.a", other: "null_resource.b[0]", kind: MoveResourceInstance, str: "null_resource.a"},
		{in: `null_resource.a["k"]`, other: "null_resource.b", kind: MoveResourceInstance, str: `null_resource.a["k"]`},
		{in: `module.m[1].module.n.null_resource.a`, other: "null_resource.b", kind: MoveResource, str: `module.m[1].module.n.null_resource.a`},
		{in: "module.a", other: "module.b", kind: MoveModuleCall, str: "module.a"},
		{in: "module.a", other: "module.b[2]", kind: MoveModuleInstance, str: "module.a"},
		{in: `module.a["x"]`, other: "module.b", kind: MoveModuleInstance, str: `module.a["x"]`},
		{in: "module.a", other: "null_resource.b", wantErr: "unify"},
		{in: "data.x.y", wantErr: "Data sources cannot be moved"},
		{in: "null_resource", wantErr: "needs a type and a name"},
		{in: "null_resource.a.b", wantErr: "Only an instance key"},
		{in: "null_resource.a[0][1]", wantErr: "Unexpected extra parts"},
	}
	parse := func(s string) (*MoveEndpoint, hcl.Diagnostics) {
		trav, diags := hclsyntax.ParseTraversalAbs([]byte(s), "main.tf", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatalf("%s: %s", s, diags.Error())
		}
		return ParseMoveEndpoint(trav)
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			e, diags := parse(tc.in)
			if tc.wantErr != "" && tc.wantErr != "unify" {
				if !diags.HasErrors() || !strings.Contains(diags.Error(), tc.wantErr) {
					t.Fatalf("diagnostics %v, want %q", diags, tc.wantErr)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			o, diags := parse(tc.other)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			f, _, ok := UnifyMoveEndpoints(*e, *o)
			if tc.wantErr == "unify" {
				if ok {
					t.Fatalf("%s and %s unified", tc.in, tc.other)
				}
				return
			}
			if !ok || f.Kind != tc.kind || f.String() != tc.str {
				t.Errorf("unified %s = kind %d %q (ok %v), want kind %d %q", tc.in, f.Kind, f.String(), ok, tc.kind, tc.str)
			}
		})
	}
}

// FuzzParseMoveEndpoint: any traversal parses or gives diagnostics, never
// a panic, and a parsed endpoint prints as an address that parses back to
// the same endpoint.
func FuzzParseMoveEndpoint(f *testing.F) {
	for _, s := range []string{"null_resource.a", `module.a["x"].null_resource.b[3]`, "module.a", "data.a.b", "a", `module.m[0]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		trav, diags := hclsyntax.ParseTraversalAbs([]byte(s), "f.tf", hcl.InitialPos)
		if diags.HasErrors() {
			return
		}
		e, diags := ParseMoveEndpoint(trav)
		if diags.HasErrors() {
			return
		}
		trav2, d2 := hclsyntax.ParseTraversalAbs([]byte(e.String()), "f.tf", hcl.InitialPos)
		if d2.HasErrors() {
			t.Fatalf("%q printed as %q, which does not parse: %s", s, e.String(), d2.Error())
		}
		e2, d2 := ParseMoveEndpoint(trav2)
		if d2.HasErrors() || e2.String() != e.String() || e2.Kind != e.Kind {
			t.Fatalf("%q -> %q -> %+v", s, e.String(), e2)
		}
	})
}
