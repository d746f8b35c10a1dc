package configs

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// attrTestSchemas are the attribute-only schemas ConfigAttributes is
// checked with: optional and required arguments, and arguments named like
// meta-arguments (which the resource block takes first).
var attrTestSchemas = []*hcl.BodySchema{
	{Attributes: []hcl.AttributeSchema{{Name: "a"}, {Name: "b"}}},
	{Attributes: []hcl.AttributeSchema{{Name: "a"}, {Name: "b", Required: true}}},
	{Attributes: []hcl.AttributeSchema{{Name: "a"}, {Name: "count"}, {Name: "provider", Required: true}}},
	{Attributes: []hcl.AttributeSchema{{Name: "lifecycle"}, {Name: "depends_on"}}},
	{},
}

// checkConfigAttributes compares ConfigAttributes with Content for every
// resource and data source src declares, against every test schema.
func checkConfigAttributes(t *testing.T, src []byte) {
	f, diags := hclsyntax.ParseConfig(src, "main.tf", hcl.InitialPos)
	if diags.HasErrors() {
		return
	}
	file, _ := decodeFile(f.Body, false)
	if file == nil {
		return
	}
	var rs []*Resource
	rs = append(rs, file.managedResources...)
	rs = append(rs, file.dataResources...)
	for _, c := range file.checks {
		if c.DataResource != nil {
			rs = append(rs, c.DataResource)
		}
	}
	for _, r := range rs {
		for si, schema := range attrTestSchemas {
			as, ok := NewAttributeSchema(schema)
			if !ok {
				t.Fatalf("schema %d refused", si)
			}
			exprs, ok := r.ConfigAttributes(as)
			content, diags := r.Config.Content(schema)
			want := len(diags) == 0 && len(content.Blocks) == 0
			if ok != want {
				t.Fatalf("%s, schema %d: ConfigAttributes ok=%v, Content diagnostics %v", r.Addr(), si, ok, diags)
			}
			if !ok {
				continue
			}
			for i, a := range schema.Attributes {
				var w hcl.Expression
				if attr, present := content.Attributes[a.Name]; present {
					w = attr.Expr
				}
				if exprs[i] != w {
					t.Fatalf("%s, schema %d: %s is %v, Content gives %v", r.Addr(), si, a.Name, exprs[i], w)
				}
			}
		}
	}
}

// TestConfigAttributesMatchContent: ConfigAttributes accepts a resource
// body exactly when Content does without any diagnostic, with the same
// expressions.
func TestConfigAttributesMatchContent(t *testing.T) {
	for _, src := range []string{
		`resource "t" "x" {}`,
		`resource "t" "x" { a = 1 }`,
		`resource "t" "x" { b = 2 }`,
		"resource \"t\" \"x\" {\n  a = 1\n  b = 2\n  count = 3\n}",
		"resource \"t\" \"x\" {\n  a = 1\n  c = 2\n}",
		"resource \"t\" \"x\" {\n  b = 1\n  provider = t.y\n}",
		"resource \"t\" \"x\" {\n  b = 1\n  depends_on = [t.z]\n  lifecycle {\n    create_before_destroy = true\n  }\n}",
		"resource \"t\" \"x\" {\n  b = 1\n  nested {\n  }\n}",
		"resource \"t\" \"x\" {\n  b = 1\n  dynamic \"nested\" {\n    for_each = []\n    content {}\n  }\n}",
		"resource \"t\" \"x\" {\n  b = 1\n  provisioner \"local-exec\" {\n    command = \"x\"\n  }\n  connection {\n    host = \"h\"\n  }\n}",
		"data \"t\" \"x\" {\n  b = 1\n  for_each = {}\n}",
		"check \"c\" {\n  data \"t\" \"x\" {\n    b = 1\n  }\n  assert {\n    condition = true\n    error_message = \"m\"\n  }\n}",
	} {
		checkConfigAttributes(t, []byte(src))
	}
}

// TestConfigAttributesOnlyDecodedBody: once Config is not the body the
// block was decoded into (an override merged in, generated configuration),
// ConfigAttributes declines and the caller uses Content.
func TestConfigAttributesOnlyDecodedBody(t *testing.T) {
	f, _ := hclsyntax.ParseConfig([]byte("resource \"t\" \"x\" {\n  a = 1\n}\n"), "main.tf", hcl.InitialPos)
	file, diags := decodeFile(f.Body, false)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	r := file.managedResources[0]
	as, _ := NewAttributeSchema(attrTestSchemas[0])
	if _, ok := r.ConfigAttributes(as); !ok {
		t.Fatal("declined the decoded body")
	}
	r.Config = mergeBodies(r.Config, r.Config)
	if _, ok := r.ConfigAttributes(as); ok {
		t.Fatal("accepted a merged body")
	}
	_, r.Config, _ = f.Body.PartialContent(&hcl.BodySchema{})
	if _, ok := r.ConfigAttributes(as); ok {
		t.Fatal("accepted another native body")
	}
	if _, ok := NewAttributeSchema(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "b"}}}); ok {
		t.Fatal("prepared a schema with blocks")
	}
	if _, ok := NewAttributeSchema(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "a"}, {Name: "a"}}}); ok {
		t.Fatal("prepared a schema naming an attribute twice")
	}
}

// FuzzConfigAttributes: for any resource body, ConfigAttributes and
// Content agree.
func FuzzConfigAttributes(f *testing.F) {
	f.Add("a = 1\nb = 2")
	f.Add("count = 1\nb = 2\nlifecycle {\n}")
	f.Add("provider = t.y\nb = 1\nx {\n}")
	f.Add("depends_on = []\nlifecycle = 1\n_ {\n}")
	f.Add("locals {\n}\nb = 1")
	f.Fuzz(func(t *testing.T, body string) {
		checkConfigAttributes(t, []byte("resource \"t\" \"x\" {\n"+body+"\n}\ndata \"t\" \"y\" {\n"+body+"\n}\n"))
	})
}
