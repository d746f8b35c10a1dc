package funcs

import (
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// ReplaceFunc replaces every occurrence of substr in str. When substr is
// wrapped in slashes ("/[a-z]+/") it is a regular expression and replace may
// use $1-style captures, as Terraform users expect.
var ReplaceFunc = function.New(&function.Spec{
	Description: "Replaces occurrences of a substring, or of a regular expression written between slashes.",
	Params: []function.Parameter{
		{Name: "str", Type: cty.String},
		{Name: "substr", Type: cty.String},
		{Name: "replace", Type: cty.String},
	},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		str, substr, repl := args[0].AsString(), args[1].AsString(), args[2].AsString()
		if len(substr) > 1 && substr[0] == '/' && substr[len(substr)-1] == '/' {
			return stdlib.RegexReplace(args[0], cty.StringVal(substr[1:len(substr)-1]), args[2])
		}
		return cty.StringVal(strings.ReplaceAll(str, substr, repl)), nil
	},
})

// StartsWithFunc reports whether str begins with prefix. An unknown string
// whose known prefix (from a template such as "arn:${x}") already decides
// the answer gives a known result.
var StartsWithFunc = function.New(&function.Spec{
	Description: "Determines if the input string starts with the given prefix.",
	Params: []function.Parameter{
		{Name: "str", Type: cty.String, AllowUnknown: true},
		{Name: "prefix", Type: cty.String},
	},
	Type:         function.StaticReturnType(cty.Bool),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		prefix := args[1].AsString()
		if !args[0].IsKnown() {
			known := args[0].Range().StringPrefix()
			switch {
			case strings.HasPrefix(known, prefix):
				return cty.True, nil
			case len(known) >= len(prefix) || !strings.HasPrefix(prefix, known):
				return cty.False, nil
			}
			return cty.UnknownVal(cty.Bool), nil
		}
		return cty.BoolVal(strings.HasPrefix(args[0].AsString(), prefix)), nil
	},
})

// EndsWithFunc reports whether str ends with suffix.
var EndsWithFunc = function.New(&function.Spec{
	Description: "Determines if the input string ends with the given suffix.",
	Params: []function.Parameter{
		{Name: "str", Type: cty.String},
		{Name: "suffix", Type: cty.String},
	},
	Type:         function.StaticReturnType(cty.Bool),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		return cty.BoolVal(strings.HasSuffix(args[0].AsString(), args[1].AsString())), nil
	},
})

// StrContainsFunc reports whether substr occurs within str.
var StrContainsFunc = function.New(&function.Spec{
	Description: "Determines if the input string contains the given substring.",
	Params: []function.Parameter{
		{Name: "str", Type: cty.String},
		{Name: "substr", Type: cty.String},
	},
	Type:         function.StaticReturnType(cty.Bool),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		return cty.BoolVal(strings.Contains(args[0].AsString(), args[1].AsString())), nil
	},
})

// refineNotNull is the RefineResult of every function that never returns
// null, so comparisons with null stay known during plan.
func refineNotNull(b *cty.RefinementBuilder) *cty.RefinementBuilder {
	return b.NotNull()
}
