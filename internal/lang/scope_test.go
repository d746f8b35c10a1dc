package lang_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/lang"
	"github.com/plankit/plankit/internal/lang/langtest"
	"github.com/plankit/plankit/internal/lang/marks"
)

func parseExpr(t testing.TB, src string) hcl.Expression {
	t.Helper()
	expr, diags := hclsyntax.ParseExpression([]byte(src), "test.tf", hcl.Pos{Line: 1, Column: 1})
	if diags.HasErrors() {
		t.Fatalf("parse %q: %s", src, diags.Error())
	}
	return expr
}

func obj(m map[string]cty.Value) cty.Value { return cty.ObjectVal(m) }

func testData() *langtest.Data {
	s := cty.StringVal
	return &langtest.Data{
		CountAttrs:     map[string]cty.Value{"index": cty.NumberIntVal(2)},
		ForEachAttrs:   map[string]cty.Value{"key": s("k1"), "value": s("v1")},
		PathAttrs:      map[string]cty.Value{"module": s("./mod"), "root": s("."), "cwd": s("/work")},
		TerraformAttrs: map[string]cty.Value{"workspace": s("default")},
		InputVariables: map[string]cty.Value{
			"name":   s("web"),
			"secret": s("hunter2").Mark(marks.Sensitive),
			"tags":   cty.MapVal(map[string]cty.Value{"env": s("prod")}),
			"later":  cty.UnknownVal(cty.String),
			"flag":   cty.UnknownVal(cty.Bool),
		},
		LocalValues: map[string]cty.Value{"prefix": s("app")},
		Modules: map[string]cty.Value{
			"net":   obj(map[string]cty.Value{"vpc_id": s("vpc-1")}),
			"multi": cty.TupleVal([]cty.Value{obj(map[string]cty.Value{"out": s("m0")}), obj(map[string]cty.Value{"out": s("m1")})}),
			"keyed": obj(map[string]cty.Value{"a": obj(map[string]cty.Value{"out": s("ka")})}),
		},
		Resources: map[string]cty.Value{
			"aws_instance.single": obj(map[string]cty.Value{"id": s("i-1")}),
			"aws_instance.counted": cty.TupleVal([]cty.Value{
				obj(map[string]cty.Value{"id": s("i-c0")}),
				obj(map[string]cty.Value{"id": cty.UnknownVal(cty.String)}),
			}),
			"aws_instance.each":   obj(map[string]cty.Value{"x": obj(map[string]cty.Value{"id": s("i-ex")})}),
			"data.aws_ami.ubuntu": obj(map[string]cty.Value{"id": s("ami-1")}),
		},
	}
}

func TestEvalExprReferenceKinds(t *testing.T) {
	s := cty.StringVal
	tests := []struct {
		src   string
		self  addrs.Referenceable
		want  cty.Value
		calls []string
	}{
		{src: `var.name`, want: s("web"), calls: []string{"var.name"}},
		{src: `local.prefix`, want: s("app"), calls: []string{"local.prefix"}},
		{src: `module.net.vpc_id`, want: s("vpc-1"), calls: []string{"module.net"}},
		{src: `module.net`, want: obj(map[string]cty.Value{"vpc_id": s("vpc-1")}), calls: []string{"module.net"}},
		{src: `module.multi[1].out`, want: s("m1"), calls: []string{"module.multi"}},
		{src: `module.keyed["a"].out`, want: s("ka"), calls: []string{"module.keyed"}},
		{src: `module.multi[*].out`, want: cty.TupleVal([]cty.Value{s("m0"), s("m1")}), calls: []string{"module.multi"}},
		{src: `aws_instance.single.id`, want: s("i-1"), calls: []string{"aws_instance.single"}},
		{src: `aws_instance.counted[0].id`, want: s("i-c0"), calls: []string{"aws_instance.counted"}},
		{src: `aws_instance.counted[1].id`, want: cty.UnknownVal(cty.String), calls: []string{"aws_instance.counted"}},
		{src: `aws_instance.each["x"].id`, want: s("i-ex"), calls: []string{"aws_instance.each"}},
		{src: `length(aws_instance.counted)`, want: cty.NumberIntVal(2), calls: []string{"aws_instance.counted"}},
		{src: `data.aws_ami.ubuntu.id`, want: s("ami-1"), calls: []string{"data.aws_ami.ubuntu"}},
		{src: `count.index`, want: cty.NumberIntVal(2), calls: []string{"count.index"}},
		{src: `"${each.key}=${each.value}"`, want: s("k1=v1"), calls: []string{"each.key", "each.value"}},
		{src: `path.module`, want: s("./mod"), calls: []string{"path.module"}},
		{src: `[path.root, path.cwd]`, want: cty.TupleVal([]cty.Value{s("."), s("/work")}), calls: []string{"path.root", "path.cwd"}},
		{src: `terraform.workspace`, want: s("default"), calls: []string{"terraform.workspace"}},
		{src: `self.id`, self: addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "aws_instance", Name: "single"}, want: s("i-1"), calls: []string{"aws_instance.single"}},
		{src: `self.id`, self: addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "aws_instance", Name: "counted"}.Instance(addrs.IntKey(0)), want: s("i-c0"), calls: []string{"aws_instance.counted"}},
		{src: `self.id`, self: addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "aws_instance", Name: "each"}.Instance(addrs.StringKey("x")), want: s("i-ex"), calls: []string{"aws_instance.each"}},
		// Each subject is fetched once however often it appears.
		{src: `"${var.name}-${var.name}-${aws_instance.counted[0].id}-${aws_instance.counted[1].id != ""}"`, want: cty.UnknownVal(cty.String), calls: []string{"var.name", "aws_instance.counted"}},
		{src: `[for k, v in var.tags : "${local.prefix}-${k}-${v}"]`, want: cty.TupleVal([]cty.Value{s("app-env-prod")}), calls: []string{"var.tags", "local.prefix"}},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			data := testData()
			scope := &lang.Scope{Data: data, SelfAddr: tt.self}
			got, diags := scope.EvalExpr(parseExpr(t, tt.src), cty.DynamicPseudoType)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			if !sameValue(tt.want, got) {
				t.Errorf("got  %#v\nwant %#v", got, tt.want)
			}
			if diff := cmp.Diff(tt.calls, data.Calls()); diff != "" {
				t.Errorf("Data calls (-want +got):\n%s", diff)
			}
		})
	}
}

