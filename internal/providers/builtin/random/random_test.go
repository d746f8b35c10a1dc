package random

import (
	"encoding/base64"
	"encoding/hex"
	"math/big"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
	"golang.org/x/crypto/bcrypt"

	"github.com/plankit/plankit/internal/providers/builtin/internal/lifecycle"
	"github.com/plankit/plankit/providers/configschema"
)

func harness(t *testing.T, typ string) *lifecycle.Harness { return lifecycle.New(t, New(), typ) }

// lifecycleReplace checks the shared all-force-new lifecycle: create, read
// unchanged, re-plan unchanged (no-op), change → replacement with unknown
// computed attributes, destroy.
func lifecycleReplace(t *testing.T, h *lifecycle.Harness, cfg, changed string, wantReplace []string) cty.Value {
	t.Helper()
	c := h.Config(cfg)
	pl := h.Plan(h.Null(), c)
	if pl.PlannedState.GetAttr("id").IsKnown() {
		t.Fatal("id known at plan time")
	}
	s := h.Apply(h.Null(), pl.PlannedState, c)
	if got := h.Read(s); !got.RawEquals(s) {
		t.Fatalf("read changed state: %#v", got)
	}
	again := h.Plan(s, c)
	if len(again.RequiresReplace) != 0 || !again.PlannedState.RawEquals(s) {
		t.Fatalf("unchanged config did not plan a no-op: %v %#v", again.RequiresReplace, again.PlannedState)
	}
	c2 := h.Config(changed)
	rp := h.Plan(s, c2)
	if diff := cmp.Diff(wantReplace, lifecycle.ReplacePaths(rp.RequiresReplace)); diff != "" {
		t.Fatalf("RequiresReplace (-want +got)\n%s", diff)
	}
	if rp.PlannedState.GetAttr("id").IsKnown() {
		t.Fatal("replacement keeps the old id")
	}
	s2 := h.Apply(h.Null(), h.Plan(h.Null(), c2).PlannedState, c2)
	h.Destroy(s2)
	return s
}

func TestRandomID(t *testing.T) {
	h := harness(t, "random_id")
	s := lifecycleReplace(t, h, `
byte_length = 8
prefix = "p-"
keepers = { ami = "1" }`, `
byte_length = 8
prefix = "p-"
keepers = { ami = "2" }`, []string{"keepers"})

	raw, err := base64.RawURLEncoding.DecodeString(s.GetAttr("id").AsString())
	if err != nil || len(raw) != 8 {
		t.Fatalf("id %q is not 8 bytes of base64url: %v", s.GetAttr("id").AsString(), err)
	}
	want := map[string]string{
		"b64_url": "p-" + base64.RawURLEncoding.EncodeToString(raw),
		"b64_std": "p-" + base64.StdEncoding.EncodeToString(raw),
		"hex":     "p-" + hex.EncodeToString(raw),
		"dec":     "p-" + new(big.Int).SetBytes(raw).String(),
	}
	for k, w := range want {
		if got := s.GetAttr(k).AsString(); got != w {
			t.Errorf("%s = %q, want %q", k, got, w)
		}
	}

	imp, diags := h.Import("p-,AQID")
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if imp.GetAttr("hex").AsString() != "p-010203" || imp.GetAttr("dec").AsString() != "p-66051" || imp.GetAttr("byte_length").RawEquals(cty.NumberIntVal(3)) != true {
		t.Fatalf("import: %#v", imp)
	}
	if _, diags := h.Import("!!"); !diags.HasErrors() {
		t.Fatal("bad import id accepted")
	}
	if d := h.Invalid(`byte_length = 0`); !d.HasErrors() {
		t.Fatal("byte_length 0 accepted")
	}
}

