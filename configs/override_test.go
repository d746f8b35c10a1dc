package configs

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

func TestOverrideFixture(t *testing.T) {
	cfg, diags := LoadConfigDir(fixturesDir + "/config-valid-override")
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	m := cfg.Module
	size := m.Variables["size"]
	if size.Type != cty.String || !size.Default.RawEquals(cty.StringVal("large")) {
		t.Errorf("variable size: type %#v default %#v, want string \"large\"", size.Type, size.Default)
	}
	r := m.ManagedResources["null_resource.a"]
	if r.Count != nil || r.ForEach == nil {
		t.Errorf("for_each in the override should replace count")
	}
	if !r.Managed.CreateBeforeDestroy {
		t.Errorf("lifecycle arguments the override does not set are kept")
	}
	content, diags := r.Config.Content(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "triggers"}}})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if got := content.Attributes["triggers"].Range.Filename; got != "override.tf" {
		t.Errorf("triggers comes from %s, want override.tf", got)
	}
	o := m.Outputs["o"]
	if o.Description != "overridden" || o.Expr.Range().Filename != "main.tf" {
		t.Errorf("output o: description %q from value in %s", o.Description, o.Expr.Range().Filename)
	}
	if got := m.Locals["l"].Expr.Range().Filename; got != "z_override.tf.json" {
		t.Errorf("local l comes from %s", got)
	}
	if diff := cmp.Diff([]string{"main.tf", "override.tf", "z_override.tf.json"}, sortedKeys(m.Files)); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
}

// TestOverrideOrder checks that override files apply in lexical order, after
// every primary file whatever its name.
func TestOverrideOrder(t *testing.T) {
	cfg := mustLoad(t, map[string]string{
		"a_override.tf": `locals { x = "a_override" }`,
		"b_override.tf": `locals { x = "b_override" }`,
		"override.tf":   `locals { x = "override" }`,
		"zzz.tf":        `locals { x = "primary" }`,
	})
	if got := cfg.Module.Locals["x"].Expr.Range().Filename; got != "override.tf" {
		t.Errorf("x comes from %s, want override.tf (the last override in lexical order)", got)
	}
}

func TestOverrideVariableTypeReconvertsDefault(t *testing.T) {
	_, diags := loadInline(t, map[string]string{
		"main.tf":     "variable \"v\" {\n  default = \"abc\"\n}",
		"override.tf": "variable \"v\" {\n  type = number\n}",
	})
	if diff := cmp.Diff([]string{"main.tf:2: Invalid default value for variable"}, diagSummaries(diags)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	cfg := mustLoad(t, map[string]string{
		"main.tf":     "variable \"v\" {\n  default = \"12\"\n}",
		"override.tf": "variable \"v\" {\n  type = number\n}",
	})
	if v := cfg.Module.Variables["v"]; !v.Default.RawEquals(cty.NumberIntVal(12)) {
		t.Errorf("default = %#v, want 12", v.Default)
	}
}

func TestOverrideModuleSourceAndInputs(t *testing.T) {
	cfg := mustLoad(t, map[string]string{
		"main.tf":          "module \"m\" {\n  source = \"./a\"\n  x = 1\n  y = 2\n}",
		"main_override.tf": "module \"m\" {\n  source = \"./b\"\n  y = 3\n}",
		"a/main.tf":        `variable "x" {}`,
		"b/main.tf":        "variable \"x\" {}\nvariable \"y\" {}",
	})
	child := cfg.Children["m"]
	if child == nil || child.Module.SourceDir != "b" || child.SourceAddr != "./b" {
		t.Fatalf("the override's source should be loaded: %+v", child)
	}
	attrs, diags := cfg.Module.ModuleCalls["m"].Config.JustAttributes()
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	got := map[string]string{}
	for k, a := range attrs {
		got[k] = a.Range.Filename
	}
	if diff := cmp.Diff(map[string]string{"x": "main.tf", "y": "main_override.tf"}, got); diff != "" {
		t.Errorf("inputs (-want +got):\n%s", diff)
	}
}

// TestMergedBodyNestedBlocks checks that an override's nested blocks replace
// all of the base's blocks of that type, and leave other types alone.
func TestMergedBodyNestedBlocks(t *testing.T) {
	cfg := mustLoad(t, map[string]string{
		"main.tf": `resource "x" "y" {
  a = 1
  disk { size = 1 }
  disk { size = 2 }
  net { id = "n" }
}`,
		"override.tf": `resource "x" "y" {
  disk { size = 3 }
}`,
	})
	schema := &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "a", Required: true}},
		Blocks:     []hcl.BlockHeaderSchema{{Type: "disk"}, {Type: "net"}},
	}
	content, diags := cfg.Module.ManagedResources["x.y"].Config.Content(schema)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	var got []string
	for _, b := range content.Blocks {
		got = append(got, b.Type+"@"+b.DefRange.Filename)
	}
	if diff := cmp.Diff([]string{"net@main.tf", "disk@override.tf"}, got); diff != "" {
		t.Errorf("blocks (-want +got):\n%s", diff)
	}
	// A required argument may come from either side; missing from both is
	// an error.
	_, diags = cfg.Module.ManagedResources["x.y"].Config.Content(&hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "a"}, {Name: "b", Required: true}},
		Blocks:     []hcl.BlockHeaderSchema{{Type: "disk"}, {Type: "net"}},
	})
	if !diags.HasErrors() {
		t.Errorf("missing required argument b not reported")
	}
}
