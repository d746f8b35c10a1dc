package configs

import (
	"fmt"
	"maps"
	"slices"
	"strings"
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
		checkArguments(t, r)
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

// checkArguments compares r.Arguments with r.Config.JustAttributes: when
// it accepts the body (native, decoded, without nested blocks) it gives
// the same arguments with the same expressions, without a diagnostic.
func checkArguments(t *testing.T, r *Resource) {
	t.Helper()
	got := map[string]hcl.Expression{}
	ok := r.Arguments(func(name string, expr hcl.Expression) {
		if _, dup := got[name]; dup {
			t.Fatalf("%s: Arguments gave %s twice", r.Addr(), name)
		}
		got[name] = expr
	})
	if sb := r.Config.(*hclsyntax.Body); ok != (len(sb.Blocks) == 0) {
		t.Fatalf("%s: Arguments ok=%v with %d nested blocks", r.Addr(), ok, len(sb.Blocks))
	}
	if !ok {
		return
	}
	attrs, diags := r.Config.JustAttributes()
	if diags.HasErrors() {
		t.Fatalf("%s: Arguments accepted a body JustAttributes refuses: %v", r.Addr(), diags)
	}
	want := map[string]hcl.Expression{}
	for name, a := range attrs {
		want[name] = a.Expr
	}
	if !maps.Equal(got, want) {
		t.Fatalf("%s: Arguments gave %v, JustAttributes %v", r.Addr(), slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
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
// ConfigAttributes and Arguments decline and the caller uses Content or
// JustAttributes.
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
	if r.Arguments(func(string, hcl.Expression) {}) {
		t.Fatal("Arguments accepted a merged body")
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

// metaTestSchemas are what a remain body is asked for afterwards: the
// core's attribute-only and block schemas, schemas naming meta-arguments
// and meta blocks.
var metaTestSchemas = append([]*hcl.BodySchema{
	{Blocks: []hcl.BlockHeaderSchema{{Type: "nested"}, {Type: "lifecycle"}}},
	{Attributes: []hcl.AttributeSchema{{Name: "a"}}, Blocks: []hcl.BlockHeaderSchema{{Type: "provisioner", LabelNames: []string{"t"}}}},
}, attrTestSchemas...)

// bodyAnswers is what a body says to every question the rest of plankit
// may ask it, as text: Content and PartialContent for each test schema
// (attribute names and expressions, blocks, diagnostics, the remain's
// own answers to JustAttributes) and JustAttributes.
func bodyAnswers(b hcl.Body) string {
	var sb strings.Builder
	content := func(c *hcl.BodyContent, diags hcl.Diagnostics) {
		if c != nil {
			for _, name := range slices.Sorted(maps.Keys(c.Attributes)) {
				fmt.Fprintf(&sb, " attr %s %p", name, c.Attributes[name].Expr)
			}
			for _, bl := range c.Blocks {
				fmt.Fprintf(&sb, " block %s %q %v", bl.Type, bl.Labels, bl.DefRange)
			}
			fmt.Fprintf(&sb, " missing %v", c.MissingItemRange)
		}
		var ds []string // in the order of a map's iteration: sorted
		for _, d := range diags {
			ds = append(ds, fmt.Sprintf(" diag %s: %s %v", d.Summary, d.Detail, d.Subject))
		}
		slices.Sort(ds)
		sb.WriteString(strings.Join(ds, "") + "\n")
	}
	for _, s := range metaTestSchemas {
		content(b.Content(s))
		c, remain, diags := b.PartialContent(s)
		content(c, diags)
		attrs, diags := remain.JustAttributes()
		content(&hcl.BodyContent{Attributes: attrs}, diags)
	}
	attrs, diags := b.JustAttributes()
	content(&hcl.BodyContent{Attributes: attrs}, diags)
	fmt.Fprintf(&sb, "range %v missing %v\n", b.(*hclsyntax.Body).Range(), b.MissingItemRange())
	return sb.String()
}

// FuzzResourceMetaContent: resourceMetaContent returns what
// PartialContent(resourceBlockSchema) returns, and a remain body that
// answers every question as PartialContent's remain does.
func FuzzResourceMetaContent(f *testing.F) {
	f.Add("a = 1\nb = 2")
	f.Add("a = 1\ncount = 2")
	f.Add("a = 1\nnested {\n}")
	f.Add("lifecycle {\n}\nprovider = x.y")
	f.Add("")
	f.Fuzz(func(t *testing.T, body string) {
		src := "resource \"t\" \"x\" {\n" + body + "\n}\n"
		file, diags := hclsyntax.ParseConfig([]byte(src), "main.tf", hcl.InitialPos)
		if diags.HasErrors() {
			return
		}
		blocks := file.Body.(*hclsyntax.Body).Blocks
		if len(blocks) != 1 {
			return
		}
		rb := blocks[0].Body
		wantC, wantRemain, wantDiags := rb.PartialContent(resourceBlockSchema)
		gotC, gotRemain, gotDiags := resourceMetaContent(rb)
		var w, g strings.Builder
		for _, x := range []struct {
			sb    *strings.Builder
			c     *hcl.BodyContent
			diags hcl.Diagnostics
			r     hcl.Body
		}{{&w, wantC, wantDiags, wantRemain}, {&g, gotC, gotDiags, gotRemain}} {
			for _, name := range slices.Sorted(maps.Keys(x.c.Attributes)) {
				fmt.Fprintf(x.sb, "attr %s %p\n", name, x.c.Attributes[name].Expr)
			}
			for _, bl := range x.c.Blocks {
				fmt.Fprintf(x.sb, "block %s %p\n", bl.Type, bl.Body)
			}
			fmt.Fprintf(x.sb, "missing %v diags %v\n%s", x.c.MissingItemRange, x.diags, bodyAnswers(x.r))
		}
		if w.String() != g.String() {
			t.Fatalf("PartialContent:\n%s\nresourceMetaContent:\n%s", w.String(), g.String())
		}
	})
}

// TestResourceMetaContentCases runs FuzzResourceMetaContent's check on
// bodies with and without meta-arguments and blocks.
func TestResourceMetaContentCases(t *testing.T) {
	for _, body := range []string{
		"", "a = 1", "a = 1\nb = \"x\"", "count = 1\na = 2", "depends_on = []", "for_each = {}\nb = 1",
		"provider = p.x", "nested {\n}", "lifecycle {\n  prevent_destroy = true\n}", "a = 1\nlocals {\n}",
		"_ {\n}", "provisioner \"x\" {\n}\nconnection {\n}",
	} {
		t.Run(body, func(t *testing.T) {
			src := "resource \"t\" \"x\" {\n" + body + "\n}\n"
			file, diags := hclsyntax.ParseConfig([]byte(src), "main.tf", hcl.InitialPos)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			rb := file.Body.(*hclsyntax.Body).Blocks[0].Body
			_, wantRemain, _ := rb.PartialContent(resourceBlockSchema)
			_, gotRemain, _ := resourceMetaContent(rb)
			if w, g := bodyAnswers(wantRemain), bodyAnswers(gotRemain); w != g {
				t.Fatalf("remain answers differ:\nPartialContent:\n%s\nresourceMetaContent:\n%s", w, g)
			}
		})
	}
}
