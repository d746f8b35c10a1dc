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
	for _, s := range []string{`"v0"`, `""`, `"a\"b\\c\u00e9"`, `"e\u0301"`, `"${x}"`, `"$${x}"`, `"%{ if true }a%{ endif }"`, `1`, `null`, `[1, "a"]`, "<<EOT\nx\nEOT\n", `test.a.id`, `"\u2028<>&"`} {
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
