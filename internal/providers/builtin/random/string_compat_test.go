package random

import (
	"strings"
	"testing"
	"unicode"

	"github.com/zclconf/go-cty/cty"
	"golang.org/x/crypto/bcrypt"
)

// TestStringGenerationCompat covers where generation follows the real
// provider: an empty override_special keeps the default special set, and
// min_* characters come from their class even when it is switched off.
func TestStringGenerationCompat(t *testing.T) {
	h := harness(t, "random_string")
	tests := []struct {
		name, cfg string
		check     func(string) bool
	}{
		{"empty override_special keeps the default set",
			"length = 30\nupper = false\nlower = false\nnumeric = false\noverride_special = \"\"",
			func(s string) bool { return len(s) == 30 && strings.Trim(s, specialChars) == "" }},
		{"min_upper with upper off",
			"length = 12\nupper = false\nmin_upper = 3",
			func(s string) bool { return count(s, unicode.IsUpper) == 3 }},
		{"only min characters",
			"length = 4\nupper = false\nlower = false\nnumeric = false\noverride_special = \"_\"\nmin_numeric = 4",
			func(s string) bool { return count(s, unicode.IsDigit) == 4 }},
	}
	for _, tt := range tests {
		for range 5 {
			if got := h.Create(h.Config(tt.cfg)).GetAttr("result").AsString(); !tt.check(got) {
				t.Errorf("%s: result %q", tt.name, got)
			}
		}
	}
}

// TestPasswordLongerThanBcryptInput: a result above 72 bytes is hashed by
// its first 72 bytes, as the real provider does, instead of failing.
func TestPasswordLongerThanBcryptInput(t *testing.T) {
	h := harness(t, "random_password")
	s := h.Create(h.Config("length = 100"))
	res := s.GetAttr("result").AsString()
	if err := bcrypt.CompareHashAndPassword([]byte(s.GetAttr("bcrypt_hash").AsString()), []byte(res[:72])); err != nil {
		t.Fatalf("bcrypt_hash is not the hash of the first 72 bytes: %v", err)
	}
}

// TestStringImportLengthInBytes: the real provider records an imported
// string's length in bytes.
func TestStringImportLengthInBytes(t *testing.T) {
	for _, typ := range []string{"random_string", "random_password"} {
		imp, diags := harness(t, typ).Import("héllo")
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		if got := imp.GetAttr("length"); !got.RawEquals(cty.NumberIntVal(6)) {
			t.Errorf("%s: length %#v, want 6", typ, got)
		}
	}
}

// TestStringUpgrade runs the state upgraders on objects in the shapes
// older providers wrote.
func TestStringUpgrade(t *testing.T) {
	goodHash, err := bcrypt.GenerateFromPassword([]byte("pw"), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	defaults := map[string]cty.Value{
		"length": cty.NumberIntVal(2), "min_numeric": cty.Zero, "min_upper": cty.Zero, "min_lower": cty.Zero, "min_special": cty.Zero,
		"special": cty.True, "upper": cty.True, "lower": cty.True, "number": cty.True, "numeric": cty.True,
	}
	tests := []struct {
		name, typ string
		version   int64
		raw       string
		want      map[string]cty.Value
		hash      string // "kept", "new" or "" (no bcrypt_hash)
	}{
		{"string v1 imported by 3.3.1", "random_string", 1, `{"id":"pw","result":"pw","keepers":null}`, defaults, ""},
		{"string v1 number false", "random_string", 1,
			`{"id":"pw","result":"pw","length":2,"number":false,"special":true,"upper":true,"lower":true,"min_numeric":0,"min_upper":0,"min_lower":0,"min_special":0,"override_special":"","keepers":null}`,
			map[string]cty.Value{"number": cty.False, "numeric": cty.False, "override_special": cty.StringVal("")}, ""},
		{"password v0 without bcrypt_hash", "random_password", 0, `{"id":"none","result":"pw"}`, defaults, "new"},
		{"password v1 keeps its hash", "random_password", 1, `{"id":"none","result":"pw","bcrypt_hash":"` + string(goodHash) + `"}`, defaults, "kept"},
		{"password v2 matching hash kept", "random_password", 2, `{"id":"none","result":"pw","numeric":true,"bcrypt_hash":"` + string(goodHash) + `"}`, defaults, "kept"},
		{"password v2 wrong hash replaced", "random_password", 2, `{"id":"none","result":"pw","numeric":true,"bcrypt_hash":"$2a$04$abcdefghijklmnopqrstuu5Zt3U5dwnC0N1uR3QyBT8h3tEXZkZAu"}`, defaults, "new"},
	}
	for _, tt := range tests {
		h := harness(t, tt.typ)
		up, diags := h.Upgrade(tt.version, tt.raw)
		if diags.HasErrors() {
			t.Fatalf("%s: %s", tt.name, diags.Error())
		}
		for k, want := range tt.want {
			if got := up.GetAttr(k); !got.RawEquals(want) {
				t.Errorf("%s: %s = %#v, want %#v", tt.name, k, got, want)
			}
		}
		switch tt.hash {
		case "kept":
			if up.GetAttr("bcrypt_hash").AsString() != string(goodHash) {
				t.Errorf("%s: hash replaced", tt.name)
			}
		case "new":
			h := up.GetAttr("bcrypt_hash").AsString()
			if h == string(goodHash) || bcrypt.CompareHashAndPassword([]byte(h), []byte("pw")) != nil {
				t.Errorf("%s: hash %q not regenerated for the result", tt.name, h)
			}
		}
		if d := h.Schema.ValidateValue(up); d.HasErrors() {
			t.Errorf("%s: %s", tt.name, d.Error())
		}
	}
}
