package terraform

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/dynblock"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/lang"
	"github.com/plankit/plankit/internal/lang/marks"
	"github.com/plankit/plankit/providers/configschema"
)

// TestFastBodyMatchesHCLDec checks that evalBody's fast path either
// declines (and hcldec decodes, with its diagnostics) or returns exactly
// the value hcldec.Decode returns for the same body, spec and context.
func TestFastBodyMatchesHCLDec(t *testing.T) {
	attrsOnly := &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"s":    {Type: cty.String, Optional: true},
		"n":    {Type: cty.Number, Optional: true},
		"d":    {Type: cty.DynamicPseudoType, Optional: true},
		"l":    {Type: cty.List(cty.String), Optional: true},
		"req":  {Type: cty.String, Required: true},
		"id":   {Type: cty.String, Computed: true},
		"both": {Type: cty.String, Optional: true, Computed: true},
	}}
	withBlock := &configschema.Block{
		Attributes: map[string]*configschema.Attribute{"s": {Type: cty.String, Optional: true}},
		BlockTypes: map[string]*configschema.NestedBlock{"b": {Nesting: configschema.NestingList, Block: configschema.Block{
			Attributes: map[string]*configschema.Attribute{"x": {Type: cty.String, Optional: true}}}}},
	}
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{
		"count":  cty.ObjectVal(map[string]cty.Value{"index": cty.NumberIntVal(2)}),
		"secret": cty.StringVal("pw").Mark(marks.Sensitive),
		"u":      cty.UnknownVal(cty.String),
	}}
	tests := []struct {
		name   string
		schema *configschema.Block
		src    string
		fast   bool // the fast path returns the value (no diagnostics)
	}{
		{"strings and conversions", attrsOnly, `req = "r${count.index}"
s = count.index
n = "3"
l = ["a", count.index]`, true},
		{"dynamic object", attrsOnly, `req = "r"
d = { a = count.index, b = [true] }`, true},
		{"unset optional and computed are null", attrsOnly, `req = "r"`, true},
		{"sensitive and unknown", attrsOnly, `req = secret
s = u`, true},
		{"computed-only argument set", attrsOnly, `req = "r"
id = "x"`, false},
		{"wrong type", attrsOnly, `req = "r"
s = ["a"]`, false},
		{"evaluation error", attrsOnly, `req = "r"
s = nope`, false},
		{"unknown argument", attrsOnly, `req = "r"
bogus = 1`, false},
		{"missing required", attrsOnly, `s = "x"`, false},
		{"block not in schema", attrsOnly, `req = "r"
b {}`, false},
		{"dynamic block", attrsOnly, `req = "r"
dynamic "b" {
  for_each = [1]
  content {}
}`, false},
		{"schema with blocks", withBlock, `s = "x"`, false},
		{"invalid reference", attrsOnly, `req = "r"
s = count.foo`, false},
		{"several references", attrsOnly, `req = "${var.a}-${local.b}"
s = data.t.x.id
l = [aws_thing.y[0].id, module.m.out]`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, diags := hclsyntax.ParseConfig([]byte(tt.src), "main.tf", hcl.InitialPos)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			spec := tt.schema.DecoderSpec()
			want, wantDiags := hcldec.Decode(dynblock.Expand(f.Body, ctx), spec, ctx)
			var fb fastBody
			fs := newFastSpec(spec)
			wantRefs, refDiags := lang.ReferencesInBlock(f.Body, spec)
			if refs, diags, ok := fb.references(f.Body, nil, fs); ok {
				if len(diags) != len(refDiags) {
					t.Errorf("reference diagnostics %v, want %v", diags, refDiags)
				}
				if diff := cmp.Diff(refStrings(wantRefs), refStrings(refs)); diff != "" {
					t.Errorf("references (-ReferencesInBlock +fast):\n%s", diff)
				}
			}
			for i := range 2 { // two instances share the bound attributes
				tmpl, exprs := fb.bind(f.Body, nil, fs)
				got, ok := cty.NilVal, false
				if tmpl != nil {
					got, ok = decodeFast(tmpl, exprs, ctx)
				}
				if ok != tt.fast {
					t.Fatalf("instance %d: fast path ok=%v, want %v (hcldec diagnostics: %v)", i, ok, tt.fast, wantDiags)
				}
				if !ok {
					if tmpl != nil && len(wantDiags) == 0 {
						t.Fatalf("fast path failed on a body hcldec decodes without diagnostics")
					}
					continue
				}
				if len(wantDiags) > 0 {
					t.Fatalf("fast path accepted a body hcldec reports: %v", wantDiags)
				}
				if !got.RawEquals(want) {
					t.Errorf("instance %d: fast path = %#v\nhcldec = %#v", i, got, want)
				}
			}
		})
	}
}

