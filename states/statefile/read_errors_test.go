package statefile

import (
	"strings"
	"testing"
)

// TestReadCorruptStateFile covers Read's user-facing errors for a state
// file that is not a well-formed version 4 file: each must fail (never
// panic or yield a State) and say what is wrong.
func TestReadCorruptStateFile(t *testing.T) {
	tests := map[string]struct {
		src, want string
	}{
		"no version":         {`{"serial": 1}`, `has no "version" field`},
		"fractional version": {`{"version": 4.5}`, `version "4.5" is not a whole number`},
		"future version":     {`{"version": 5, "terraform_version": "9.0.0"}`, "format version 5 (written by Terraform 9.0.0), but plankit supports versions up to 4"},
		"old version":        {`{"version": 3}`, "format version 3 (written by Terraform"},
		"malformed v4":       {`{"version": 4, "resources": "x"}`, "the version 4 state file is malformed"},
		"truncated":          {`{"version": 4, "resources": [`, "the state file is not valid JSON"},
		"bad tf version":     {`{"version": 4, "terraform_version": "not.a.version"}`, `terraform_version "not.a.version" is not a valid version`},
		"empty type": {`{"version": 4, "resources": [{"mode": "managed", "type": "", "name": "a", "provider": "provider[\"registry.terraform.io/hashicorp/null\"]", "instances": []}]}`,
			"empty type or name"},
		"output type mismatch": {`{"version": 4, "outputs": {"o": {"value": "x", "type": "number"}}}`,
			`output "o" has a value that does not match its type number`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f, err := Read(strings.NewReader(tc.src))
			if err == nil {
				t.Fatalf("no error; got file %#v", f)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q\nwant it to contain %q", err, tc.want)
			}
		})
	}
}
