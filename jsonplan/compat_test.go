package jsonplan

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	tfjson "github.com/hashicorp/terraform-json"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/lang/marks"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
)

// compatPlan is a plan over a configuration with a module, for the
// details issue 11 found differing from Terraform's show -json.
func compatPlan(t *testing.T) (*plans.Plan, *configs.Config) {
	t.Helper()
	dir := t.TempDir()
	for name, src := range map[string]string{
		"main.tf": `
variable "region" {
  type    = string
  default = "eu"
}
variable "shape" {
  type = object({ a = string, b = optional(number) })
}
module "files" {
  source = "./files"
  names  = ["a"]
}
resource "null_resource" "root" {
  triggers = { x = module.files.ids[0], r = var.region }
  provisioner "local-exec" {
    command = "echo hi"
  }
}
resource "null_resource" "unrelated" {}
output "o" { value = { a = "x" } }
output "u" { value = null_resource.root.id }
`,
		"files/main.tf": `
variable "names" {
  type = list(string)
}
variable "secret" {
  default   = "s"
  sensitive = true
}
resource "local_file" "this" {
  filename = "x"
  content  = var.names[0]
}
output "ids" { value = [local_file.this.id] }
`,
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg, diags := configs.LoadConfigDir(dir)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	nullP, localP := addrs.NewDefaultProvider("null"), addrs.NewDefaultProvider("local")
	nullSchema := &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"id":       {Type: cty.String, Computed: true},
		"triggers": {Type: cty.Map(cty.String), Optional: true},
		"meta":     {Type: cty.Object(map[string]cty.Type{"k": cty.String}), Computed: true},
		"items":    {Type: cty.List(cty.String), Computed: true},
	}}
	fileSchema := &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"id": {Type: cty.String, Computed: true}, "filename": {Type: cty.String, Required: true}, "content": {Type: cty.String, Optional: true},
	}}
	res := func(mod addrs.ModuleInstance, typ, name string) addrs.AbsResourceInstance {
		return addrs.Resource{Mode: addrs.ManagedResourceMode, Type: typ, Name: name}.Instance(addrs.NoKey).Absolute(mod)
	}
	root, file := res(nil, "null_resource", "root"), res(addrs.RootModuleInstance.Child("files", addrs.NoKey), "local_file", "this")
	nullObj := func(id, meta, items cty.Value) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"id": id, "triggers": cty.MapVal(map[string]cty.Value{"x": cty.StringVal("f"), "r": cty.StringVal("eu")}), "meta": meta, "items": items})
	}
	fileObj := cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("f"), "filename": cty.StringVal("x"), "content": cty.StringVal("a")})
	p := &plans.Plan{
		Changes: &plans.Changes{
			Resources: []*plans.ResourceInstanceChange{
				{Addr: root, PrevRunAddr: root, ProviderAddr: addrs.AbsProviderConfig{Provider: nullP},
					Change: plans.Change{Action: plans.Create, Before: cty.NullVal(nullSchema.ImpliedType()),
						After: nullObj(cty.UnknownVal(cty.String), cty.UnknownVal(cty.Object(map[string]cty.Type{"k": cty.String})), cty.UnknownVal(cty.List(cty.String)))}},
				{Addr: file, PrevRunAddr: file, ProviderAddr: addrs.AbsProviderConfig{Provider: localP},
					Change: plans.Change{Action: plans.NoOp, Before: fileObj, After: fileObj}},
			},
			Outputs: []*plans.OutputChange{
				{Addr: addrs.OutputValue{Name: "o"}.Absolute(nil), Change: plans.Change{Action: plans.Create, Before: cty.NullVal(cty.DynamicPseudoType),
					After: cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x")})}},
				{Addr: addrs.OutputValue{Name: "u"}.Absolute(nil), Change: plans.Change{Action: plans.Create, Before: cty.NullVal(cty.DynamicPseudoType),
					After: cty.UnknownVal(cty.String)}},
				{Addr: addrs.OutputValue{Name: "s"}.Absolute(nil), Sensitive: true, Change: plans.Change{Action: plans.Create, Before: cty.NullVal(cty.DynamicPseudoType),
					After: cty.ObjectVal(map[string]cty.Value{"pw": cty.StringVal("x").Mark(marks.Sensitive)})}},
			},
		},
		ProviderSchemas: map[addrs.Provider]*providers.GetProviderSchemaResponse{
			nullP:  {ResourceTypes: map[string]providers.Schema{"null_resource": {Block: nullSchema}}},
			localP: {ResourceTypes: map[string]providers.Schema{"local_file": {Block: fileSchema}}},
		},
		Applyable: true, Complete: true,
		Checks: []*plans.CheckResult{{Kind: "var", Module: "module.files", Name: "names", Status: plans.CheckPass,
			Objects: []plans.CheckObject{{Module: "module.files", Status: plans.CheckPass}}}},
	}
	return p, cfg
}

// TestShowJSONMatchesTerraform checks the show -json details issue 11
// found differing from Terraform 1.9's output for the same plan.
func TestShowJSONMatchesTerraform(t *testing.T) {
	p, cfg := compatPlan(t)
	raw, err := Marshal(p, Options{Version: "0.1.0", Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	get := func(path ...any) any {
		var cur any = doc
		for _, step := range path {
			switch s := step.(type) {
			case string:
				m, _ := cur.(map[string]any)
				cur = m[s]
			case int:
				l, _ := cur.([]any)
				if s >= len(l) {
					return nil
				}
				cur = l[s]
			}
		}
		return cur
	}
	rootMod := []any{"configuration", "root_module"}
	child := append(append([]any{}, rootMod...), "module_calls", "files", "module")
	tests := []struct {
		name string
		path []any
		want any
	}{
		{"module resource address is module-relative", append(append([]any{}, child...), "resources", 0, "address"), "local_file.this"},
		{"root resource address", append(append([]any{}, rootMod...), "resources", 0, "address"), "null_resource.root"},
		{"provisioners", append(append([]any{}, rootMod...), "resources", 0, "provisioners"),
			[]any{map[string]any{"type": "local-exec", "expressions": map[string]any{"command": map[string]any{"constant_value": "echo hi"}}}}},
		{"module variable with a type and no default", append(append([]any{}, child...), "variables", "names"),
			map[string]any{"type": []any{"list", "string"}, "required": true}},
		{"module variable with a default", append(append([]any{}, child...), "variables", "secret"),
			map[string]any{"default": "s", "sensitive": true}},
		{"root variable with optional attributes", append(append([]any{}, rootMod...), "variables", "shape"),
			map[string]any{"type": []any{"object", map[string]any{"a": "string", "b": "number"}, []any{"b"}}, "required": true}},
		{"root variable with a default", append(append([]any{}, rootMod...), "variables", "region"),
			map[string]any{"type": "string", "default": "eu"}},
		{"known output: after_unknown false", []any{"output_changes", "o", "after_unknown"}, false},
		{"known output: sensitivity booleans", []any{"output_changes", "o", "after_sensitive"}, false},
		{"unknown output", []any{"output_changes", "u", "after_unknown"}, true},
		{"sensitive output before_sensitive", []any{"output_changes", "s", "before_sensitive"}, true},
		{"sensitive output after_sensitive", []any{"output_changes", "s", "after_sensitive"}, true},
		{"after_sensitive keeps unknown structures", []any{"resource_changes", 0, "change", "after_sensitive"},
			map[string]any{"meta": map[string]any{}, "items": []any{}, "triggers": map[string]any{}}},
		{"after_unknown", []any{"resource_changes", 0, "change", "after_unknown"},
			map[string]any{"id": true, "meta": true, "items": true, "triggers": map[string]any{}}},
		{"checks", []any{"checks"}, []any{map[string]any{
			"address":   map[string]any{"to_display": "module.files.var.names", "kind": "var", "module": "module.files", "name": "names"},
			"status":    "pass",
			"instances": []any{map[string]any{"address": map[string]any{"to_display": "module.files.var.names", "module": "module.files"}, "status": "pass"}},
		}}},
		{"relevant_attributes", []any{"relevant_attributes"}, []any{
			map[string]any{"resource": "module.files.local_file.this", "attribute": []any{"id"}},
			map[string]any{"resource": "null_resource.root", "attribute": []any{"id"}},
		}},
	}
	for _, tt := range tests {
		if d := cmp.Diff(tt.want, get(tt.path...)); d != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, d)
		}
	}
	var tp tfjson.Plan
	if err := json.Unmarshal(raw, &tp); err != nil {
		t.Fatal(err)
	}
	if err := tp.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(tp.Checks) != 1 || tp.Checks[0].Address.Kind != tfjson.CheckKind("var") || tp.Checks[0].Instances[0].Status != tfjson.CheckStatusPass {
		t.Errorf("terraform-json reads checks as %+v", tp.Checks)
	}
	if len(tp.RelevantAttributes) != 2 || tp.RelevantAttributes[0].Resource != "module.files.local_file.this" {
		t.Errorf("terraform-json reads relevant_attributes as %+v", tp.RelevantAttributes)
	}
}

// TestShowJSONKeysKnownToTerraformJSON compares our output key by key with
// what github.com/hashicorp/terraform-json's Plan type reads and writes
// back: a key it drops is one tooling built on it cannot see. The only
// keys allowed beyond it are those Terraform 1.9 itself writes that the
// library has no field for.
func TestShowJSONKeysKnownToTerraformJSON(t *testing.T) {
	p, cfg := compatPlan(t)
	for name, opts := range map[string]Options{"with configuration": {Version: "0.1.0", Config: cfg}, "plan only": {Version: "0.1.0"}} {
		raw, err := Marshal(p, opts)
		if err != nil {
			t.Fatal(err)
		}
		var tp tfjson.Plan
		if err := json.Unmarshal(raw, &tp); err != nil {
			t.Fatal(err)
		}
		back, err := json.Marshal(&tp)
		if err != nil {
			t.Fatal(err)
		}
		ours, theirs := keyPaths(t, raw), keyPaths(t, back)
		// Written by Terraform 1.9, absent from terraform-json's structs.
		terraformOnly := map[string]bool{
			"applyable": true, "errored": true,
			"configuration.root_module.variables.*.type":                           true,
			"configuration.root_module.variables.*.required":                       true,
			"configuration.root_module.module_calls.*.module.variables.*.type":     true,
			"configuration.root_module.module_calls.*.module.variables.*.required": true,
		}
		var unknown []string
		for k := range ours {
			if !theirs[k] && !terraformOnly[k] {
				unknown = append(unknown, k)
			}
		}
		if len(unknown) > 0 {
			t.Errorf("%s: keys terraform-json does not know: %v", name, unknown)
		}
	}
}

// keyPaths lists the object key paths of a JSON document, with array
// indexes dropped and the keys of free-form maps (variables, outputs,
// module calls, expressions, values) written as "*".
func keyPaths(t *testing.T, raw []byte) map[string]bool {
	t.Helper()
	var doc any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	free := map[string]bool{"variables": true, "outputs": true, "module_calls": true, "output_changes": true, "provider_config": true}
	opaque := map[string]bool{"expressions": true, "values": true, "before": true, "after": true, "after_unknown": true,
		"before_sensitive": true, "after_sensitive": true, "sensitive_values": true, "value": true, "default": true, "type": true,
		"attribute": true, "constant_value": true, "index": true}
	out := map[string]bool{}
	var walk func(prefix string, v any, freeMap bool)
	walk = func(prefix string, v any, freeMap bool) {
		switch v := v.(type) {
		case map[string]any:
			for k, e := range v {
				name := k
				if freeMap {
					name = "*"
				}
				p := name
				if prefix != "" {
					p = prefix + "." + name
				}
				if !freeMap {
					out[p] = true
				}
				if opaque[k] && !freeMap {
					continue
				}
				walk(p, e, !freeMap && free[k])
			}
		case []any:
			for _, e := range v {
				walk(prefix, e, false)
			}
		}
	}
	walk("", doc, false)
	return out
}
