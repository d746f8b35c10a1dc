package funcs

import (
	"fmt"
	"sort"
	"sync"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/plankit/plankit/internal/inputguard"
)

// MakeTemplateFileFunc builds templatefile(path, vars): the file at path
// (read through files) rendered as an HCL string template whose only
// variables are the keys of vars. funcs supplies the functions the template
// may call; it is called once, on first use, so the table may contain this function
// itself, and templatefile inside a template is an error (no recursion).
//
// A template that is a single interpolation ("${x}") yields x with its own
// type, as in Terraform; otherwise a string. With an unknown path or vars
// the result is unknown of unknown type.
func MakeTemplateFileFunc(files Files, funcs func() map[string]function.Function) function.Function {
	params := []function.Parameter{
		{Name: "path", Type: cty.String},
		{Name: "vars", Type: cty.DynamicPseudoType},
	}
	table := templateFuncs(funcs)
	render := func(args []cty.Value) (cty.Value, error) {
		path := args[0].AsString()
		src, err := readFile(files, path)
		if err != nil {
			return cty.NilVal, function.NewArgError(0, err)
		}
		if !utf8.Valid(src) {
			return cty.NilVal, function.NewArgErrorf(0, "contents of %q are not valid UTF-8", path)
		}
		return renderTemplate(src, path, hcl.Pos{Line: 1, Column: 1}, args[1], table())
	}
	return function.New(&function.Spec{
		Description: "Renders a template file with the given variables.",
		Params:      params,
		Type: func(args []cty.Value) (cty.Type, error) {
			if !args[0].IsKnown() || !args[1].IsKnown() {
				return cty.DynamicPseudoType, nil
			}
			// Unmarking is safe here: Call re-applies the marks to the
			// result, and only the type is kept.
			path, _ := args[0].Unmark()
			vars, _ := args[1].UnmarkDeep()
			val, err := render([]cty.Value{path, vars})
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

// templateContext checks that every variable the template refers to is a
// key of vars and builds the evaluation context: vars as variables and the
// template function table (see templateFuncs).
func templateContext(expr hclsyntax.Expression, vars cty.Value, table map[string]function.Function) (*hcl.EvalContext, error) {
	ty := vars.Type()
	if vars.IsNull() || !(ty.IsMapType() || ty.IsObjectType()) {
		return nil, function.NewArgErrorf(1, "invalid vars value: must be a map or object")
	}
	varMap := vars.AsValueMap()
	keys := make([]string, 0, len(varMap))
	for k := range varMap {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !hclsyntax.ValidIdentifier(k) {
			return nil, function.NewArgErrorf(1, "invalid template variable name %q: must start with a letter, followed by zero or more letters, digits, and underscores", k)
		}
	}
	for _, trav := range expr.Variables() {
		name := trav.RootName()
		if _, ok := varMap[name]; !ok {
			return nil, function.NewArgErrorf(1, "vars map does not contain key %q, referenced at %s", name, trav[0].SourceRange())
		}
	}
	if varMap == nil {
		varMap = map[string]cty.Value{}
	}
	return &hcl.EvalContext{Variables: varMap, Functions: table}, nil
}

// templateFuncs returns the function table of templates: funcs' table (nil
// means none) with templatefile and templatestring replaced by guards that
// refuse recursion. It is built on first use, when funcs' table is
// complete, and shared by every later render (contexts only read it):
// copying the ~130 entries per render cost about half of a small
// templatefile call.
func templateFuncs(funcs func() map[string]function.Function) func() map[string]function.Function {
	return sync.OnceValue(func() map[string]function.Function {
		table := map[string]function.Function{}
		if funcs != nil {
			for name, f := range funcs() {
				table[name] = f
			}
		}
		for _, name := range []string{"templatefile", "templatestring"} {
			table[name] = function.New(&function.Spec{
				Params: recursionGuardParams(),
				Type:   function.StaticReturnType(cty.DynamicPseudoType),
				Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
					return cty.NilVal, fmt.Errorf("cannot call %s from inside a template rendered by templatefile or templatestring", name)
				},
			})
		}
		return table
	})
}

// recursionGuardParams is a two-argument signature accepting anything, for
// the recursion guards.
func recursionGuardParams() []function.Parameter {
	return []function.Parameter{
		{Name: "path", Type: cty.String, AllowUnknown: true, AllowNull: true},
		{Name: "vars", Type: cty.DynamicPseudoType, AllowUnknown: true, AllowNull: true, AllowDynamicType: true},
	}
}

// renderTemplate parses src as a template (errors placed at filename and
// start) and evaluates it with vars and table (from templateFuncs): the
// common core of templatefile and templatestring.
func renderTemplate(src []byte, filename string, start hcl.Pos, vars cty.Value, table map[string]function.Function) (cty.Value, error) {
	// The configuration's nesting guard: the template parser recurses
	// once per level, and a deep enough template overflows the stack.
	if diags := inputguard.CheckTemplateNesting(filename, src, start); diags.HasErrors() {
		return cty.NilVal, function.NewArgError(0, diags)
	}
	expr, diags := hclsyntax.ParseTemplate(src, filename, start)
	if diags.HasErrors() {
		return cty.NilVal, function.NewArgError(0, diags)
	}
	ctx, err := templateContext(expr, vars, table)
	if err != nil {
		return cty.NilVal, err
	}
	val, diags := expr.Value(ctx)
	if diags.HasErrors() {
		return cty.NilVal, diags
	}
	return val, nil
}
