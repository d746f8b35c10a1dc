package random

import (
	mrand "math/rand"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/internal/providers/builtin/internal/framework"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
	"github.com/plankit/plankit/tfdiags"
)

func integerSchema() *configschema.Block {
	return &configschema.Block{
		Description: "A random integer in [min, max].",
		Attributes: map[string]*configschema.Attribute{
			"keepers": keepersAttr(),
			"min":     {Type: cty.Number, Required: true, Description: "Smallest possible result."},
			"max":     {Type: cty.Number, Required: true, Description: "Largest possible result."},
			"seed":    {Type: cty.String, Optional: true, Description: "Makes the result reproducible (not cryptographically random)."},
			"result":  {Type: cty.Number, Computed: true, Description: "The random integer."},
			"id":      computedString("The result as a string."),
		},
	}
}

func integerResource() *framework.Resource {
	s := integerSchema()
	return &framework.Resource{
		Schema: providers.Schema{Version: 0, Block: s},
		Validate: func(cfg cty.Value) hcl.Diagnostics {
			lo, ok1 := framework.Int(cfg.GetAttr("min"))
			hi, ok2 := framework.Int(cfg.GetAttr("max"))
			if ok1 && ok2 && lo > hi {
				return hcl.Diagnostics{tfdiags.WithPath(tfdiags.Errorf("Invalid min",
					"min (%d) must be less than or equal to max (%d).", lo, hi), cty.GetAttrPath("min"))}
			}
			return nil
		},
		Plan: planner(s, nil),
		Apply: func(req providers.ApplyResourceChangeRequest) (cty.Value, hcl.Diagnostics) {
			lo, ok1 := framework.Int(req.PlannedState.GetAttr("min"))
			hi, ok2 := framework.Int(req.PlannedState.GetAttr("max"))
			if !ok1 || !ok2 || lo > hi || hi-lo < 0 || hi-lo >= 1<<62 {
				return cty.NilVal, hcl.Diagnostics{tfdiags.Error("Invalid range", "min and max must be whole numbers with min <= max and a range below 2^62.")}
			}
			n := drawInteger(seededRand(framework.Str(req.PlannedState.GetAttr("seed"))), lo, hi)
			return framework.With(req.PlannedState, map[string]cty.Value{
				"result": cty.NumberIntVal(n), "id": cty.StringVal(strconv.FormatInt(n, 10)),
			}), nil
		},
		Import: func(id string) (cty.Value, hcl.Diagnostics) {
			parts := strings.Split(id, ",")
			bad := hcl.Diagnostics{tfdiags.Errorf("Invalid import ID",
				"random_integer imports as \"result,min,max\" or \"result,min,max,seed\"; got %q.", id)}
			if len(parts) != 3 && len(parts) != 4 {
				return cty.NilVal, bad
			}
			var nums [3]int64
			for i := range nums {
				n, err := strconv.ParseInt(parts[i], 10, 64)
				if err != nil {
					return cty.NilVal, bad
				}
				nums[i] = n
			}
			seed := cty.NullVal(cty.String)
			if len(parts) == 4 {
				seed = cty.StringVal(parts[3])
			}
			return cty.ObjectVal(map[string]cty.Value{
				"keepers": cty.NullVal(cty.Map(cty.String)),
				"result":  cty.NumberIntVal(nums[0]), "id": cty.StringVal(parts[0]),
				"min": cty.NumberIntVal(nums[1]), "max": cty.NumberIntVal(nums[2]), "seed": seed,
			}), nil
		},
	}
}

// drawInteger is the real provider's draw: Intn over the range size, so a
// seed gives the same result as there (Intn, not Int63n: for ranges below
// 2^31 the two consume the source differently). Needs hi-lo+1 > 0.
func drawInteger(r *mrand.Rand, lo, hi int64) int64 {
	return int64(r.Intn(int(hi-lo+1))) + lo
}
