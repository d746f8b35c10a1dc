package lang

import (
	"errors"
	"reflect"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/plankit/plankit/providers"
)

// ProviderFunctionName is the name expressions call a provider-defined
// function by: provider::LOCALNAME::FUNC, LOCALNAME being the provider's
// name in the module's required_providers.
func ProviderFunctionName(localName, funcName string) string {
	return "provider::" + localName + "::" + funcName
}

// IsProviderFunctionName reports whether name has the provider::…::… form.
func IsProviderFunctionName(name string) bool {
	return strings.HasPrefix(name, "provider::") && strings.Count(name, "::") == 2
}

// ProviderFunction makes a cty function of a provider-defined function
// declaration; call performs the call (through the provider). Arguments
// are checked against the declared parameter types first; unknown
// arguments give an unknown result unless the parameter allows them,
// and sensitive arguments make the result sensitive (cty's rules for
// parameters that do not allow marks). A *providers.FunctionError naming
// an argument becomes an argument error, so the diagnostic points at it.
func ProviderFunction(decl providers.FunctionDecl, call func(args []cty.Value) (cty.Value, error)) function.Function {
	param := func(p providers.FunctionParam) function.Parameter {
		return function.Parameter{
			Name:             p.Name,
			Description:      p.Description,
			Type:             p.Type,
			AllowNull:        p.AllowNullValue,
			AllowUnknown:     p.AllowUnknownValues,
			AllowDynamicType: true,
		}
	}
	spec := &function.Spec{
		Description: decl.Summary,
		Type:        function.StaticReturnType(decl.ReturnType),
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			v, err := call(args)
			var fe *providers.FunctionError
			if errors.As(err, &fe) && fe.Argument != nil && *fe.Argument >= 0 && *fe.Argument < len(args) {
				return cty.UnknownVal(retType), function.NewArgErrorf(*fe.Argument, "%s", fe.Text)
			}
			if err != nil {
				return cty.UnknownVal(retType), err
			}
			return v, nil
		},
	}
	for _, p := range decl.Parameters {
		spec.Params = append(spec.Params, param(p))
	}
	if decl.VariadicParameter != nil {
		vp := param(*decl.VariadicParameter)
		spec.VarParam = &vp
	}
	return function.New(spec)
}

// sameMap reports whether two maps are the same map (or both empty).
func sameMap(a, b map[string]function.Function) bool {
	if len(a) == 0 || len(b) == 0 {
		return len(a) == len(b)
	}
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}
