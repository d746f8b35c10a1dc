package random

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"golang.org/x/crypto/bcrypt"

	"github.com/plankit/plankit/internal/providers/builtin/internal/framework"
	"github.com/plankit/plankit/tfdiags"
)

// bcryptMaxInput is the most bcrypt reads; longer passwords are hashed
// by their first 72 bytes, as the real provider does (bcrypt refuses
// longer input outright).
const bcryptMaxInput = 72

// bcryptHash is random_password's bcrypt_hash of s.
func bcryptHash(s string) (cty.Value, error) {
	b := []byte(s)
	if len(b) > bcryptMaxInput {
		b = b[:bcryptMaxInput]
	}
	h, err := bcrypt.GenerateFromPassword(b, bcrypt.DefaultCost)
	if err != nil {
		return cty.NilVal, err
	}
	return cty.StringVal(string(h)), nil
}

// upgradeString migrates an older random_string (v1) or random_password
// (v0–v2) object, already decoded against the current schema, as the real
// provider's state upgraders do:
//   - arguments an import by provider 3.3.1 or older left null get their
//     defaults (length from the result's length in bytes, min_* 0, the
//     character-class switches true), so the next plan is not a replacement;
//   - numeric takes number's value (older versions had only number);
//   - random_password gets a bcrypt_hash when it has none (v0), and a new
//     one when the stored hash does not match result (providers
//     3.4.0–3.4.2 wrote wrong hashes into v2 state).
//
// It is lenient where the real provider fails: a malformed v2 hash is
// replaced rather than reported.
func upgradeString(password bool, version int64, v cty.Value) (cty.Value, hcl.Diagnostics) {
	set := map[string]cty.Value{}
	result := framework.Str(v.GetAttr("result"))
	if v.GetAttr("length").IsNull() {
		set["length"] = cty.NumberIntVal(int64(len(result)))
	}
	for _, k := range []string{"min_numeric", "min_upper", "min_lower", "min_special"} {
		if v.GetAttr(k).IsNull() {
			set[k] = cty.Zero
		}
	}
	for _, k := range []string{"special", "upper", "lower", "number"} {
		if v.GetAttr(k).IsNull() {
			set[k] = cty.True
		}
	}
	number := v.GetAttr("number")
	if n, ok := set["number"]; ok {
		number = n
	}
	set["numeric"] = number
	if password && framework.Known(v.GetAttr("result")) {
		hash := v.GetAttr("bcrypt_hash")
		stale := !framework.Known(hash)
		if !stale && version == 2 {
			stale = bcrypt.CompareHashAndPassword([]byte(hash.AsString()), []byte(result)) != nil
		}
		if stale {
			h, err := bcryptHash(result)
			if err != nil {
				return cty.NilVal, tfdiags.FromError("Hashing stored password", err)
			}
			set["bcrypt_hash"] = h
		}
	}
	return framework.With(v, set), nil
}
