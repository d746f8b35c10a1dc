package jsonplan

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/providers/configschema"
)

// fastTestSchema has attributes and a nested block, so both shortcut
// cases (no blocks) and declined ones (blocks) occur.
var fastTestSchema = &configschema.Block{
	Attributes: map[string]*configschema.Attribute{
		"input": {Type: cty.DynamicPseudoType, Optional: true},
		"other": {Type: cty.DynamicPseudoType, Optional: true},
		"count": {Type: cty.Number, Optional: true}, // hidden by the resource's own decoding
	},
	BlockTypes: map[string]*configschema.NestedBlock{
		"nested": {Nesting: configschema.NestingList, Block: configschema.Block{Attributes: map[string]*configschema.Attribute{"x": {Type: cty.String, Optional: true}}}},
	},
}

// checkFastMatchesSlow compares the shortcuts with the general path for
// a body and each of its arguments.
func checkFastMatchesSlow(t *testing.T, what string, body hcl.Body, schema *configschema.Block) {
	t.Helper()
	if diff := cmp.Diff(rawStrings(marshalBodySlow(body, schema)), rawStrings(marshalBody(body, schema))); diff != "" {
		t.Errorf("%s: body differs from the general path (-slow +fast):\n%s", what, diff)
	}
	if sb, ok := body.(*hclsyntax.Body); ok {
		for name, a := range sb.Attributes {
			if slow, fast := string(marshalExprSlow(a.Expr)), string(marshalExpr(a.Expr)); slow != fast {
				t.Errorf("%s: argument %s: %s, the general path gives %s", what, name, fast, slow)
			}
		}
	}
}

func rawStrings(m map[string]json.RawMessage) map[string]string {
	if m == nil {
		return nil
	}
	out := map[string]string{}
	for k, v := range m {
		out[k] = string(v)
	}
	return out
}

// TestConfigFastMatchesSlow: for resources of every shape the
// configuration section meets (meta-arguments the resource decoding
// hides, nested blocks, literals, templates, escapes, heredocs, unicode
// that normalisation changes, references), the shortcuts give the bytes
// of the general path, taken or declined.
func TestConfigFastMatchesSlow(t *testing.T) {
	src := `
resource "test_thing" "plain" {
  input = "v0"
}
resource "test_thing" "meta" {
  count    = 2
  input    = "a<&>\u2028\"\\"
  other    = "caf` + "e\u0301" + `"
  provider = test
  depends_on = [test_thing.plain]
  lifecycle {
    create_before_destroy = true
  }
}
resource "test_thing" "each" {
  for_each = toset(["a"])
  input    = "${each.key}-x"
  other    = "$${not} %%{ interpolated }"
}
resource "test_thing" "kinds" {
  input = ""
  other = 12.50
  unknown_to_schema = "dropped"
}
resource "test_thing" "more" {
  input = true
  other = null
}
resource "test_thing" "collections" {
  input = ["a", 1, { k = "v" }]
  other = <<EOT
heredoc ${"x"}
EOT
}
resource "test_thing" "refs" {
  input = test_thing.plain.id
  other = "${test_thing.kinds.input}/${var.v}"
}
resource "test_thing" "blocks" {
  input = "v"
  nested {
    x = "y"
  }
}
resource "test_thing" "escapes" {
  input = "tab\there\nnl \u00e9 \U0001F600"
  other = "%{ if true }y%{ endif }"
}
variable "v" {
  default = "d"
}
`
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, diags := configs.LoadConfigDir(dir)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	took := 0
	for name, r := range cfg.Module.ManagedResources {
		checkFastMatchesSlow(t, name, r.Config, fastTestSchema)
		checkFastMatchesSlow(t, name+" without a schema", r.Config, nil)
		if _, ok := marshalBodyFast(r.Config, fastTestSchema); ok {
			took++
		}
	}
	if took < 5 {
		t.Errorf("the body shortcut was taken for %d resources; the test no longer covers it", took)
	}
}