// TestPlanCountInstanceErrorAfterFastPath checks that an instance whose
// body fails to evaluate still reports hcldec's diagnostic, with its
// source range, after other instances of the resource took the fast path.
func TestPlanCountInstanceErrorAfterFastPath(t *testing.T) {
	cfg := loadConfig(t, map[string]string{"main.tf": `
resource "terraform_data" "r" {
  count = 4
  input = count.index == 3 ? file("no-such-file.txt") : "v${count.index}"
}
`})
	c := builtinContext(t)
	_, diags := c.Plan(context.Background(), cfg, nil, nil)
	if !diags.HasErrors() {
		t.Fatal("plan succeeded; want the file() error of terraform_data.r[3]")
	}
	msg := diags.Error()
	if !strings.Contains(msg, "no-such-file.txt") || !strings.Contains(msg, "main.tf:4") {
		t.Errorf("diagnostics %q do not name the missing file at main.tf:4", msg)
	}
}

// refStrings are the sorted subjects and ranges of refs.
func refStrings(refs []*addrs.Reference) []string {
	var out []string
	for _, r := range refs {
		out = append(out, r.Subject.String()+" "+r.SourceRange.String())
	}
	slices.Sort(out)
	return out
}

// TestFastBodyBindResourceSameAsContent: binding a resource's body through
// configs.Resource.ConfigAttributes gives the attributes and expressions
// that matching the body with Content gives, in the same order, and
// declines where Content reports a problem.
func TestFastBodyBindResourceSameAsContent(t *testing.T) {
	schema := &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"s":   {Type: cty.String, Optional: true},
		"n":   {Type: cty.Number, Optional: true},
		"l":   {Type: cty.List(cty.String), Optional: true},
		"req": {Type: cty.String, Required: true},
		"id":  {Type: cty.String, Computed: true},
	}}
	cfg := loadConfig(t, map[string]string{"main.tf": `
resource "test_thing" "all" {
  count = 2
  req   = "r"
  s     = "x${count.index}"
  n     = 1
  l     = ["a"]
  lifecycle {
    create_before_destroy = true
  }
}
resource "test_thing" "some" {
  req = "r"
  l   = []
}
resource "test_thing" "missing" {
  s = "x"
}
resource "test_thing" "unknown" {
  req   = "r"
  bogus = 1
}
`})
	// The spec's attributes and its implied schema's come in map order:
	// several specs make sure the two orders differ in some.
	for range 20 {
		fs := newFastSpec(schema.DecoderSpec())
		if tmpl, _ := fs.get(); tmpl == nil || fs.attrSchema == nil {
			t.Fatal("the schema is not prepared for ConfigAttributes")
		}
		checkBindResource(t, cfg, fs)
	}
}

func checkBindResource(t *testing.T, cfg *configs.Config, fs *fastSpec) {
	t.Helper()
	for name, res := range cfg.Module.ManagedResources {
		var viaResource, viaContent fastBody
		gotT, gotE := viaResource.bind(res.Config, res, fs)
		wantT, wantE := viaContent.bind(res.Config, nil, fs)
		if (gotT == nil) != (wantT == nil) || len(gotE) != len(wantE) {
			t.Fatalf("%s: bound %d attributes, Content %d", name, len(gotE), len(wantE))
		}
		for i := range gotE {
			if gotT[i].name != wantT[i].name || gotE[i] != wantE[i] {
				t.Fatalf("%s: attribute %d is %s=%v, Content gives %s=%v", name, i, gotT[i].name, gotE[i], wantT[i].name, wantE[i])
			}
		}
		if ok := gotT != nil; ok != (name == "test_thing.all" || name == "test_thing.some") {
			t.Fatalf("%s: bound = %v", name, ok)
		}
	}
}
