package providertest

import (
	"fmt"
	"maps"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/tfdiags"
)

// Methods added to providers.Interface for moves and provider-defined
// functions.
const (
	MoveResourceState Method = "MoveResourceState"
	GetFunctions      Method = "GetFunctions"
	CallFunction      Method = "CallFunction"
)

// Function is a provider-defined function of the test provider.
type Function struct {
	Decl providers.FunctionDecl
	// Impl computes the result; a *providers.FunctionError refuses the
	// arguments.
	Impl func(args []cty.Value) (cty.Value, error)
}

// MoveResourceState runs MoveFn if set; by default it refuses the move.
func (p *Provider) MoveResourceState(req providers.MoveResourceStateRequest) providers.MoveResourceStateResponse {
	diags := p.enter(Call{Method: MoveResourceState, TypeName: req.TargetTypeName, Request: req})
	_, sdiags := p.resourceSchema(req.TargetTypeName)
	diags = append(diags, sdiags...)
	if diags.HasErrors() {
		return providers.MoveResourceStateResponse{Diagnostics: diags}
	}
	if p.MoveFn != nil {
		resp := p.MoveFn(req)
		resp.Diagnostics = append(diags, resp.Diagnostics...)
		return resp
	}
	diags = append(diags, tfdiags.Errorf("Unsupported resource move", "The test provider cannot move %s objects to %s.", req.SourceTypeName, req.TargetTypeName))
	return providers.MoveResourceStateResponse{Diagnostics: diags}
}

// GetFunctions returns the declarations of p.Functions.
func (p *Provider) GetFunctions() providers.GetFunctionsResponse {
	diags := p.enter(Call{Method: GetFunctions})
	fns := make(map[string]providers.FunctionDecl, len(p.Functions))
	for name, f := range maps.All(p.Functions) {
		fns[name] = f.Decl
	}
	return providers.GetFunctionsResponse{Functions: fns, Diagnostics: diags}
}

// CallFunction calls the named function of p.Functions; an injected fault
// becomes the call's error.
func (p *Provider) CallFunction(req providers.CallFunctionRequest) providers.CallFunctionResponse {
	diags := p.enter(Call{Method: CallFunction, TypeName: req.FunctionName, Request: req})
	if diags.HasErrors() {
		return providers.CallFunctionResponse{Result: cty.DynamicVal, Err: diags}
	}
	f, ok := p.Functions[req.FunctionName]
	if !ok || f.Impl == nil {
		return providers.CallFunctionResponse{Result: cty.DynamicVal, Err: &providers.FunctionError{
			Text: fmt.Sprintf("the test provider has no function %q", req.FunctionName)}}
	}
	v, err := f.Impl(req.Arguments)
	return providers.CallFunctionResponse{Result: v, Err: err}
}
