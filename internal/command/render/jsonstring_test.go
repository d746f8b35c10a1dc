package render

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/plans"
)

// TestJSONStringsAsJSONEncode: a string holding a JSON object is shown as
// jsonencode(...) of its structure, created whole or diffed field by
// field; other strings (plain, JSON scalars) stay quoted strings.
func TestJSONStringsAsJSONEncode(t *testing.T) {
	schema := testSchemas()[testProvider].ResourceTypes["test_thing"].Block
	a := inst("test_thing", "a", addrs.NoKey)
	tests := []struct {
		name          string
		action        plans.Action
		before, after cty.Value
		want          string
	}{
		{
			name:   "created",
			action: plans.Create,
			before: cty.NullVal(thingType()),
			after:  thing(map[string]cty.Value{"content": cty.StringVal(`{"a":1,"b":["x"]}`), "name": cty.StringVal("5")}),
			want: `  # test_thing.a will be created
  + resource "test_thing" "a" {
      + content = jsonencode(
            {
              + a = 1
              + b = [
                  + "x",
                ]
            }
        )
      + name    = "5"
    }
`,
		},
		{
			name:   "updated",
			action: plans.Update,
			before: thing(map[string]cty.Value{"id": cty.StringVal("i"), "content": cty.StringVal(`{"a":1,"c":"same"}`)}),
			after:  thing(map[string]cty.Value{"id": cty.StringVal("i"), "content": cty.StringVal(`{"a":2,"c":"same"}`)}),
			want: `  # test_thing.a will be updated in-place
  ~ resource "test_thing" "a" {
      ~ content = jsonencode(
          ~ {
              ~ a = 1 -> 2
                # (1 unchanged attribute hidden)
            }
        )
        id      = "i"
    }
`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ResourceChange(change(a, tt.action, tt.before, tt.after), schema, false, false)
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("(-want +got):\n%s\ngot:\n%s", d, got)
			}
		})
	}
	if _, ok := jsonValue(`"just a string"`); ok {
		t.Errorf("a JSON string scalar was taken for a document")
	}
	if _, ok := jsonValue(`{not json`); ok {
		t.Errorf("invalid JSON was taken for a document")
	}
}
