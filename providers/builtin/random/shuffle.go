package random

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/builtin/internal/framework"
	"github.com/plankit/plankit/providers/configschema"
	"github.com/plankit/plankit/tfdiags"
)

func shuffleSchema() *configschema.Block {
	return &configschema.Block{
		Description: "A random permutation of a list of strings.",
		Attributes: map[string]*configschema.Attribute{
			"keepers":      keepersAttr(),
			"input":        {Type: cty.List(cty.String), Required: true, Description: "The list to shuffle."},
			"seed":         {Type: cty.String, Optional: true, Description: "Makes the permutation reproducible (not cryptographically random)."},
			"result_count": {Type: cty.Number, Optional: true, Description: "Number of results (default: length of input); longer results repeat permutations."},
			"result":       {Type: cty.List(cty.String), Computed: true, Description: "The shuffled list."},
			"id":           computedString("A static value, \"-\"."),
		},
	}
}

func shuffleResource() *framework.Resource {
	s := shuffleSchema()
	return &framework.Resource{
		Schema: providers.Schema{Version: 0, Block: s},
		Validate: func(cfg cty.Value) hcl.Diagnostics {
			if n, ok := framework.Int(cfg.GetAttr("result_count")); ok && n < 0 {
				return hcl.Diagnostics{tfdiags.WithPath(tfdiags.Error("Invalid result_count", "result_count must not be negative."), cty.GetAttrPath("result_count"))}
			}
			return nil
		},
		Plan: planner(s, nil),
		Apply: func(req providers.ApplyResourceChangeRequest) (cty.Value, hcl.Diagnostics) {
			if req.PlannedState.IsWhollyKnown() {
				return req.PlannedState, nil
			}
			var input []cty.Value
			if in := req.PlannedState.GetAttr("input"); framework.Known(in) {
				input = in.AsValueSlice()
			}
			count := len(input)
			if n, ok := framework.Int(req.PlannedState.GetAttr("result_count")); ok {
				if n < 0 || n > 1<<20 {
					return cty.NilVal, hcl.Diagnostics{tfdiags.Error("Invalid result_count", "result_count must be between 0 and 1048576.")}
				}
				count = int(n)
			}
			// Successive permutations until count items are drawn, so
			// a count above len(input) repeats elements.
			result := make([]cty.Value, 0, count)
			if len(input) > 0 {
				r := seededRand(framework.Str(req.PlannedState.GetAttr("seed")))
				for len(result) < count {
					for _, i := range r.Perm(len(input)) {
						if len(result) == count {
							break
						}
						result = append(result, input[i])
					}
				}
			}
			list := cty.ListValEmpty(cty.String)
			if len(result) > 0 {
				list = cty.ListVal(result)
			}
			return framework.With(req.PlannedState, map[string]cty.Value{"result": list, "id": cty.StringVal("-")}), nil
		},
	}
}
