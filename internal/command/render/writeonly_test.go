package render

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers/configschema"
)

// TestWriteOnlyAttributes: write-only attributes, whose values no plan
// holds, are labelled as Terraform labels them, following their block's
// creation or deletion, and are unchanged (hidden) in an update.
func TestWriteOnlyAttributes(t *testing.T) {
	schema := &configschema.Block{
		Attributes: map[string]*configschema.Attribute{
			"id":          {Type: cty.String, Computed: true},
			"value":       {Type: cty.String, Optional: true},
			"password_wo": {Type: cty.String, Optional: true, WriteOnly: true},
			"token_wo":    {Type: cty.String, Optional: true, WriteOnly: true, Sensitive: true},
		},
		BlockTypes: map[string]*configschema.NestedBlock{
			"conn": {Nesting: configschema.NestingSingle, Block: configschema.Block{Attributes: map[string]*configschema.Attribute{
				"host":   {Type: cty.String, Optional: true},
				"key_wo": {Type: cty.String, Optional: true, WriteOnly: true},
			}}},
		},
	}
	ty := schema.ImpliedType()
	obj := func(value string, conn bool) cty.Value {
		c := cty.NullVal(ty.AttributeType("conn"))
		if conn {
			c = cty.ObjectVal(map[string]cty.Value{"host": cty.StringVal("h"), "key_wo": cty.NullVal(cty.String)})
		}
		return cty.ObjectVal(map[string]cty.Value{
			"id": cty.StringVal("i"), "value": cty.StringVal(value),
			"password_wo": cty.NullVal(cty.String), "token_wo": cty.NullVal(cty.String), "conn": c,
		})
	}
	null := cty.NullVal(ty)
	addr := inst("test_thing", "a", nil)
	for name, tc := range map[string]struct {
		action        plans.Action
		before, after cty.Value
		want          string
	}{
		"create": {plans.Create, null, obj("v", true), `  # test_thing.a will be created
  + resource "test_thing" "a" {
      + id          = "i"
      + password_wo = (write-only attribute)
      + token_wo    = (sensitive, write-only attribute)
      + value       = "v"

      + conn {
          + host   = "h"
          + key_wo = (write-only attribute)
        }
    }
`},
		"update": {plans.Update, obj("v1", true), obj("v2", true), `  # test_thing.a will be updated in-place
  ~ resource "test_thing" "a" {
        id          = "i"
      ~ value       = "v1" -> "v2"
        # (2 unchanged attributes hidden)

        # (1 unchanged block hidden)
    }
`},
		"delete": {plans.Delete, obj("v", false), null, `  # test_thing.a will be destroyed
  - resource "test_thing" "a" {
      - id          = "i" -> null
      - password_wo = (write-only attribute) -> null
      - token_wo    = (sensitive, write-only attribute) -> null
      - value       = "v" -> null
    }
`},
	} {
		t.Run(name, func(t *testing.T) {
			got := ResourceChange(change(addr, tc.action, tc.before, tc.after), schema, false, false)
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("rendering (-want +got):\n%s", d)
			}
		})
	}
}
