package providertest

import (
	"errors"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
)

func TestFunctionsAndMove(t *testing.T) {
	p := New(map[string]*configschema.Block{"t": {Attributes: map[string]*configschema.Attribute{"id": {Type: cty.String, Computed: true}}}})
	p.Functions = map[string]Function{"twice": {
		Decl: providers.FunctionDecl{Parameters: []providers.FunctionParam{{Name: "s", Type: cty.String}}, ReturnType: cty.String},
		Impl: func(args []cty.Value) (cty.Value, error) {
			if args[0].AsString() == "" {
				zero := 0
				return cty.NilVal, &providers.FunctionError{Text: "empty", Argument: &zero}
			}
			return cty.StringVal(args[0].AsString() + args[0].AsString()), nil
		},
	}}
	if got := p.GetFunctions().Functions["twice"].ReturnType; !got.Equals(cty.String) {
		t.Errorf("return type %#v", got)
	}
	if r := p.CallFunction(providers.CallFunctionRequest{FunctionName: "twice", Arguments: []cty.Value{cty.StringVal("ab")}}); r.Err != nil || !r.Result.RawEquals(cty.StringVal("abab")) {
		t.Errorf("twice(ab) = %#v, %v", r.Result, r.Err)
	}
	var fe *providers.FunctionError
	if r := p.CallFunction(providers.CallFunctionRequest{FunctionName: "twice", Arguments: []cty.Value{cty.StringVal("")}}); !errors.As(r.Err, &fe) || *fe.Argument != 0 {
		t.Errorf("twice(\"\") err = %v", r.Err)
	}
	if r := p.MoveResourceState(providers.MoveResourceStateRequest{SourceTypeName: "s", TargetTypeName: "t"}); !r.Diagnostics.HasErrors() {
		t.Error("default move succeeded")
	}
	p.MoveFn = func(req providers.MoveResourceStateRequest) providers.MoveResourceStateResponse {
		return providers.MoveResourceStateResponse{TargetState: cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal(string(req.SourceStateJSON))})}
	}
	if r := p.MoveResourceState(providers.MoveResourceStateRequest{SourceTypeName: "s", TargetTypeName: "t", SourceStateJSON: []byte("x")}); r.Diagnostics.HasErrors() || r.TargetState.GetAttr("id").AsString() != "x" {
		t.Errorf("move = %#v %v", r.TargetState, r.Diagnostics)
	}
	if got := p.CallStrings(MoveResourceState, CallFunction); len(got) != 4 {
		t.Errorf("calls %v", got)
	}
}