func TestRandomString(t *testing.T) {
	h := harness(t, "random_string")
	s := lifecycleReplace(t, h, `length = 16`, `
length = 16
special = false`, []string{"special"})
	res := s.GetAttr("result").AsString()
	if len(res) != 16 || s.GetAttr("id").AsString() != res {
		t.Fatalf("result %q id %q", res, s.GetAttr("id").AsString())
	}
	for k, want := range map[string]cty.Value{"special": cty.True, "upper": cty.True, "lower": cty.True, "numeric": cty.True, "number": cty.True, "min_upper": cty.Zero} {
		if got := s.GetAttr(k); !got.RawEquals(want) {
			t.Errorf("default %s = %#v", k, got)
		}
	}

	tests := []struct {
		cfg   string
		check func(string) bool
	}{
		{"length = 40\nspecial = false\nupper = false\nnumeric = false", regexp.MustCompile(`^[a-z]{40}$`).MatchString},
		{"length = 30\nspecial = false\nlower = false\nnumber = false", regexp.MustCompile(`^[A-Z]{30}$`).MatchString},
		{"length = 12\nupper = false\nlower = false\nnumeric = false\noverride_special = \"_\"", regexp.MustCompile(`^_{12}$`).MatchString},
		{"length = 10\nmin_upper = 3\nmin_numeric = 3\nmin_special = 2\nmin_lower = 2", func(s string) bool {
			return count(s, unicode.IsUpper) >= 3 && count(s, unicode.IsDigit) >= 3 && count(s, unicode.IsLower) >= 2 &&
				count(s, func(r rune) bool { return strings.ContainsRune(specialChars, r) }) >= 2
		}},
		{"length = 8\noverride_special = \"é\"\nupper = false\nlower = false\nnumeric = false", func(s string) bool { return s == strings.Repeat("é", 8) }},
	}
	for _, tt := range tests {
		for range 5 {
			got := h.Create(h.Config(tt.cfg)).GetAttr("result").AsString()
			if !tt.check(got) {
				t.Errorf("%q: result %q breaks the rules", tt.cfg, got)
			}
		}
	}
	for _, bad := range []string{"length = 0", "length = 3\nmin_upper = 2\nmin_lower = 2", "length = 5\nnumber = true\nnumeric = false"} {
		if d := h.Invalid(bad); !d.HasErrors() {
			t.Errorf("%q accepted", bad)
		}
	}
	if d := h.Invalid("length = 5\nresult = \"x\""); !d.HasErrors() || !strings.Contains(d[0].Detail, `"result"`) {
		t.Errorf("setting computed-only result: %v", d)
	}

	// v1 state (no numeric) upgrades with numeric taken from number.
	up, diags := h.Upgrade(1, `{"id":"abc","result":"abc","length":3,"number":false,"special":true,"upper":true,"lower":true,"min_numeric":0,"min_upper":0,"min_lower":0,"min_special":0,"override_special":"","keepers":null}`)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if !up.GetAttr("numeric").RawEquals(cty.False) {
		t.Fatalf("numeric after upgrade: %#v", up.GetAttr("numeric"))
	}
	if _, diags := h.Upgrade(3, `{}`); !diags.HasErrors() {
		t.Fatal("future version accepted")
	}
	imp, diags := h.Import("hello")
	if diags.HasErrors() || imp.GetAttr("result").AsString() != "hello" || !imp.GetAttr("length").RawEquals(cty.NumberIntVal(5)) {
		t.Fatalf("import: %#v %v", imp, diags)
	}
}

func count(s string, f func(rune) bool) int {
	n := 0
	for _, r := range s {
		if f(r) {
			n++
		}
	}
	return n
}

func TestRandomPassword(t *testing.T) {
	h := harness(t, "random_password")
	sch := New().GetProviderSchema().ResourceTypes["random_password"]
	if sch.Version != 3 || !sch.Block.Attributes["result"].Sensitive || !sch.Block.Attributes["bcrypt_hash"].Sensitive {
		t.Fatalf("random_password schema: version %d, result sensitive %v", sch.Version, sch.Block.Attributes["result"].Sensitive)
	}
	if New().GetProviderSchema().ResourceTypes["random_string"].Block.Attributes["result"].Sensitive {
		t.Fatal("random_string.result must not be sensitive")
	}
	s := lifecycleReplace(t, h, `length = 20`, `length = 21`, []string{"length"})
	res := s.GetAttr("result").AsString()
	if s.GetAttr("id").AsString() != "none" || len(res) != 20 {
		t.Fatalf("id %q result %q", s.GetAttr("id").AsString(), res)
	}
	if err := bcrypt.CompareHashAndPassword([]byte(s.GetAttr("bcrypt_hash").AsString()), []byte(res)); err != nil {
		t.Fatalf("bcrypt_hash does not match result: %v", err)
	}
	var paths []string
	for _, p := range sch.Block.SensitivePaths(s) {
		paths = append(paths, configschema.FormatPath(p))
	}
	if diff := cmp.Diff([]string{"bcrypt_hash", "result"}, paths); diff != "" {
		t.Fatal(diff)
	}
	up, diags := h.Upgrade(2, `{"id":"none","result":"pw","length":2}`)
	if diags.HasErrors() || bcrypt.CompareHashAndPassword([]byte(up.GetAttr("bcrypt_hash").AsString()), []byte("pw")) != nil {
		t.Fatalf("upgrade did not add a bcrypt_hash: %v", diags)
	}
}

