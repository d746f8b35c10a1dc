package plans

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/plans/internal/planproto"
)

// TestReasonTable checks the one table of action reasons against the plan
// file's protobuf enum: every enum value has exactly one reason, and each
// reason's JSON keyword is the enum value's name in lower case, as in
// Terraform's plan representations ("" for none).
func TestReasonTable(t *testing.T) {
	got := map[string]string{}
	for _, r := range AllReasons() {
		p, ok := reasonToProto[r]
		if !ok {
			t.Errorf("reason %s has no protobuf value", r)
			continue
		}
		if back := reasonFromProto[p]; back != r {
			t.Errorf("reason %s encodes as %s, which decodes as %s", r, p, back)
		}
		got[p.String()] = r.JSONKeyword()
	}
	want := map[string]string{}
	for _, name := range planproto.ActionReason_name {
		want[name] = strings.ToLower(name)
	}
	want["NONE"] = ""
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("protobuf enum name -> JSON keyword (-want +got):\n%s", d)
	}
	if k := ResourceInstanceChangeActionReason('x').JSONKeyword(); k != "" {
		t.Errorf("unknown reason has JSON keyword %q, want none", k)
	}
}
