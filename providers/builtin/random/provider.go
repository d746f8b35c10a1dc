// Package random is the built-in registry.terraform.io/hashicorp/random
// provider: random_id, random_string, random_password, random_integer,
// random_uuid, random_shuffle and random_pet, schema-compatible with the
// real provider (3.x) so existing configurations and state work unchanged.
// Every configurable attribute forces replacement, keepers included.
// Values come from crypto/rand, except random_integer and random_shuffle
// with a seed, which are reproducible from it as in the real provider.
package random

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/builtin/internal/framework"
	"github.com/plankit/plankit/providers/configschema"
)

// New returns the provider. It keeps no state: safe for concurrent use.
func New() providers.Interface {
	return &framework.Provider{
		Name: "registry.terraform.io/hashicorp/random",
		Resources: map[string]*framework.Resource{
			"random_id":       idResource(),
			"random_string":   stringResource(false),
			"random_password": stringResource(true),
			"random_integer":  integerResource(),
			"random_uuid":     uuidResource(),
			"random_shuffle":  shuffleResource(),
			"random_pet":      petResource(),
		},
	}
}

// Factory is New as a providers.Factory.
func Factory() (providers.Interface, error) { return New(), nil }

func keepersAttr() *configschema.Attribute {
	return &configschema.Attribute{
		Type:        cty.Map(cty.String),
		Optional:    true,
		Description: "Arbitrary values that, when changed, force a new random value.",
	}
}

func computedString(desc string) *configschema.Attribute {
	return &configschema.Attribute{Type: cty.String, Computed: true, Description: desc}
}

// planner returns a framework plan function for a schema with defaults.
func planner(schema *configschema.Block, defaults map[string]cty.Value) func(providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
	return func(req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
		return framework.PlanReplaceOnChange(schema, defaults, req)
	}
}
