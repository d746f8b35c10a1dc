package views

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// TestBigFileSnippetMatchesHCL: the snippet written for big files is the
// one HCL's writer gives, byte for byte, in both colour modes.
func TestBigFileSnippetMatchesHCL(t *testing.T) {
	src := []byte("a = 1\nb = {\n  c = \"x\"\n  d = [1,\n    2]\n}\n")
	f, diags := hclsyntax.ParseConfig(src, "t.tfvars", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	attrs, _ := f.Body.JustAttributes()
	d := attrs["b"].Expr.(*hclsyntax.ObjectConsExpr).Items[1].ValueExpr
	tests := []*hcl.Diagnostic{
		{Severity: hcl.DiagWarning, Summary: "one line", Subject: attrs["a"].NameRange.Ptr()},
		{Severity: hcl.DiagError, Summary: "multi-line", Subject: d.Range().Ptr()},
		{Severity: hcl.DiagError, Summary: "with context", Subject: d.StartRange().Ptr(), Context: attrs["b"].Range.Ptr()},
		{Severity: hcl.DiagError, Summary: "empty range at the end", Subject: &hcl.Range{Filename: "t.tfvars", Start: hcl.Pos{Line: 7, Column: 1, Byte: len(src)}, End: hcl.Pos{Line: 7, Column: 1, Byte: len(src)}}},
	}
	files := map[string]*hcl.File{"t.tfvars": f}
	for _, d := range tests {
		for _, color := range []bool{false, true} {
			var want, got bytes.Buffer
			_ = hcl.NewDiagnosticTextWriter(&want, files, 0, color).WriteDiagnostic(d)
			writeBigFileSnippet(&got, d, f, color)
			if diff := cmp.Diff(want.String(), got.String()); diff != "" {
				t.Errorf("%s (color %v): (-hcl +ours)\n%s", d.Summary, color, diff)
			}
		}
	}
}
