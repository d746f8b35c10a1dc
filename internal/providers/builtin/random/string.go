package random

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/internal/providers/builtin/internal/framework"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
	"github.com/plankit/plankit/tfdiags"
)

// Character classes, as the real provider documents them.
const (
	lowerChars   = "abcdefghijklmnopqrstuvwxyz"
	upperChars   = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	numericChars = "0123456789"
	// specialChars is the default special set: !@#$%&*()-_=+[]{}<>:?
	specialChars = "!@#$%&*()-_=+[]{}<>:?"
)

// stringSchema is random_string (version 2) or, with password set,
// random_password (version 3: result sensitive, plus bcrypt_hash).
func stringSchema(password bool) *configschema.Block {
	optBool := func(desc string) *configschema.Attribute {
		return &configschema.Attribute{Type: cty.Bool, Optional: true, Computed: true, Description: desc}
	}
	optNum := func(desc string) *configschema.Attribute {
		return &configschema.Attribute{Type: cty.Number, Optional: true, Computed: true, Description: desc}
	}
	b := &configschema.Block{
		Description: "A random string of letters, digits and optionally special characters, from crypto/rand.",
		Attributes: map[string]*configschema.Attribute{
			"keepers":          keepersAttr(),
			"length":           {Type: cty.Number, Required: true, Description: "Length of the string; at least 1 and at least the sum of the min_* arguments."},
			"special":          optBool("Include special characters (default true)."),
			"upper":            optBool("Include upper-case letters (default true)."),
			"lower":            optBool("Include lower-case letters (default true)."),
			"number":           {Type: cty.Bool, Optional: true, Computed: true, Deprecated: true, Description: "Deprecated alias of numeric (default true)."},
			"numeric":          optBool("Include digits (default true)."),
			"min_numeric":      optNum("Minimum number of digits (default 0)."),
			"min_upper":        optNum("Minimum number of upper-case letters (default 0)."),
			"min_lower":        optNum("Minimum number of lower-case letters (default 0)."),
			"min_special":      optNum("Minimum number of special characters (default 0)."),
			"override_special": {Type: cty.String, Optional: true, Description: "Characters to use instead of the default special set; special must still be true."},
			"result":           {Type: cty.String, Computed: true, Sensitive: password, Description: "The generated string."},
			"id":               computedString("For random_string the generated string; for random_password \"none\"."),
		},
	}
	if password {
		b.Attributes["bcrypt_hash"] = &configschema.Attribute{Type: cty.String, Computed: true, Sensitive: true, Description: "A bcrypt hash of result."}
	}
	return b
}

var stringDefaults = map[string]cty.Value{
	"special": cty.True, "upper": cty.True, "lower": cty.True,
	"min_numeric": cty.Zero, "min_upper": cty.Zero, "min_lower": cty.Zero, "min_special": cty.Zero,
}

func stringResource(password bool) *framework.Resource {
	s := stringSchema(password)
	version := int64(2)
	if password {
		version = 3
	}
	return &framework.Resource{
		Schema:   providers.Schema{Version: version, Block: s},
		Validate: validateString,
		Plan: func(req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
			return planner(s, stringDefaults)(withNumeric(req))
		},
		Apply: func(req providers.ApplyResourceChangeRequest) (cty.Value, hcl.Diagnostics) {
			p, err := stringParamsOf(req.PlannedState)
			if err != nil {
				return cty.NilVal, hcl.Diagnostics{tfdiags.Error("Invalid random string arguments", err.Error())}
			}
			result, err := generateString(p)
			if err != nil {
				return cty.NilVal, tfdiags.FromError("Generating random string", err)
			}
			set := map[string]cty.Value{"result": cty.StringVal(result), "id": cty.StringVal(result)}
			if password {
				set["id"] = cty.StringVal("none")
				h, err := bcryptHash(result)
				if err != nil {
					return cty.NilVal, tfdiags.FromError("Hashing random password", err)
				}
				set["bcrypt_hash"] = h
			}
			return framework.With(req.PlannedState, set), nil
		},
		Import: func(id string) (cty.Value, hcl.Diagnostics) {
			if id == "" {
				return cty.NilVal, hcl.Diagnostics{tfdiags.Error("Invalid import ID", "Import the existing string itself as the ID.")}
			}
			attrs := s.EmptyValue().AsValueMap()
			for k, v := range stringDefaults {
				attrs[k] = v
			}
			attrs["number"], attrs["numeric"] = cty.True, cty.True
			// The real provider records the length in bytes.
			attrs["length"] = cty.NumberIntVal(int64(len(id)))
			attrs["result"], attrs["id"] = cty.StringVal(id), cty.StringVal(id)
			if password {
				attrs["id"] = cty.StringVal("none")
				h, err := bcryptHash(id)
				if err != nil {
					return cty.NilVal, tfdiags.FromError("Hashing imported password", err)
				}
				attrs["bcrypt_hash"] = h
			}
			return cty.ObjectVal(attrs), nil
		},
		Upgrade: func(version int64, v cty.Value) (cty.Value, hcl.Diagnostics) {
			return upgradeString(password, version, v)
		},
	}
}

// withNumeric keeps the deprecated number and numeric in step, as the real
// provider does: whichever is set in config decides both (default true).
func withNumeric(req providers.PlanResourceChangeRequest) providers.PlanResourceChangeRequest {
	cfg := req.Config
	val := cty.True
	switch {
	case !cfg.GetAttr("numeric").IsNull():
		val = cfg.GetAttr("numeric")
	case !cfg.GetAttr("number").IsNull():
		val = cfg.GetAttr("number")
	}
	req.ProposedNewState = framework.With(req.ProposedNewState, map[string]cty.Value{"number": val, "numeric": val})
	return req
}

