package render

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers/configschema"
)

// TestListPairing: changes inside list nested blocks and lists of objects
// pair as Terraform pairs them — unchanged elements by their longest
// common subsequence, a changed element shown in place as "~ { ... }"
// with its changed attributes, not as a removal plus an addition.
func TestListPairing(t *testing.T) {
	rule := func(port int64) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(port), "proto": cty.StringVal("tcp")})
	}
	rules := func(ports ...int64) cty.Value {
		var vs []cty.Value
		for _, p := range ports {
			vs = append(vs, rule(p))
		}
		return cty.ListVal(vs)
	}
	schema := &configschema.Block{
		Attributes: map[string]*configschema.Attribute{
			"objs": {Type: cty.List(cty.Object(map[string]cty.Type{"port": cty.Number, "proto": cty.String})), Optional: true},
		},
		BlockTypes: map[string]*configschema.NestedBlock{
			"rule": {Nesting: configschema.NestingList, Block: configschema.Block{Attributes: map[string]*configschema.Attribute{
				"port": {Type: cty.Number, Required: true}, "proto": {Type: cty.String, Optional: true},
			}}},
		},
	}
	obj := func(blocks, objs cty.Value) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"rule": blocks, "objs": objs})
	}
	tests := []struct {
		name          string
		before, after cty.Value
		want          string
	}{
		{
			name:   "a changed block is updated in place",
			before: obj(rules(80, 443), rules(1)),
			after:  obj(rules(80, 8443), rules(1)),
			want: `  # x.y will be updated in-place
  ~ resource "x" "y" {
        # (1 unchanged attribute hidden)

      ~ rule {
          ~ port  = 443 -> 8443
            # (1 unchanged attribute hidden)
        }

        # (1 unchanged block hidden)
    }
`,
		},
		{
			name:   "a removed block in the middle is removed, the rest kept",
			before: obj(rules(80, 443, 22), rules(1)),
			after:  obj(rules(80, 22), rules(1)),
			want: `  # x.y will be updated in-place
  ~ resource "x" "y" {
        # (1 unchanged attribute hidden)

      - rule {
          - port  = 443 -> null
          - proto = "tcp" -> null
        }

        # (2 unchanged blocks hidden)
    }
`,
		},
		{
			name:   "a changed object in a list attribute is updated in place",
			before: obj(rules(80), rules(1, 2)),
			after:  obj(rules(80), rules(1, 3)),
			want: `  # x.y will be updated in-place
  ~ resource "x" "y" {
      ~ objs = [
            # (1 unchanged element hidden)
          ~ {
              ~ port  = 2 -> 3
                # (1 unchanged attribute hidden)
            },
        ]

        # (1 unchanged block hidden)
    }
`,
		},
	}
	for _, tt := range tests {
		rc := change(inst("x", "y", nil), plans.Update, tt.before, tt.after)
		got := ResourceChange(rc, schema, false, false)
		if d := cmp.Diff(tt.want, got); d != "" {
			t.Errorf("%s (-want +got):\n%s\ngot:\n%s", tt.name, d, strings.TrimRight(got, "\n"))
		}
	}
}