func TestRandomInteger(t *testing.T) {
	h := harness(t, "random_integer")
	lifecycleReplace(t, h, "min = 1\nmax = 3", "min = 1\nmax = 4", []string{"max"})
	seen := map[int64]bool{}
	for range 60 {
		s := h.Create(h.Config("min = -2\nmax = 2"))
		bf := s.GetAttr("result").AsBigFloat()
		n, _ := bf.Int64()
		if n < -2 || n > 2 || s.GetAttr("id").AsString() != bf.Text('f', -1) {
			t.Fatalf("result %d id %q", n, s.GetAttr("id").AsString())
		}
		seen[n] = true
	}
	if len(seen) < 3 {
		t.Fatalf("60 draws from [-2,2] gave only %v", seen)
	}
	a := h.Create(h.Config("min = 1\nmax = 1000000\nseed = \"x\"")).GetAttr("result")
	b := h.Create(h.Config("min = 1\nmax = 1000000\nseed = \"x\"")).GetAttr("result")
	if !a.RawEquals(b) {
		t.Fatalf("same seed gave %#v and %#v", a, b)
	}
	if d := h.Invalid("min = 5\nmax = 1"); !d.HasErrors() {
		t.Fatal("min > max accepted")
	}
	imp, diags := h.Import("15,1,20,s")
	if diags.HasErrors() || !imp.GetAttr("result").RawEquals(cty.NumberIntVal(15)) || imp.GetAttr("seed").AsString() != "s" {
		t.Fatalf("import %#v %v", imp, diags)
	}
	if _, diags := h.Import("15,1"); !diags.HasErrors() {
		t.Fatal("short import id accepted")
	}
}

