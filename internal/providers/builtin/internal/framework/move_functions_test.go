package framework

import (
	"errors"
	"strings"
	"testing"

	"github.com/plankit/plankit/providers"
)

func TestMoveAndFunctionsUnsupported(t *testing.T) {
	p := testProvider()
	resp := p.MoveResourceState(providers.MoveResourceStateRequest{SourceTypeName: "null_resource", TargetTypeName: "t_thing"})
	if !resp.Diagnostics.HasErrors() || !strings.Contains(resp.Diagnostics.Error(), "cannot move null_resource objects to t_thing") {
		t.Errorf("move diagnostics = %v", resp.Diagnostics)
	}
	resp = p.MoveResourceState(providers.MoveResourceStateRequest{SourceTypeName: "x", TargetTypeName: "t_nope"})
	if !strings.Contains(resp.Diagnostics.Error(), "Unsupported resource type") {
		t.Errorf("move to unknown type diagnostics = %v", resp.Diagnostics)
	}
	if fns := p.GetFunctions(); len(fns.Functions) != 0 || fns.Diagnostics.HasErrors() {
		t.Errorf("GetFunctions = %+v", fns)
	}
	call := p.CallFunction(providers.CallFunctionRequest{FunctionName: "f"})
	var fe *providers.FunctionError
	if !errors.As(call.Err, &fe) || !strings.Contains(fe.Text, `no function "f"`) {
		t.Errorf("CallFunction err = %v", call.Err)
	}
}
