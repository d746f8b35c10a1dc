// Package random is the built-in registry.terraform.io/hashicorp/random
// provider: random_bytes, random_id, random_string, random_password,
// random_integer, random_uuid, random_uuid4, random_uuid7 (3.8+),
// random_shuffle and random_pet, schema-compatible with the real provider
// (3.x) so existing configurations and state work unchanged.
// Every argument forces replacement when it changes, except the changes
// the real provider applies in place (keepers gaining or losing null
// values, override_special going from "" to unset).
// Values come from crypto/rand, except random_integer and random_shuffle
// with a seed, which are reproducible from it as in the real provider.
package random

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/internal/providers/builtin/internal/framework"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
)

// New returns the provider. It keeps no state: safe for concurrent use.
func New() providers.Interface {
	return &framework.Provider{
		Name: "registry.terraform.io/hashicorp/random",
		Resources: map[string]*framework.Resource{
			"random_bytes":    bytesResource(),
			"random_id":       idResource(),
			"random_string":   stringResource(false),
			"random_password": stringResource(true),
			"random_integer":  integerResource(),
			"random_uuid":     uuidResource(),
			"random_uuid4":    uuidVersionResource(4),
			"random_uuid7":    uuidVersionResource(7),
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

// planner returns the plan function shared by the random resources: every
// argument forces replacement when it changes, except keepers changes that
// only add or drop null values (the real provider's
// RequiresReplaceIfValuesNotNull), which update in place.
func planner(schema *configschema.Block, defaults map[string]cty.Value) func(providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
	return framework.Planner{Schema: schema, Defaults: defaults, ReplaceIf: replaceRules()}.Plan
}

// replaceRules are the random resources' exceptions to "any change
// replaces"; override_special exists only on random_string and
// random_password.
func replaceRules() map[string]framework.ReplaceFunc {
	return map[string]framework.ReplaceFunc{
		"keepers":          framework.ReplaceIfKeepersChanged,
		"override_special": framework.ReplaceUnlessEmptyToNull,
	}
}