func TestRandomUUID(t *testing.T) {
	h := harness(t, "random_uuid")
	s := lifecycleReplace(t, h, `keepers = { a = "1" }`, `keepers = { a = "2" }`, []string{"keepers"})
	if !regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`).MatchString(s.GetAttr("result").AsString()) {
		t.Fatalf("not a UUID: %q", s.GetAttr("result").AsString())
	}
	if _, diags := h.Import("nope"); !diags.HasErrors() {
		t.Fatal("bad uuid imported")
	}
	// The real provider stores an imported UUID re-formatted (lower-case).
	imp, diags := h.Import("6BA7B810-9DAD-11D1-80B4-00C04FD430C8")
	if diags.HasErrors() || imp.GetAttr("result").AsString() != "6ba7b810-9dad-11d1-80b4-00c04fd430c8" || imp.GetAttr("id").AsString() != "6ba7b810-9dad-11d1-80b4-00c04fd430c8" {
		t.Fatalf("import of an upper-case UUID: %#v %v", imp, diags)
	}
}

func TestRandomShuffle(t *testing.T) {
	h := harness(t, "random_shuffle")
	s := lifecycleReplace(t, h, `input = ["a","b","c","d"]`, `input = ["a","b","c"]`, []string{"input"})
	var got []string
	for _, v := range s.GetAttr("result").AsValueSlice() {
		got = append(got, v.AsString())
	}
	sort.Strings(got)
	if diff := cmp.Diff([]string{"a", "b", "c", "d"}, got); diff != "" {
		t.Fatalf("not a permutation: %s", diff)
	}
	r := h.Create(h.Config("input = [\"a\",\"b\"]\nresult_count = 5")).GetAttr("result")
	if r.LengthInt() != 5 {
		t.Fatalf("result_count 5 gave %d", r.LengthInt())
	}
	cfg := "input = [\"a\",\"b\",\"c\",\"d\",\"e\",\"f\"]\nseed = \"k\""
	if a, b := h.Create(h.Config(cfg)).GetAttr("result"), h.Create(h.Config(cfg)).GetAttr("result"); !a.RawEquals(b) {
		t.Fatal("same seed, different shuffles")
	}
	// result_count = 0 means one result per input element, as in the
	// real provider.
	if r := h.Create(h.Config("input = [\"a\",\"b\",\"c\"]\nresult_count = 0")).GetAttr("result"); r.LengthInt() != 3 {
		t.Fatalf("result_count 0 gave %d results, want 3", r.LengthInt())
	}
	if e := h.Create(h.Config(`input = []`)).GetAttr("result"); e.LengthInt() != 0 {
		t.Fatal("empty input gave results")
	}
}

func TestRandomPet(t *testing.T) {
	h := harness(t, "random_pet")
	s := lifecycleReplace(t, h, `prefix = "web"`, "prefix = \"web\"\nlength = 3", []string{"length"})
	parts := strings.Split(s.GetAttr("id").AsString(), "-")
	if len(parts) != 3 || parts[0] != "web" || !s.GetAttr("length").RawEquals(cty.NumberIntVal(2)) || s.GetAttr("separator").AsString() != "-" {
		t.Fatalf("pet %q", s.GetAttr("id").AsString())
	}
	if id := h.Create(h.Config(`prefix = ""`)).GetAttr("id").AsString(); strings.HasPrefix(id, "-") || len(strings.Split(id, "-")) != 2 {
		t.Errorf("empty prefix gave %q", id)
	}
	for n := 1; n <= 4; n++ {
		id := h.Create(h.Config("separator = \"_\"\nlength = " + string(rune('0'+n)))).GetAttr("id").AsString()
		words := strings.Split(id, "_")
		if len(words) != n || !contains(petNames, words[n-1]) || (n >= 2 && !contains(petAdjectives, words[n-2])) {
			t.Errorf("length %d gave %q", n, id)
		}
		for _, w := range words[:max(0, n-2)] {
			if !contains(petAdverbs, w) {
				t.Errorf("length %d: %q is not an adverb", n, w)
			}
		}
	}
}

func contains(list []string, w string) bool {
	for _, x := range list {
		if x == w {
			return true
		}
	}
	return false
}

func TestRandomBytes(t *testing.T) {
	h := harness(t, "random_bytes")
	s := lifecycleReplaceNoID(t, h, `length = 16`, "length = 16\nkeepers = { a = null }", []string{"keepers"})
	raw, err := base64.StdEncoding.DecodeString(s.GetAttr("base64").AsString())
	if err != nil || len(raw) != 16 || s.GetAttr("hex").AsString() != hex.EncodeToString(raw) {
		t.Fatalf("base64 %q hex %q: %v", s.GetAttr("base64").AsString(), s.GetAttr("hex").AsString(), err)
	}
	sch := New().GetProviderSchema().ResourceTypes["random_bytes"].Block
	if !sch.Attributes["base64"].Sensitive || !sch.Attributes["hex"].Sensitive {
		t.Fatal("random_bytes encodings must be sensitive")
	}
	imp, diags := h.Import("AQID")
	if diags.HasErrors() || imp.GetAttr("hex").AsString() != "010203" || !imp.GetAttr("length").RawEquals(cty.NumberIntVal(3)) {
		t.Fatalf("import: %#v %v", imp, diags)
	}
	if _, diags := h.Import("AQID-_"); !diags.HasErrors() {
		t.Fatal("URL-safe base64 accepted")
	}
	if d := h.Invalid(`length = 0`); !d.HasErrors() {
		t.Fatal("length 0 accepted")
	}
}

// lifecycleReplaceNoID is lifecycleReplace for a type without an id
// attribute (random_bytes): create, read, no-op re-plan, replacement.
func lifecycleReplaceNoID(t *testing.T, h *lifecycle.Harness, cfg, changed string, wantReplace []string) cty.Value {
	t.Helper()
	c := h.Config(cfg)
	s := h.Create(c)
	if got := h.Read(s); !got.RawEquals(s) {
		t.Fatalf("read changed state: %#v", got)
	}
	if again := h.Plan(s, c); len(again.RequiresReplace) != 0 || !again.PlannedState.RawEquals(s) {
		t.Fatalf("unchanged config did not plan a no-op: %v", again.RequiresReplace)
	}
	rp := h.Plan(s, h.Config(changed))
	if diff := cmp.Diff(wantReplace, lifecycle.ReplacePaths(rp.RequiresReplace)); diff != "" {
		t.Fatalf("RequiresReplace (-want +got)\n%s", diff)
	}
	h.Destroy(s)
	return s
}

// TestRandomUUIDVersions: random_uuid4 and random_uuid7 (random 3.8+) have
// random_uuid's lifecycle and a UUID of their version and the RFC 9562
// variant; version 7 UUIDs begin with their creation time in milliseconds.
func TestRandomUUIDVersions(t *testing.T) {
	for _, v := range []string{"4", "7"} {
		t.Run("random_uuid"+v, func(t *testing.T) {
			h := harness(t, "random_uuid"+v)
			before := time.Now().UnixMilli()
			s := lifecycleReplace(t, h, `keepers = { a = "1" }`, `keepers = { a = "2" }`, []string{"keepers"})
			after := time.Now().UnixMilli()
			u := s.GetAttr("result").AsString()
			if !regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-`+v+`[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`).MatchString(u) || s.GetAttr("id").AsString() != u {
				t.Fatalf("not a version %s UUID: %q (id %q)", v, u, s.GetAttr("id").AsString())
			}
			if v == "7" {
				ms, err := strconv.ParseInt(strings.ReplaceAll(u[:13], "-", ""), 16, 64)
				if err != nil || ms < before || ms > after {
					t.Fatalf("timestamp %d of %s is not between %d and %d (%v)", ms, u, before, after, err)
				}
			}
			// keepers gaining a null value updates in place.
			c := h.Config(`keepers = { a = "1" }`)
			s = h.Create(c)
			if pl := h.Plan(s, h.Config(`keepers = { a = "1", b = null }`)); len(pl.RequiresReplace) != 0 {
				t.Fatalf("null keeper replaces: %v", pl.RequiresReplace)
			}
			imp, diags := h.Import("6BA7B810-9DAD-11D1-80B4-00C04FD430C8")
			if diags.HasErrors() || imp.GetAttr("result").AsString() != "6ba7b810-9dad-11d1-80b4-00c04fd430c8" {
				t.Fatalf("import: %#v %v", imp, diags)
			}
			if _, diags := h.Import("nope"); !diags.HasErrors() {
				t.Fatal("bad uuid imported")
			}
		})
	}
}

