package random

import (
	mrand "math/rand"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/internal/providers/builtin/internal/framework"
	"github.com/plankit/plankit/providers"
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
			"result_count": {Type: cty.Number, Optional: true, Description: "Number of results (default, and for 0: length of input); longer results repeat permutations."},
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
			var input []cty.Value
			if in := req.PlannedState.GetAttr("input"); framework.Known(in) {
				input = in.AsValueSlice()
			}
			// As in the real provider, a result_count of 0 (or none)
			// means one result per input element.
			count := len(input)
			if n, ok := framework.Int(req.PlannedState.GetAttr("result_count")); ok && n != 0 {
				if n < 0 || n > 1<<20 {
					return cty.NilVal, hcl.Diagnostics{tfdiags.Error("Invalid result_count", "result_count must be between 0 and 1048576.")}
				}
				count = int(n)
			}
			result := shuffle(seededRand(framework.Str(req.PlannedState.GetAttr("seed"))), input, count)
			list := cty.ListValEmpty(cty.String)
			if len(result) > 0 {
				list = cty.ListVal(result)
			}
			return framework.With(req.PlannedState, map[string]cty.Value{"result": list, "id": cty.StringVal("-")}), nil
		},
	}
}

// shuffle draws count elements as successive permutations of input (so a
// count above len(input) repeats elements), consuming r exactly as the
// real provider does: a seed gives the same result. O(count).
func shuffle[T any](r *mrand.Rand, input []T, count int) []T {
	result := make([]T, 0, count)
	for len(input) > 0 && len(result) < count {
		for _, i := range r.Perm(len(input)) {
			if len(result) == count {
				break
			}
			result = append(result, input[i])
		}
	}
	return result
}
