package render

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/plans"
)

// TestImportGolden: the human rendering of imports, as OpenTofu writes
// it: a no-op import shows the whole imported object under "will be
// imported" (and "(config will be generated)" when it is), every import,
// a no-op one too, says "(imported from ...)", a replacement warns, and
// the summary counts imports.
func TestImportGolden(t *testing.T) {
	obj := thing(map[string]cty.Value{
		"id": cty.StringVal("i-1"), "name": cty.StringVal("web"), "size": cty.NumberIntVal(2),
		"list": cty.ListVal([]cty.Value{cty.StringVal("x"), cty.StringVal("y")}), "set": cty.SetVal([]cty.Value{cty.StringVal("s")}),
		"tags":     cty.MapVal(map[string]cty.Value{"env": cty.StringVal("prod")}),
		"password": cty.StringVal("hunter2"),
		"rule":     cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(80)})}),
	})
	renamed := thing(map[string]cty.Value{
		"id": cty.StringVal("i-1"), "name": cty.StringVal("api"), "size": cty.NumberIntVal(2),
		"tags":     cty.MapVal(map[string]cty.Value{"env": cty.StringVal("prod")}),
		"password": cty.StringVal("hunter2"),
		"rule":     cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(80)})}),
	})
	imported := func(rc *plans.ResourceInstanceChange, id string) *plans.ResourceInstanceChange {
		rc.Importing = &plans.Importing{ID: id}
		return rc
	}
	noop := imported(change(inst("test_thing", "a", nil), plans.NoOp, obj, obj), "i-1")
	update := imported(change(inst("test_thing", "b", nil), plans.Update, obj, renamed), "i-1")
	repl := imported(change(inst("test_thing", "c", nil), plans.DeleteThenCreate, obj, renamed), "i-1")
	repl.ActionReason = plans.ReasonReplaceBecauseCannotUpdate
	repl.RequiredReplace = []cty.Path{cty.GetAttrPath("name")}
	gen := imported(change(inst("test_thing", "g", nil), plans.NoOp, obj, obj), "i-1")
	gen.GeneratedConfig = "resource \"test_thing\" \"g\" {\n}"
	created := change(inst("test_thing", "new", nil), plans.Create, cty.NullVal(thingType()), renamed)

	tests := map[string]*plans.Plan{
		"import-only":   planWith([]*plans.ResourceInstanceChange{noop}, nil),
		"import-update": planWith([]*plans.ResourceInstanceChange{update, repl, created}, nil),
		"import-gen":    planWith([]*plans.ResourceInstanceChange{gen}, nil),
	}
	for name, p := range tests {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Plan(&buf, p, false); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, filepath.Join("testdata", name+".golden"), buf.String())
		})
	}
	if HasResourceChanges(planWith([]*plans.ResourceInstanceChange{noop}, nil).Changes) != true {
		t.Error("a plan whose only change is an import has no resource changes")
	}
}
