package funcs

import (
	"github.com/hashicorp/hcl/v2/ext/customdecode"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
)

// MakeTemplateStringFunc builds templatestring(template, vars): the string
// the template argument evaluates to, rendered as a template whose only
// variables are the keys of vars. Terraform 1.9 requires the argument to
// be a single reference to something defined elsewhere (local.tpl,
// data.x.y.body); OpenTofu documents any string expression, a literal
// included (templatestring("Hello, $${name}!", {name = "Jo"})). plankit
// accepts both, as the reading that runs both tools' configurations; a
// number or bool converts to a string as OpenTofu's string parameter does.
// funcs supplies the functions the template may call; templatefile and
// templatestring are not available inside it. A single-interpolation
// template keeps its value's type; an unknown template or vars gives an
// unknown of unknown type; marks on the template string are kept on the
// result.
func MakeTemplateStringFunc(funcs func() map[string]function.Function) function.Function {
	table := templateFuncs(funcs)
	render := func(args []cty.Value) (cty.Value, error) {
		closure := customdecode.ExpressionClosureFromVal(args[0])
		tmplVal, diags := closure.Value()
		if diags.HasErrors() {
			return cty.NilVal, function.NewArgError(0, diags)
		}
		tmplVal, marks := tmplVal.Unmark()
		if tmplVal.IsKnown() && !tmplVal.IsNull() && tmplVal.Type().IsPrimitiveType() {
			if s, err := convert.Convert(tmplVal, cty.String); err == nil {
				tmplVal = s
			}
		}
		switch {
		case !tmplVal.IsKnown():
			return cty.DynamicVal.WithMarks(marks), nil
		case tmplVal.IsNull():
			return cty.NilVal, function.NewArgErrorf(0, "the template must not be null")
		case !tmplVal.Type().Equals(cty.String):
			return cty.NilVal, function.NewArgErrorf(0, "the template must be a string, not %s", tmplVal.Type().FriendlyName())
		}
		if !args[1].IsKnown() {
			return cty.DynamicVal.WithMarks(marks), nil
		}
		rng := closure.Expression.Range()
		val, err := renderTemplate([]byte(tmplVal.AsString()), rng.Filename, rng.Start, args[1], table())
		if err != nil {
			return cty.NilVal, err
		}
		return val.WithMarks(marks), nil
	}
	return function.New(&function.Spec{
		Description: "Renders a string (a reference to one, or a literal) as a template, with the given variables.",
		Params: []function.Parameter{
			{Name: "template", Type: customdecode.ExpressionClosureType},
			{Name: "vars", Type: cty.DynamicPseudoType},
		},
		Type: func(args []cty.Value) (cty.Type, error) {
			if !args[1].IsKnown() {
				return cty.DynamicPseudoType, nil
			}
			vars, _ := args[1].UnmarkDeep()
			val, err := render([]cty.Value{args[0], vars})
			if err != nil {
				return cty.NilType, err
			}
			return val.Type(), nil
		},
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			return render(args)
		},
	})
}