// TestRandomStringNoCharacterClass: disabling every character class is a
// validation error, as in the real provider, so plan reports it; one
// class left on (explicitly or by default), or an unknown one, is valid.
func TestRandomStringNoCharacterClass(t *testing.T) {
	for _, typ := range []string{"random_string", "random_password"} {
		h := harness(t, typ)
		for _, bad := range []string{
			"length = 8\nupper = false\nlower = false\nnumeric = false\nspecial = false",
			"length = 8\nupper = false\nlower = false\nnumber = false\nspecial = false",
			"length = 8\nupper = false\nlower = false\nnumeric = false\nnumber = false\nspecial = false",
		} {
			d := h.Invalid(bad)
			if !d.HasErrors() || d[0].Summary != "Invalid Attribute Combination" {
				t.Errorf("%s %q: %v, want Invalid Attribute Combination", typ, bad, d)
			}
		}
		for _, good := range []string{
			"length = 8\nupper = false\nlower = false\nnumeric = false",
			"length = 8\nupper = false\nlower = false\nspecial = false",
			"length = 8\nupper = false\nnumeric = false\nspecial = false",
			"length = 8\nlower = false\nnumeric = false\nspecial = false",
		} {
			if d := h.Invalid(good); d.HasErrors() {
				t.Errorf("%s %q: %s", typ, good, d.Error())
			}
		}
	}
}
