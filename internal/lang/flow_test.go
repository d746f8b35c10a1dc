package lang_test

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/internal/lang"
	"github.com/plankit/plankit/internal/lang/marks"
)

// TestSensitiveFlow checks that the sensitive mark follows values through
// functions and templates, and that nonsensitive takes it off.
func TestSensitiveFlow(t *testing.T) {
	s := cty.StringVal
	secret := s("hunter2").Mark(marks.Sensitive)
	tests := []struct {
		src  string
		want cty.Value
	}{
		{`var.secret`, secret},
		{`"pw=${var.secret}"`, s("pw=hunter2").Mark(marks.Sensitive)},
		{`format("%s/%s", var.name, var.secret)`, s("web/hunter2").Mark(marks.Sensitive)},
		{`upper(var.secret)`, s("HUNTER2").Mark(marks.Sensitive)},
		{`length(var.secret)`, cty.NumberIntVal(7).Mark(marks.Sensitive)},
		// merge keeps the mark on the attribute it came from only.
		{`merge({a = var.name}, {b = var.secret})`, obj(map[string]cty.Value{"a": s("web"), "b": secret})},
		{`merge(var.tags, {pw = var.secret})["pw"]`, secret},
		{`merge(var.tags, {pw = var.secret})["env"]`, s("prod")},
		{`nonsensitive(var.secret)`, s("hunter2")},
		{`nonsensitive("pw=${var.secret}")`, s("pw=hunter2")},
		{`sensitive(var.name)`, s("web").Mark(marks.Sensitive)},
		{`issensitive(var.secret)`, cty.True},
		{`issensitive(var.name)`, cty.False},
		{`var.secret == "x" ? "a" : "b"`, s("b").Mark(marks.Sensitive)},
		{`jsonencode({pw = var.secret})`, s(`{"pw":"hunter2"}`).Mark(marks.Sensitive)},
		{`tomap({a = var.secret, b = var.name})`, cty.MapVal(map[string]cty.Value{"a": secret, "b": s("web")})},
		{`sha256(var.secret)`, s("f52fbd32b2b3b86ff88ef6c490628285f482af15ddcb29541f94bcf526a3f6c7").Mark(marks.Sensitive)},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			scope := &lang.Scope{Data: testData()}
			got, diags := scope.EvalExpr(parseExpr(t, tt.src), cty.DynamicPseudoType)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			if !sameValue(tt.want, got) {
				t.Errorf("got  %#v\nwant %#v", got, tt.want)
			}
		})
	}
}

// TestUnknownFlow checks that unknown values give unknown results of the
// right type through functions, templates and conditionals, and that known
// parts stay known where Terraform keeps them known.
func TestUnknownFlow(t *testing.T) {
	s := cty.StringVal
	tests := []struct {
		src  string
		want cty.Value
	}{
		{`upper(var.later)`, cty.UnknownVal(cty.String)},
		{`"x-${var.later}"`, cty.UnknownVal(cty.String)},
		{`startswith("x-${var.later}", "x-")`, cty.True},
		{`length([var.later, "a"])`, cty.NumberIntVal(2)},
		{`length(var.later)`, cty.UnknownVal(cty.Number)},
		{`var.flag ? "a" : "b"`, cty.UnknownVal(cty.String)},
		{`var.flag ? 1 : 2`, cty.UnknownVal(cty.Number)},
		{`true ? var.later : "b"`, cty.UnknownVal(cty.String)},
		{`false ? var.later : "b"`, s("b")},
		{`merge({a = var.later}, {b = "x"})`, obj(map[string]cty.Value{"a": cty.UnknownVal(cty.String), "b": s("x")})},
		{`format("%s", var.later)`, cty.UnknownVal(cty.String)},
		{`jsonencode({a = var.later})`, cty.UnknownVal(cty.String)},
		{`tonumber(var.later)`, cty.UnknownVal(cty.Number)},
		{`cidrsubnet(var.later, 8, 1)`, cty.UnknownVal(cty.String)},
		{`coalesce(var.later, "x")`, cty.UnknownVal(cty.String)},
		// try cannot know yet whether the first argument will fail.
		{`try(var.later, "fallback")`, cty.DynamicVal},
		{`can(var.later)`, cty.UnknownVal(cty.Bool)},
		{`sensitive(var.later)`, cty.UnknownVal(cty.String).Mark(marks.Sensitive)},
		{`alltrue([var.flag, true])`, cty.UnknownVal(cty.Bool)},
		{`anytrue([var.flag, true])`, cty.True},
		{`aws_instance.counted[*].id`, cty.TupleVal([]cty.Value{s("i-c0"), cty.UnknownVal(cty.String)})},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			scope := &lang.Scope{Data: testData()}
			got, diags := scope.EvalExpr(parseExpr(t, tt.src), cty.DynamicPseudoType)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			if !sameUnrefined(tt.want, got) {
				t.Errorf("got  %#v\nwant %#v", got, tt.want)
			}
		})
	}
}

// sameUnrefined is sameValue applied element-wise for collections, so a
// tuple holding an unknown compares by type there too.
func sameUnrefined(want, got cty.Value) bool {
	wu, _ := want.Unmark()
	gu, _ := got.Unmark()
	if wu.IsKnown() && gu.IsKnown() && (wu.Type().IsTupleType() || wu.Type().IsObjectType()) && wu.Type().Equals(gu.Type()) {
		for it := wu.ElementIterator(); it.Next(); {
			k, wv := it.Element()
			var gv cty.Value
			if wu.Type().IsObjectType() {
				gv = gu.GetAttr(k.AsString())
			} else {
				gv = gu.Index(k)
			}
			if !sameUnrefined(wv, gv) {
				return false
			}
		}
		return true
	}
	return sameValue(want, got)
}

func TestEvalExprConvertsKeepingMarks(t *testing.T) {
	scope := &lang.Scope{Data: testData()}
	got, diags := scope.EvalExpr(parseExpr(t, `length(var.secret)`), cty.String)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if want := cty.StringVal("7").Mark(marks.Sensitive); !got.RawEquals(want) {
		t.Errorf("got %#v, want %#v", got, want)
	}
	got, diags = scope.EvalExpr(parseExpr(t, `var.later`), cty.Number)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if got.IsKnown() || got.Type() != cty.Number {
		t.Errorf("got %#v, want unknown number", got)
	}
}

func TestPureOnly(t *testing.T) {
	for _, src := range []string{`timestamp()`, `uuid()`} {
		t.Run(src, func(t *testing.T) {
			plan := &lang.Scope{Data: testData(), PureOnly: true}
			got, diags := plan.EvalExpr(parseExpr(t, src), cty.DynamicPseudoType)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			if got.IsKnown() || got.Type() != cty.String {
				t.Errorf("plan: got %#v, want unknown string", got)
			}
			apply := &lang.Scope{Data: testData()}
			got, diags = apply.EvalExpr(parseExpr(t, src), cty.DynamicPseudoType)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			if !got.IsKnown() || got.AsString() == "" {
				t.Errorf("apply: got %#v, want a known string", got)
			}
		})
	}
	// Pure functions stay known in pure-only mode.
	plan := &lang.Scope{Data: testData(), PureOnly: true}
	got, diags := plan.EvalExpr(parseExpr(t, `uuidv5("dns", "x")`), cty.String)
	if diags.HasErrors() || !got.IsKnown() {
		t.Errorf("uuidv5 in plan: %#v %s", got, diags.Error())
	}
}
