// Package null is the built-in registry.terraform.io/hashicorp/null
// provider: null_resource, a resource that does nothing but exist, replaced
// whenever its triggers change, and the deprecated null_data_source.
// Schema-compatible with the real provider (3.x, schema version 0).
package null

import (
	crand "crypto/rand"
	"math/big"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/internal/providers/builtin/internal/framework"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
	"github.com/plankit/plankit/tfdiags"
)

// New returns the provider. It keeps no state: safe for concurrent use.
func New() providers.Interface {
	s := &configschema.Block{
		Description: "A resource that does nothing; used with provisioners or to group dependencies.",
		Attributes: map[string]*configschema.Attribute{
			"triggers": {Type: cty.Map(cty.String), Optional: true, Description: "Arbitrary values whose change replaces the resource."},
			"id":       {Type: cty.String, Computed: true, Description: "A random decimal number assigned at creation."},
		},
	}
	return &framework.Provider{
		Name: "registry.terraform.io/hashicorp/null",
		Resources: map[string]*framework.Resource{
			"null_resource": {
				Schema: providers.Schema{Version: 0, Block: s},
				// triggers replaces as the random keepers do (the real
				// provider's RequiresReplaceIfValuesNotNull): gaining keys
				// whose values are null is an in-place update.
				Plan: framework.Planner{Schema: s, ReplaceIf: map[string]framework.ReplaceFunc{
					"triggers": framework.ReplaceIfKeepersChanged,
				}}.Plan,
				Apply: func(req providers.ApplyResourceChangeRequest) (cty.Value, hcl.Diagnostics) {
					// A non-negative int64 in decimal, like the real
					// provider's rand.Int().
					n, err := crand.Int(crand.Reader, new(big.Int).Lsh(big.NewInt(1), 63))
					if err != nil {
						return cty.NilVal, tfdiags.FromError("Generating id", err)
					}
					return framework.With(req.PlannedState, map[string]cty.Value{"id": cty.StringVal(n.String())}), nil
				},
				Import: func(id string) (cty.Value, hcl.Diagnostics) {
					return cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal(id), "triggers": cty.NullVal(cty.Map(cty.String))}), nil
				},
			},
		},
		DataSources: map[string]*framework.DataSource{"null_data_source": dataSource()},
	}
}

// dataSource is the deprecated null_data_source: outputs copies inputs,
// random is a fresh random number on every read, has_computed_default
// defaults to "default", and id is always "static".
func dataSource() *framework.DataSource {
	return &framework.DataSource{
		Schema: providers.Schema{Version: 0, Block: &configschema.Block{
			Description: "Deprecated: copies inputs to outputs; use locals instead.",
			Attributes: map[string]*configschema.Attribute{
				"inputs":               {Type: cty.Map(cty.String), Optional: true, Description: "Values copied into outputs."},
				"outputs":              {Type: cty.Map(cty.String), Computed: true, Description: "A copy of inputs."},
				"random":               {Type: cty.String, Computed: true, Description: "A random decimal number, new on every read."},
				"has_computed_default": {Type: cty.String, Optional: true, Computed: true, Description: "Stored as given; \"default\" when unset."},
				"id":                   {Type: cty.String, Computed: true, Deprecated: true, Description: "Always \"static\"."},
			},
		}},
		Read: func(cfg cty.Value) (cty.Value, hcl.Diagnostics) {
			n, err := crand.Int(crand.Reader, new(big.Int).Lsh(big.NewInt(1), 63))
			if err != nil {
				return cty.NilVal, tfdiags.FromError("Generating random", err)
			}
			def := cfg.GetAttr("has_computed_default")
			if framework.Str(def) == "" {
				def = cty.StringVal("default")
			}
			return cty.ObjectVal(map[string]cty.Value{
				"inputs":               cfg.GetAttr("inputs"),
				"outputs":              cfg.GetAttr("inputs"),
				"random":               cty.StringVal(n.String()),
				"has_computed_default": def,
				"id":                   cty.StringVal("static"),
			}), nil
		},
	}
}

// Factory is New as a providers.Factory.
func Factory() (providers.Interface, error) { return New(), nil }
