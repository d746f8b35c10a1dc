package random

import (
	"github.com/hashicorp/go-uuid"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/internal/providers/builtin/internal/framework"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
	"github.com/plankit/plankit/tfdiags"
)

func uuidSchema() *configschema.Block {
	return &configschema.Block{
		Description: "A random version 4 UUID.",
		Attributes: map[string]*configschema.Attribute{
			"keepers": keepersAttr(),
			"result":  computedString("The UUID."),
			"id":      computedString("The UUID."),
		},
	}
}

func uuidResource() *framework.Resource {
	s := uuidSchema()
	return &framework.Resource{
		Schema: providers.Schema{Version: 0, Block: s},
		Plan:   planner(s, nil),
		Apply: func(req providers.ApplyResourceChangeRequest) (cty.Value, hcl.Diagnostics) {
			u, err := uuid.GenerateUUID()
			if err != nil {
				return cty.NilVal, tfdiags.FromError("Generating UUID", err)
			}
			return framework.With(req.PlannedState, map[string]cty.Value{"result": cty.StringVal(u), "id": cty.StringVal(u)}), nil
		},
		Import: func(id string) (cty.Value, hcl.Diagnostics) {
			// Parsed and re-formatted, as the real provider does, so the
			// stored UUID is lower-case whatever the ID's case.
			b, err := uuid.ParseUUID(id)
			if err == nil {
				id, err = uuid.FormatUUID(b)
			}
			if err != nil {
				return cty.NilVal, hcl.Diagnostics{tfdiags.Errorf("Invalid import ID", "random_uuid imports by the UUID itself; %q is not a UUID: %s.", id, err)}
			}
			return cty.ObjectVal(map[string]cty.Value{
				"keepers": cty.NullVal(cty.Map(cty.String)), "result": cty.StringVal(id), "id": cty.StringVal(id),
			}), nil
		},
	}
}