func validateString(cfg cty.Value) hcl.Diagnostics {
	diags := noCharacterClass(cfg)
	length, ok := framework.Int(cfg.GetAttr("length"))
	if !ok {
		return diags // unknown: checked at apply
	}
	if length < 1 {
		diags = append(diags, tfdiags.WithPath(tfdiags.Errorf("Invalid length", "length must be at least 1, got %d.", length), cty.GetAttrPath("length")))
	}
	var sum int64
	for _, k := range []string{"min_upper", "min_lower", "min_numeric", "min_special"} {
		if n, ok := framework.Int(cfg.GetAttr(k)); ok {
			if n < 0 {
				diags = append(diags, tfdiags.WithPath(tfdiags.Errorf("Invalid "+k, "%s must not be negative.", k), cty.GetAttrPath(k)))
			}
			sum += n
		}
	}
	if sum > length {
		diags = append(diags, tfdiags.WithPath(tfdiags.Errorf("Invalid length",
			"length (%d) must be at least the sum of min_upper, min_lower, min_numeric and min_special (%d).", length, sum), cty.GetAttrPath("length")))
	}
	num, numeric := cfg.GetAttr("number"), cfg.GetAttr("numeric")
	if framework.Known(num) && framework.Known(numeric) && !num.RawEquals(numeric) {
		diags = append(diags, tfdiags.WithPath(tfdiags.Error("Conflicting number and numeric",
			"number is a deprecated alias of numeric; set only numeric."), cty.GetAttrPath("number")))
	}
	return diags
}

// noCharacterClass is the real provider's AtLeastOneOfTrue validator on
// numeric and on its deprecated alias number: one of them set to false
// while special, upper and lower are all set to false too is an error at
// its path. An unset class (default true) or an unknown one passes.
func noCharacterClass(cfg cty.Value) hcl.Diagnostics {
	isFalse := func(name string) bool {
		v := cfg.GetAttr(name)
		return v.IsKnown() && !v.IsNull() && v.False()
	}
	if !isFalse("special") || !isFalse("upper") || !isFalse("lower") {
		return nil
	}
	var diags hcl.Diagnostics
	for _, name := range []string{"number", "numeric"} {
		if isFalse(name) {
			diags = append(diags, tfdiags.WithPath(tfdiags.Errorf("Invalid Attribute Combination",
				"Attribute %q: at least one attribute out of [special,upper,lower,%s] must be specified as true.", name, name),
				cty.GetAttrPath(name)))
		}
	}
	return diags
}

type stringParams struct {
	length                                     int
	upper, lower, numeric, special             bool
	minUpper, minLower, minNumeric, minSpecial int
	specialSet                                 string
}

func stringParamsOf(v cty.Value) (stringParams, error) {
	var p stringParams
	geti := func(k string) (int, error) {
		n, ok := framework.Int(v.GetAttr(k))
		if !ok || n < 0 || n > 1<<20 {
			return 0, fmt.Errorf("%s must be a whole number between 0 and 1048576", k)
		}
		return int(n), nil
	}
	getb := func(k string) bool { b := v.GetAttr(k); return framework.Known(b) && b.True() }
	var err error
	if p.length, err = geti("length"); err != nil {
		return p, err
	}
	for k, dst := range map[string]*int{"min_upper": &p.minUpper, "min_lower": &p.minLower, "min_numeric": &p.minNumeric, "min_special": &p.minSpecial} {
		if *dst, err = geti(k); err != nil {
			return p, err
		}
	}
	p.upper, p.lower, p.numeric, p.special = getb("upper"), getb("lower"), getb("numeric"), getb("special")
	p.specialSet = specialChars
	if o := framework.Str(v.GetAttr("override_special")); o != "" {
		p.specialSet = o // "" keeps the default set, as in the real provider
	}
	return p, nil
}

// generateString draws the min_* characters from their classes first
// (even from a class that is switched off, as the real provider does), fills
// the rest from every enabled class, then shuffles, all with crypto/rand.
// Characters are runes, so a multi-byte override_special works (the real
// provider works on bytes and would split such characters). O(length).
func generateString(p stringParams) (string, error) {
	if p.minUpper+p.minLower+p.minNumeric+p.minSpecial > p.length {
		return "", fmt.Errorf("length %d is less than the sum of the min_* arguments", p.length)
	}
	var all, out []rune
	for _, c := range []struct {
		on  bool
		set string
		min int
	}{
		{p.upper, upperChars, p.minUpper},
		{p.lower, lowerChars, p.minLower},
		{p.numeric, numericChars, p.minNumeric},
		{p.special, p.specialSet, p.minSpecial},
	} {
		set := []rune(c.set)
		if c.on {
			all = append(all, set...)
		}
		for range c.min {
			ch, err := pick(set)
			if err != nil {
				return "", err
			}
			out = append(out, ch)
		}
	}
	if len(all) == 0 && len(out) < p.length {
		return "", fmt.Errorf("every character class is disabled: enable at least one of upper, lower, numeric, special")
	}
	for len(out) < p.length {
		ch, err := pick(all)
		if err != nil {
			return "", err
		}
		out = append(out, ch)
	}
	for i := len(out) - 1; i > 0; i-- { // Fisher–Yates
		j, err := cryptoIntn(i + 1)
		if err != nil {
			return "", err
		}
		out[i], out[j] = out[j], out[i]
	}
	return string(out), nil
}

func pick(set []rune) (rune, error) {
	i, err := cryptoIntn(len(set))
	if err != nil {
		return 0, err
	}
	return set[i], nil
}
