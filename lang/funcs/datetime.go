package funcs

import (
	"time"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// TimestampFunc returns the current UTC time in RFC 3339 form. It is
// impure: lang.Scope makes it return unknown during plan, so the value is
// chosen at apply.
var TimestampFunc = function.New(&function.Spec{
	Description:  "Returns the current UTC date and time in RFC 3339 format.",
	Params:       []function.Parameter{},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		return cty.StringVal(time.Now().UTC().Format(time.RFC3339)), nil
	},
})
