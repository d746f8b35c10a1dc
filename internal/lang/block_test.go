package lang_test

import (
	"fmt"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/internal/lang"
	"github.com/plankit/plankit/internal/lang/langtest"
)

// sortedStrings makes cmp compare string slices as multisets.
var sortedStrings = cmp.Transformer("sort", func(s []string) []string {
	c := append([]string(nil), s...)
	sort.Strings(c)
	return c
})

func parseBody(t testing.TB, src string) hcl.Body {
	t.Helper()
	f, diags := hclsyntax.ParseConfig([]byte(src), "main.tf", hcl.Pos{Line: 1, Column: 1})
	if diags.HasErrors() {
		t.Fatalf("parse: %s", diags.Error())
	}
	return f.Body
}

var testSpec = hcldec.ObjectSpec{
	"name": &hcldec.AttrSpec{Name: "name", Type: cty.String, Required: true},
	"size": &hcldec.AttrSpec{Name: "size", Type: cty.Number},
	"rule": &hcldec.BlockListSpec{
		TypeName: "rule",
		Nested: hcldec.ObjectSpec{
			"port": &hcldec.AttrSpec{Name: "port", Type: cty.Number, Required: true},
		},
	},
}

func TestEvalBlock(t *testing.T) {
	body := parseBody(t, `
name = "${local.prefix}-${var.name}"
size = count.index
rule {
  port = 22
}
dynamic "rule" {
  for_each = var.tags
  content {
    port = length(rule.key) + length(each.value)
  }
}
`)
	data := testData()
	scope := &lang.Scope{Data: data}
	got, diags := scope.EvalBlock(body, testSpec)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	want := cty.ObjectVal(map[string]cty.Value{
		"name": cty.StringVal("app-web"),
		"size": cty.NumberIntVal(2),
		"rule": cty.ListVal([]cty.Value{
			cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(22)}),
			cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(5)}),
		}),
	})
	if !got.RawEquals(want) {
		t.Errorf("got  %#v\nwant %#v", got, want)
	}
	// The iterator "rule" is not a reference; everything else is fetched once.
	wantCalls := []string{"local.prefix", "var.name", "count.index", "var.tags", "each.value"}
	gotCalls := data.Calls()
	if !cmp.Equal(wantCalls, gotCalls, sortedStrings) {
		t.Errorf("calls: got %v, want %v (any order)", gotCalls, wantCalls)
	}
}

func TestEvalBlockErrors(t *testing.T) {
	tests := []struct {
		src, summary string
	}{
		{`size = 1`, "Missing required argument"},
		{`name = var.tags`, "Incorrect attribute value type"},
		{`name = var.nope`, "Reference to undeclared object"},
		{"name = \"a\"\nbogus = 1", "Unsupported argument"},
	}
	for _, tt := range tests {
		t.Run(tt.summary, func(t *testing.T) {
			scope := &lang.Scope{Data: testData()}
			got, diags := scope.EvalBlock(parseBody(t, tt.src), testSpec)
			if !diags.HasErrors() {
				t.Fatalf("no error, got %#v", got)
			}
			if diags[0].Summary != tt.summary {
				t.Errorf("summary %q, want %q", diags[0].Summary, tt.summary)
			}
			if diags[0].Subject == nil || diags[0].Subject.Filename != "main.tf" {
				t.Errorf("no subject in main.tf: %#v", diags[0].Subject)
			}
			if got.IsKnown() || !got.Type().Equals(hcldec.ImpliedType(testSpec)) {
				t.Errorf("value on error %#v, want unknown of the spec's type", got)
			}
		})
	}
}

func TestReferences(t *testing.T) {
	expr := parseExpr(t, `[var.a, aws_instance.b[0].id, module.c.out, data.d.e.f, count.index, [for x in local.l : x], self]`)
	refs, diags := lang.ReferencesInExpr(expr)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	var got []string
	for _, r := range refs {
		got = append(got, fmt.Sprintf("%s %s", r.Subject, r.SourceRange))
	}
	want := []string{
		"var.a test.tf:1,2-7",
		"aws_instance.b[0] test.tf:1,9-26",
		"module.c.out test.tf:1,31-43",
		"data.d.e test.tf:1,45-53",
		"count.index test.tf:1,57-68",
		"local.l test.tf:1,80-87",
		"self test.tf:1,94-98",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("references (-want +got):\n%s", diff)
	}

	_, diags = lang.ReferencesInExpr(parseExpr(t, `var.ok + each.nope + count`))
	if len(diags) != 2 {
		t.Fatalf("want 2 diagnostics, got %s", diags.Error())
	}
	for _, d := range diags {
		if d.Subject == nil {
			t.Errorf("diagnostic without subject: %s", d.Summary)
		}
	}
	if refs, diags := lang.ReferencesInExpr(nil); refs != nil || diags != nil {
		t.Errorf("nil expression: %v %v", refs, diags)
	}
	if refs, diags := lang.ReferencesInBlock(parseBody(t, `name = var.x`), testSpec); len(refs) != 1 || diags.HasErrors() {
		t.Errorf("block: %v %v", refs, diags)
	}
}

// bigData is a Data with n of every kind of object, standing in for a
// large configuration.
func bigData(n int) *langtest.Data {
	d := &langtest.Data{
		InputVariables: map[string]cty.Value{},
		LocalValues:    map[string]cty.Value{},
		Resources:      map[string]cty.Value{},
	}
	for i := 0; i < n; i++ {
		d.InputVariables[fmt.Sprintf("v%d", i)] = cty.StringVal("x")
		d.LocalValues[fmt.Sprintf("l%d", i)] = cty.NumberIntVal(int64(i))
		d.Resources[fmt.Sprintf("null_resource.r%d", i)] = cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("id")})
	}
	return d
}

// TestEvalContextOnlyReferenced checks that the context holds exactly what
// the references name, however large the configuration.
func TestEvalContextOnlyReferenced(t *testing.T) {
	data := bigData(10000)
	scope := &lang.Scope{Data: data}
	refs, _ := lang.ReferencesInExpr(parseExpr(t, `"${var.v7}${local.l9}${null_resource.r5.id}${null_resource.r5.id}"`))
	ctx, diags := scope.EvalContext(refs)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if got := len(data.Calls()); got != 3 {
		t.Errorf("Data calls = %d (%v), want 3", got, data.Calls())
	}
	var roots []string
	for k, v := range ctx.Variables {
		roots = append(roots, fmt.Sprintf("%s:%d", k, len(v.Type().AttributeTypes())))
	}
	if diff := cmp.Diff([]string{"local:1", "null_resource:1", "var:1"}, roots, sortedStrings); diff != "" {
		t.Errorf("variables (-want +got):\n%s", diff)
	}
}

// BenchmarkEvalExpr evaluates an expression with three references against
// configurations of growing size; time per op must not grow with size.
func BenchmarkEvalExpr(b *testing.B) {
	expr := parseExpr(b, `"${var.v7}-${local.l9}-${null_resource.r5.id}"`)
	for _, n := range []int{10, 1000, 100000} {
		b.Run(fmt.Sprintf("config=%d", n), func(b *testing.B) {
			scope := &lang.Scope{Data: bigData(n)}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, diags := scope.EvalExpr(expr, cty.String); diags.HasErrors() {
					b.Fatal(diags.Error())
				}
			}
		})
	}
}
