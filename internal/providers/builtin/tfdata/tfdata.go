// Package tfdata is the built-in terraform.io/builtin/terraform
// provider with its terraform_data resource: it stores input, mirrors it
// in output after apply, and is replaced when triggers_replace changes.
// Schema-compatible with Terraform's (version 0, without the newer store
// block), so existing state reads unchanged.
package tfdata

import (
	"github.com/hashicorp/go-uuid"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/internal/providers/builtin/internal/framework"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
	"github.com/plankit/plankit/tfdiags"
)

func dataSchema() *configschema.Block {
	return &configschema.Block{
		Description: "Stores a value through the resource lifecycle; no remote object.",
		Attributes: map[string]*configschema.Attribute{
			"input":            {Type: cty.DynamicPseudoType, Optional: true, Description: "A value of any type, copied to output on apply."},
			"output":           {Type: cty.DynamicPseudoType, Computed: true, Description: "The input value after apply; unknown in plans that change input."},
			"triggers_replace": {Type: cty.DynamicPseudoType, Optional: true, Description: "A value of any type whose change replaces the resource."},
			"id":               {Type: cty.String, Computed: true, Description: "A unique identifier (a UUID)."},
		},
	}
}

// New returns the provider. It keeps no state: safe for concurrent use.
func New() providers.Interface {
	s := dataSchema()
	return &framework.Provider{
		Name: "terraform.io/builtin/terraform",
		Resources: map[string]*framework.Resource{
			"terraform_data": {
				Schema: providers.Schema{Version: 0, Block: s},
				Plan:   planData,
				Apply: func(req providers.ApplyResourceChangeRequest) (cty.Value, hcl.Diagnostics) {
					set := map[string]cty.Value{"output": req.PlannedState.GetAttr("input")}
					if !req.PlannedState.GetAttr("id").IsKnown() {
						id, err := uuid.GenerateUUID()
						if err != nil {
							return cty.NilVal, tfdiags.FromError("Generating id", err)
						}
						set["id"] = cty.StringVal(id)
					}
					return framework.With(req.PlannedState, set), nil
				},
				Move: moveFromNull,
				Import: func(id string) (cty.Value, hcl.Diagnostics) {
					v := s.EmptyValue().AsValueMap()
					v["id"] = cty.StringVal(id)
					return cty.ObjectVal(v), nil
				},
			},
		},
	}
}

// Factory is New as a providers.Factory.
func Factory() (providers.Interface, error) { return New(), nil }

// planData: a create or a triggers_replace change plans a new id; any
// change of input (or a new object) makes output unknown, of input's
// type, and null input plans null output. An unchanged input keeps output.
func planData(req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
	planned := attrMap(req.ProposedNewState)
	input := planned["input"]
	resp := providers.PlanResourceChangeResponse{PlannedPrivate: req.PriorPrivate}
	newObject := req.PriorState.IsNull()
	if !newObject && !req.PriorState.GetAttr("triggers_replace").RawEquals(planned["triggers_replace"]) {
		resp.RequiresReplace = []cty.Path{cty.GetAttrPath("triggers_replace")}
		newObject = true
	}
	switch {
	case newObject:
		// Refined not-null, as Terraform plans it, so `id != null`
		// is known true at plan time.
		planned["id"] = cty.UnknownVal(cty.String).RefineNotNull()
		planned["output"] = unknownLike(input)
	case !req.PriorState.GetAttr("input").RawEquals(input):
		planned["output"] = unknownLike(input)
	}
	resp.PlannedState = shareType(cty.ObjectVal(planned))
	return resp
}

// unknownLike is an unknown of v's type, or v itself when null (output
// of a null input is null, known at plan time).
func unknownLike(v cty.Value) cty.Value {
	if v.IsNull() {
		return v
	}
	return cty.UnknownVal(v.Type())
}

// attrMap is v.AsValueMap() for a known object, read attribute by
// attribute: AsValueMap's iterator builds a string value for each
// attribute name, several allocations an instance.
func attrMap(v cty.Value) map[string]cty.Value {
	atys := v.Type().AttributeTypes()
	m := make(map[string]cty.Value, len(atys))
	for name := range atys {
		m[name] = v.GetAttr(name)
	}
	return m
}
