package tfdata

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/tfdiags"
)

// nullResourceType is the null provider's null_resource as stored in
// state (schema version 0): the only type terraform_data accepts in a
// moved block, as Terraform's does.
var nullResourceType = cty.Object(map[string]cty.Type{"id": cty.String, "triggers": cty.Map(cty.String)})

// moveFromNull converts a null_resource object into terraform_data: its
// triggers become triggers_replace (an object of the same strings, so a
// configuration writing triggers_replace = { ... } plans no replacement)
// and its id is kept; input and output stay null.
func moveFromNull(req providers.MoveResourceStateRequest) providers.MoveResourceStateResponse {
	if req.SourceTypeName != "null_resource" || !isNullProvider(req.SourceProviderAddress) {
		return providers.MoveResourceStateResponse{Diagnostics: hcl.Diagnostics{tfdiags.Errorf("Unsupported resource move",
			"terraform_data can only be moved from null_resource of the hashicorp/null provider, not from %s of %s.", req.SourceTypeName, orUnknown(req.SourceProviderAddress))}}
	}
	old, err := ctyjson.Unmarshal(req.SourceStateJSON, nullResourceType)
	if err != nil {
		return providers.MoveResourceStateResponse{Diagnostics: hcl.Diagnostics{tfdiags.Errorf("Invalid null_resource object",
			"The stored null_resource object cannot be read (%s); it cannot be moved to terraform_data.", err)}}
	}
	attrs := dataSchema().EmptyValue().AsValueMap()
	if t := old.GetAttr("triggers"); !t.IsNull() {
		if t.LengthInt() == 0 {
			attrs["triggers_replace"] = cty.EmptyObjectVal
		} else {
			attrs["triggers_replace"] = cty.ObjectVal(t.AsValueMap())
		}
	}
	attrs["id"] = old.GetAttr("id")
	v := cty.ObjectVal(attrs)
	return providers.MoveResourceStateResponse{TargetState: v, TargetPrivate: req.SourcePrivate}
}

// isNullProvider reports whether addr (as a state file writes it) is
// hashicorp/null on either public registry; empty is accepted (callers
// that do not know the source provider).
func isNullProvider(addr string) bool {
	if addr == "" {
		return true
	}
	p, err := addrs.ParseProviderSourceString(addr)
	return err == nil && p.Namespace == "hashicorp" && p.Type == "null"
}

func orUnknown(s string) string {
	if s == "" {
		return "an unknown provider"
	}
	return fmt.Sprintf("provider %s", s)
}
