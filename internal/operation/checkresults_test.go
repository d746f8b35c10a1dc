package operation

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/states/statefile"
)

func TestEncodeStateCheckResults(t *testing.T) {
	raw, err := encodeStateCheckResults([]*plans.CheckResult{
		{Kind: "var", Module: "module.m", Name: "x", Status: plans.CheckPass, Objects: []plans.CheckObject{{Module: "module.m[0]", Status: plans.CheckPass}}},
		{Kind: "resource", Module: "module.m", Name: "test_thing.a", Status: plans.CheckFail, Objects: []plans.CheckObject{
			{Module: "module.m[0]", Addr: "module.m[0].test_thing.a[1]", Status: plans.CheckFail, FailureMessages: []string{"bad"}}}},
		{Kind: "output", Name: "o", Status: plans.CheckPass, Objects: []plans.CheckObject{{Addr: "output.o", Status: plans.CheckPass}}},
		{Kind: "check", Name: "c", Status: plans.CheckUnknown},
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	want := []map[string]any{
		{"object_kind": "var", "config_addr": "module.m.var.x", "status": "pass",
			"objects": []any{map[string]any{"object_addr": "module.m[0].var.x", "status": "pass"}}},
		{"object_kind": "resource", "config_addr": "module.m.test_thing.a", "status": "fail",
			"objects": []any{map[string]any{"object_addr": "module.m[0].test_thing.a[1]", "status": "fail", "failure_messages": []any{"bad"}}}},
		{"object_kind": "output", "config_addr": "output.o", "status": "pass",
			"objects": []any{map[string]any{"object_addr": "output.o", "status": "pass"}}},
		{"object_kind": "check", "config_addr": "check.c", "status": "unknown", "objects": nil},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("check_results (-want +got):\n%s", d)
	}
	// The state file keeps them as written.
	var buf bytes.Buffer
	if err := statefile.Write(&statefile.File{State: states.NewState(), Lineage: "l", CheckResults: raw}, &buf); err != nil {
		t.Fatal(err)
	}
	f, err := statefile.Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	var back []map[string]any
	if err := json.Unmarshal(f.CheckResults, &back); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, back); d != "" {
		t.Errorf("check_results after a state round trip (-want +got):\n%s", d)
	}
	if raw, _ := encodeStateCheckResults(nil); raw != nil {
		t.Errorf("no results encode as %s, want nothing (null)", raw)
	}
}
