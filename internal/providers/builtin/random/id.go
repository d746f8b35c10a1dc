package random

import (
	"encoding/base64"
	"encoding/hex"
	"math/big"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/internal/providers/builtin/internal/framework"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
	"github.com/plankit/plankit/tfdiags"
)

func idSchema() *configschema.Block {
	return &configschema.Block{
		Description: "Random bytes, exposed in several encodings; suitable for unique identifiers.",
		Attributes: map[string]*configschema.Attribute{
			"keepers":     keepersAttr(),
			"byte_length": {Type: cty.Number, Required: true, Description: "Number of random bytes to produce (at least 1)."},
			"prefix":      {Type: cty.String, Optional: true, Description: "Prefix added to every encoding except id."},
			"id":          computedString("The random bytes, URL-safe base64 without padding and without prefix."),
			"b64_url":     computedString("Prefix plus the bytes in URL-safe base64 without padding."),
			"b64_std":     computedString("Prefix plus the bytes in standard base64 with padding."),
			"hex":         computedString("Prefix plus the bytes in lower-case hexadecimal."),
			"dec":         computedString("Prefix plus the bytes as a big-endian unsigned decimal number."),
		},
	}
}

func idResource() *framework.Resource {
	s := idSchema()
	return &framework.Resource{
		Schema: providers.Schema{Version: 0, Block: s},
		Validate: func(cfg cty.Value) hcl.Diagnostics {
			if n, ok := framework.Int(cfg.GetAttr("byte_length")); ok && n < 1 {
				return hcl.Diagnostics{tfdiags.WithPath(tfdiags.Errorf("Invalid byte_length",
					"byte_length must be at least 1, got %d.", n), cty.GetAttrPath("byte_length"))}
			}
			return nil
		},
		Plan: planner(s, nil),
		Apply: func(req providers.ApplyResourceChangeRequest) (cty.Value, hcl.Diagnostics) {
			b, diags := randomBytes(req.PlannedState, "byte_length")
			if diags.HasErrors() {
				return cty.NilVal, diags
			}
			return framework.With(req.PlannedState, idEncodings(b, framework.Str(req.PlannedState.GetAttr("prefix")))), nil
		},
		Import: func(id string) (cty.Value, hcl.Diagnostics) {
			prefix, enc := "", id
			if i := strings.LastIndex(id, ","); i >= 0 {
				prefix, enc = id[:i], id[i+1:]
			}
			b, err := base64.RawURLEncoding.DecodeString(enc)
			if err != nil || len(b) == 0 {
				return cty.NilVal, hcl.Diagnostics{tfdiags.Errorf("Invalid import ID",
					"random_id imports by its id (URL-safe base64 without padding), optionally preceded by \"prefix,\"; %q is not that.", id)}
			}
			attrs := idEncodings(b, prefix)
			attrs["byte_length"] = cty.NumberIntVal(int64(len(b)))
			attrs["keepers"] = cty.NullVal(cty.Map(cty.String))
			attrs["prefix"] = cty.NullVal(cty.String)
			if prefix != "" {
				attrs["prefix"] = cty.StringVal(prefix)
			}
			return cty.ObjectVal(attrs), nil
		},
	}
}

// idEncodings derives every encoding attribute from the same bytes.
func idEncodings(b []byte, prefix string) map[string]cty.Value {
	return map[string]cty.Value{
		"id":      cty.StringVal(base64.RawURLEncoding.EncodeToString(b)),
		"b64_url": cty.StringVal(prefix + base64.RawURLEncoding.EncodeToString(b)),
		"b64_std": cty.StringVal(prefix + base64.StdEncoding.EncodeToString(b)),
		"hex":     cty.StringVal(prefix + hex.EncodeToString(b)),
		"dec":     cty.StringVal(prefix + new(big.Int).SetBytes(b).String()),
	}
}
