package random

import (
	"encoding/base64"
	"encoding/hex"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/internal/providers/builtin/internal/framework"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
	"github.com/plankit/plankit/tfdiags"
)

// bytesSchema is random_bytes (provider 3.6.0 and later): like random_id
// but sensitive, and with no id attribute.
func bytesSchema() *configschema.Block {
	return &configschema.Block{
		Description: "Random bytes meant as a key or secret; the encodings are sensitive.",
		Attributes: map[string]*configschema.Attribute{
			"keepers": keepersAttr(),
			"length":  {Type: cty.Number, Required: true, Description: "Number of random bytes (at least 1)."},
			"base64":  {Type: cty.String, Computed: true, Sensitive: true, Description: "The bytes in standard base64 with padding."},
			"hex":     {Type: cty.String, Computed: true, Sensitive: true, Description: "The bytes in lower-case hexadecimal."},
		},
	}
}

func bytesResource() *framework.Resource {
	s := bytesSchema()
	return &framework.Resource{
		Schema: providers.Schema{Version: 0, Block: s},
		Validate: func(cfg cty.Value) hcl.Diagnostics {
			if n, ok := framework.Int(cfg.GetAttr("length")); ok && n < 1 {
				return hcl.Diagnostics{tfdiags.WithPath(tfdiags.Errorf("Invalid length",
					"length must be at least 1, got %d.", n), cty.GetAttrPath("length"))}
			}
			return nil
		},
		// Unlike the other random resources, any keepers change replaces
		// (the real provider uses the plain RequiresReplace here).
		Plan: framework.Planner{Schema: s}.Plan,
		Apply: func(req providers.ApplyResourceChangeRequest) (cty.Value, hcl.Diagnostics) {
			b, diags := randomBytes(req.PlannedState, "length")
			if diags.HasErrors() {
				return cty.NilVal, diags
			}
			return framework.With(req.PlannedState, map[string]cty.Value{
				"base64": cty.StringVal(base64.StdEncoding.EncodeToString(b)),
				"hex":    cty.StringVal(hex.EncodeToString(b)),
			}), nil
		},
		// The import ID is the standard base64 of the bytes.
		Import: func(id string) (cty.Value, hcl.Diagnostics) {
			b, err := base64.StdEncoding.DecodeString(id)
			if err != nil || len(b) == 0 {
				return cty.NilVal, hcl.Diagnostics{tfdiags.Errorf("Invalid import ID",
					"random_bytes imports by its base64 value (standard alphabet, padded); %q is not that.", id)}
			}
			return cty.ObjectVal(map[string]cty.Value{
				"keepers": cty.NullVal(cty.Map(cty.String)),
				"length":  cty.NumberIntVal(int64(len(b))),
				"base64":  cty.StringVal(id),
				"hex":     cty.StringVal(hex.EncodeToString(b)),
			}), nil
		},
	}
}
