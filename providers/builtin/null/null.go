// Package null is the built-in registry.terraform.io/hashicorp/null
// provider: null_resource, a resource that does nothing but exist, replaced
// whenever its triggers change. Schema-compatible with the real provider
// (3.x, schema version 0).
package null

import (
	crand "crypto/rand"
	"math/big"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/builtin/internal/framework"
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
				Plan: func(req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
					return framework.PlanReplaceOnChange(s, nil, req)
				},
				Apply: func(req providers.ApplyResourceChangeRequest) (cty.Value, hcl.Diagnostics) {
					if req.PlannedState.IsWhollyKnown() {
						return req.PlannedState, nil
					}
					n, err := crand.Int(crand.Reader, big.NewInt(1<<62))
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
	}
}

// Factory is New as a providers.Factory.
func Factory() (providers.Interface, error) { return New(), nil }