// sameValue compares values with marks; unknowns by type and marks only.
func sameValue(want, got cty.Value) bool {
	wu, wm := want.Unmark()
	gu, gm := got.Unmark()
	if !wm.Equal(gm) {
		return false
	}
	if !wu.IsKnown() {
		return !gu.IsKnown() && wu.Type().Equals(gu.Type())
	}
	return want.RawEquals(got)
}

func TestEvalExprErrors(t *testing.T) {
	tests := []struct {
		src     string
		want    cty.Type
		self    addrs.Referenceable
		summary string
		detail  string
		subject string // "line,col-col" of the diagnostic's subject
	}{
		{src: `var.nope`, want: cty.String, summary: "Reference to undeclared object", subject: "1,1-9"},
		{src: `self.id`, want: cty.String, summary: `Invalid "self" reference`, subject: "1,1-5"},
		{src: `var`, want: cty.String, summary: "Invalid reference", subject: "1,1-4"},
		{src: `aws_instance`, want: cty.String, summary: "Invalid reference", subject: "1,1-13"},
		{src: `  var.tags  `, want: cty.Number, summary: "Incorrect value type", detail: "This expression must produce number", subject: "1,3-11"},
		{src: `[var.name]`, want: cty.String, summary: "Incorrect value type", detail: "string required", subject: "1,1-11"},
		{src: `local.prefix + 1`, want: cty.Number, summary: "Invalid operand", subject: "1,1-13"},
		{src: `upper(1, 2)`, want: cty.String, summary: "Too many function arguments"},
		{src: `nosuchfunc(1)`, want: cty.String, summary: "Call to unknown function"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			scope := &lang.Scope{Data: testData(), SelfAddr: tt.self}
			got, diags := scope.EvalExpr(parseExpr(t, tt.src), tt.want)
			if !diags.HasErrors() {
				t.Fatalf("no error; got %#v", got)
			}
			if got.IsKnown() || !got.Type().Equals(tt.want) {
				t.Errorf("value on error = %#v, want unknown %s", got, tt.want.FriendlyName())
			}
			d := diags[0]
			if d.Summary != tt.summary {
				t.Errorf("summary %q, want %q (detail %q)", d.Summary, tt.summary, d.Detail)
			}
			if !strings.Contains(d.Detail, tt.detail) {
				t.Errorf("detail %q does not contain %q", d.Detail, tt.detail)
			}
			if d.Subject == nil || d.Subject.Filename != "test.tf" {
				t.Fatalf("diagnostic has no subject in test.tf: %#v", d.Subject)
			}
			if got := fmtRange(*d.Subject); tt.subject != "" && got != tt.subject {
				t.Errorf("subject %s, want %s", got, tt.subject)
			}
		})
	}
}

func fmtRange(r hcl.Range) string {
	return strings.TrimPrefix(r.String(), "test.tf:")
}