// FuzzConfigFastMatchesSlow: an argument of any source, in a resource
// body whose count and provider the resource decoding has taken, gives
// the same JSON by the shortcuts as by the general path.
func FuzzConfigFastMatchesSlow(f *testing.F) {
	for _, s := range []string{`"v0"`, `""`, `"a\"b\\c\u00e9"`, `"e\u0301"`, `"${x}"`, `"$${x}"`, `"%{ if true }a%{ endif }"`, `1`, `null`, `[1, "a"]`, "<<EOT\nx\nEOT\n", `test.a.id`, `"\u2028<>&"`, `{ idx = 0, name = "r0" }`, `{ b = [1, "x"], "a b" = { c = true } }`, `{ a = 1, a = 2 }`, `{ (k) = 1 }`, `{ a.b = 1 }`, "{ e\u0301 = 1 }"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	meta := &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "count"}, {Name: "provider"}}, Blocks: []hcl.BlockHeaderSchema{{Type: "lifecycle"}}}
	f.Fuzz(func(t *testing.T, expr string, block bool) {
		src := "resource \"test_thing\" \"r\" {\n  input = " + expr + "\n  count = 1\n  other = \"o\"\n"
		if block {
			src += "  nested {\n    x = " + expr + "\n  }\n"
		}
		src += "}\n"
		file, diags := hclsyntax.ParseConfig([]byte(src), "main.tf", hcl.InitialPos)
		if diags.HasErrors() {
			return
		}
		body := file.Body.(*hclsyntax.Body)
		if len(body.Blocks) != 1 {
			return
		}
		_, remain, _ := body.Blocks[0].Body.PartialContent(meta)
		checkFastMatchesSlow(t, "fuzz", remain, fastTestSchema)
		checkFastMatchesSlow(t, "fuzz without a schema", remain, nil)
	})
}

// TestMarshalExprStatic: constructors of literals are written from the
// syntax tree (the shortcut is taken) with the JSON evaluation gives, and
// the static shapes whose evaluation differs from their spelling
// (a repeated key: the last wins; a bare name that NFC changes) are
// declined to the general path, which gives the expected value too.
func TestMarshalExprStatic(t *testing.T) {
	tests := []struct {
		src      string
		want     string
		wantFast bool
	}{
		{`{ idx = 0, name = "r0" }`, `{"constant_value":{"idx":0,"name":"r0"}}`, true},
		{`{ name = "r0", idx = 0 }`, `{"constant_value":{"idx":0,"name":"r0"}}`, true},
		{`{ b = [1, "x", null, 12.50], "a b" = { c = true } }`, `{"constant_value":{"a b":{"c":true},"b":[1,"x",null,12.5]}}`, true},
		{`{}`, `{"constant_value":{}}`, true},
		{`[]`, `{"constant_value":[]}`, true},
		{`[[], {}, ""]`, `{"constant_value":[[],{},""]}`, true},
		{`12.50`, `{"constant_value":12.5}`, true},
		{`null`, `{"constant_value":null}`, true},
		{"{ \"e\u0301\" = 1 }", "{\"constant_value\":{\"\u00e9\":1}}", true},
		{`{ a = 1, a = 2 }`, `{"constant_value":{"a":2}}`, false},
		{"{ e\u0301 = 1 }", "{\"constant_value\":{\"\u00e9\":1}}", false},
		{`{ a = "x$${y}" }`, `{"constant_value":{"a":"x${y}"}}`, true},
		{`{ (var.k) = 1 }`, `{"references":["var.k"]}`, false},
		{`{ a = var.v }`, `{"references":["var.v"]}`, false},
		{`[-1]`, `{"constant_value":[-1]}`, false},
	}
	for _, tt := range tests {
		expr, diags := hclsyntax.ParseExpression([]byte(tt.src), "main.tf", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatalf("%s: %s", tt.src, diags.Error())
		}
		fast, ok := marshalExprFast(expr)
		if ok != tt.wantFast {
			t.Errorf("%s: shortcut taken %t, want %t", tt.src, ok, tt.wantFast)
		}
		if ok && string(fast) != tt.want {
			t.Errorf("%s: shortcut gives %s, want %s", tt.src, fast, tt.want)
		}
		if got := string(marshalExpr(expr)); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.src, got, tt.want)
		}
		if slow := string(marshalExprSlow(expr)); slow != tt.want {
			t.Errorf("%s: the general path gives %s, want %s", tt.src, slow, tt.want)
		}
	}
}
