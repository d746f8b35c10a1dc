package configs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
)

// writeFiles writes an inline configuration (paths may have directories)
// to a temporary directory and returns it.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func loadInline(t *testing.T, files map[string]string) (*Config, hcl.Diagnostics) {
	t.Helper()
	return LoadConfigDir(writeFiles(t, files))
}

func mustLoad(t *testing.T, files map[string]string) *Config {
	t.Helper()
	cfg, diags := loadInline(t, files)
	if diags.HasErrors() {
		t.Fatalf("unexpected errors: %s", diags.Error())
	}
	return cfg
}

// diagSummaries lists "file:line: summary" for each diagnostic.
func diagSummaries(diags hcl.Diagnostics) []string {
	var out []string
	for _, d := range diags {
		out = append(out, diagPlace(d)+": "+d.Summary)
	}
	return out
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{
			"duplicate across files is reported in the later file in lexical order",
			map[string]string{
				"b.tf": `resource "null_resource" "x" {}`,
				"a.tf": "\n" + `resource "null_resource" "x" {}`,
			},
			[]string{`b.tf:1: Duplicate resource "null_resource" configuration`},
		},
		{
			"syntax error names file and line",
			map[string]string{"main.tf": "resource \"a\" \"b\" {\n  x = \n}\n"},
			[]string{"main.tf:2: Invalid expression"},
		},
		{
			"required_providers object with unknown key",
			map[string]string{"main.tf": `terraform {
  required_providers {
    aws = { source = "hashicorp/aws", versions = "1" }
  }
}`},
			[]string{"main.tf:3: Invalid required_providers object"},
		},
		{
			"invalid provider source",
			map[string]string{"main.tf": `terraform {
  required_providers {
    aws = { source = "a/b/c/d" }
  }
}`},
			[]string{"main.tf:3: Invalid provider source address"},
		},
		{
			"child module errors carry the child's path",
			map[string]string{
				"main.tf":         `module "c" { source = "./c" }`,
				"c/main.tf":       "\n\nvariable \"for_each\" {}",
				"c/unrelated.txt": "{",
			},
			[]string{"c/main.tf:3: Invalid variable name"},
		},
		{
			"module cycle through the module's own directory",
			map[string]string{"main.tf": `module "self" { source = "./" }`},
			[]string{"main.tf:1: Module cycle"},
		},
		{
			"backend in a child module is a warning",
			map[string]string{
				"main.tf":   `module "c" { source = "./c" }`,
				"c/main.tf": "terraform {\n  backend \"local\" {}\n}",
			},
			[]string{"c/main.tf:2: Backend configuration ignored"},
		},
		{
			"unsupported terraform block content",
			map[string]string{"main.tf": "terraform {\n  cloud {}\n}"},
			[]string{"main.tf:2: Unsupported Terraform feature"},
		},
		{
			"lifecycle precondition must check something",
			map[string]string{"main.tf": "resource \"a\" \"b\" {\n  lifecycle {\n    precondition {\n      condition = true\n      error_message = \"x\"\n    }\n  }\n}"},
			[]string{"main.tf:4: Invalid precondition expression"},
		},
		{
			"providers map with a bad value",
			map[string]string{
				"main.tf":   "module \"c\" {\n  source = \"./c\"\n  providers = { aws = 42 }\n}",
				"c/main.tf": "",
			},
			[]string{"main.tf:3: Invalid providers map value"},
		},
		{
			"override file that is invalid JSON",
			map[string]string{"main.tf": "", "override.tf.json": "{\n  \"locals\": {\"x\": }\n}"},
			[]string{"override.tf.json:2: Missing JSON value", "override.tf.json:2: Missing local value to override"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := loadInline(t, tc.files)
			if diff := cmp.Diff(tc.want, diagSummaries(diags)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s\n%s", diff, diags.Error())
			}
		})
	}
}

func TestProviderResolution(t *testing.T) {
	cfg := mustLoad(t, map[string]string{"main.tf": `
terraform {
  required_providers {
    cloud  = { source = "example.com/acme/cloud" }
    awsalt = { source = "hashicorp/aws" }
  }
}
resource "terraform_data" "a" {}
resource "cloud_thing" "b" {}
resource "aws_instance" "c" {}
resource "aws_instance" "d" {
  provider = awsalt.west
}
data "cloud_info" "e" {}
`})
	m := cfg.Module
	got := map[string]string{}
	for k, r := range m.ManagedResources {
		got[k] = r.Provider.String() + " " + r.ProviderConfigAddr().String()
	}
	for k, r := range m.DataResources {
		got[k] = r.Provider.String() + " " + r.ProviderConfigAddr().String()
	}
	want := map[string]string{
		"terraform_data.a":  "terraform.io/builtin/terraform terraform",
		"cloud_thing.b":     "example.com/acme/cloud cloud",
		"aws_instance.c":    "registry.terraform.io/hashicorp/aws aws",
		"aws_instance.d":    "registry.terraform.io/hashicorp/aws awsalt.west",
		"data.cloud_info.e": "example.com/acme/cloud cloud",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("providers (-want +got):\n%s", diff)
	}
	if got := m.LocalNameForProvider(addrs.NewDefaultProvider("aws")); got != "awsalt" {
		t.Errorf("LocalNameForProvider(aws) = %q, want awsalt", got)
	}
	if got := m.LocalNameForProvider(addrs.NewDefaultProvider("null")); got != "null" {
		t.Errorf("LocalNameForProvider(null) = %q, want null", got)
	}
	if r := m.ResourceByAddr(addrs.Resource{Mode: addrs.DataResourceMode, Type: "cloud_info", Name: "e"}); r == nil || r.Name != "e" {
		t.Errorf("ResourceByAddr(data.cloud_info.e) = %v", r)
	}
	if r := m.ResourceByAddr(addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "cloud_info", Name: "e"}); r != nil {
		t.Errorf("ResourceByAddr(cloud_info.e) found a managed resource")
	}
	var types []string
	for _, p := range cfg.ProviderTypes() {
		types = append(types, p.String())
	}
	wantTypes := []string{"example.com/acme/cloud", "registry.terraform.io/hashicorp/aws", "terraform.io/builtin/terraform"}
	if diff := cmp.Diff(wantTypes, types); diff != "" {
		t.Errorf("ProviderTypes (-want +got):\n%s", diff)
	}
}

func TestVariables(t *testing.T) {
	cfg := mustLoad(t, map[string]string{"main.tf": `
variable "required" {}
variable "nullable_default" {
  default = null
}
variable "obj" {
  type = object({
    a = optional(string, "dflt")
    b = number
    c = optional(list(string))
  })
  default = { b = "2" }
}
variable "strict" {
  type      = list(number)
  default   = ["1", 2]
  nullable  = false
  sensitive = true
  validation {
    condition     = length(var.strict) > 0
    error_message = "Give at least one."
  }
}
`})
	vars := cfg.Module.Variables
	if !vars["required"].Required() || vars["required"].Type != cty.DynamicPseudoType || !vars["required"].Nullable {
		t.Errorf("required: %+v", vars["required"])
	}
	if vars["nullable_default"].Required() || !vars["nullable_default"].Default.IsNull() {
		t.Errorf("nullable_default should be optional with a null default: %#v", vars["nullable_default"].Default)
	}
	obj := vars["obj"]
	wantObj := cty.ObjectVal(map[string]cty.Value{
		"a": cty.StringVal("dflt"), "b": cty.NumberIntVal(2), "c": cty.NullVal(cty.List(cty.String)),
	})
	if !obj.Default.RawEquals(wantObj) {
		t.Errorf("obj default = %#v, want %#v", obj.Default, wantObj)
	}
	if obj.TypeDefaults == nil {
		t.Errorf("obj has no type defaults")
	}
	strict := vars["strict"]
	if !strict.Default.RawEquals(cty.ListVal([]cty.Value{cty.NumberIntVal(1), cty.NumberIntVal(2)})) {
		t.Errorf("strict default = %#v", strict.Default)
	}
	if strict.Nullable || !strict.Sensitive || len(strict.Validations) != 1 {
		t.Errorf("strict: nullable=%v sensitive=%v validations=%d", strict.Nullable, strict.Sensitive, len(strict.Validations))
	}
}

func TestResourceMetaArguments(t *testing.T) {
	cfg := mustLoad(t, map[string]string{"main.tf": `
resource "null_resource" "a" {
  count = 3
  triggers = { x = 1 }
  depends_on = [terraform_data.b, module.m, data.x.y]
  lifecycle {
    create_before_destroy = false
    prevent_destroy       = true
    ignore_changes        = [triggers["x"], id]
    replace_triggered_by  = [terraform_data.b, terraform_data.b.output]
  }
  provisioner "local-exec" {
    command = "one"
  }
  provisioner "local-exec" {
    command    = "two"
    when       = destroy
    on_failure = continue
  }
  connection {
    host = "x"
  }
}
resource "terraform_data" "b" {
  lifecycle {
    ignore_changes = all
  }
}
module "m" {
  source = "./m"
  providers = {
    null       = null.alt
    null.other = null
  }
}
data "x" "y" {}
`, "m/main.tf": ""})
	a := cfg.Module.ManagedResources["null_resource.a"]
	if a.Count == nil || a.ForEach != nil {
		t.Errorf("count/for_each not decoded")
	}
	var deps []string
	for _, d := range a.DependsOn {
		deps = append(deps, traversalString(d))
	}
	if diff := cmp.Diff([]string{"terraform_data.b", "module.m", "data.x.y"}, deps); diff != "" {
		t.Errorf("depends_on (-want +got):\n%s", diff)
	}
	mr := a.Managed
	var ign []string
	for _, tr := range mr.IgnoreChanges {
		ign = append(ign, traversalString(tr))
	}
	if diff := cmp.Diff([]string{`triggers[cty.StringVal("x")]`, "id"}, ign); diff != "" {
		t.Errorf("ignore_changes (-want +got):\n%s", diff)
	}
	if mr.CreateBeforeDestroy || !mr.CreateBeforeDestroySet || !mr.PreventDestroy || mr.IgnoreAllChanges || len(mr.ReplaceTriggeredBy) != 2 {
		t.Errorf("lifecycle: %+v", mr)
	}
	if len(mr.Provisioners) != 2 || mr.Provisioners[0].When != ProvisionerWhenCreate || mr.Provisioners[1].When != ProvisionerWhenDestroy ||
		mr.Provisioners[0].OnFailure != ProvisionerOnFailureFail || mr.Provisioners[1].OnFailure != ProvisionerOnFailureContinue {
		t.Errorf("provisioners: %+v", mr.Provisioners)
	}
	attrs, diags := mr.Provisioners[1].Config.JustAttributes()
	if diags.HasErrors() || attrs["command"] == nil || len(attrs) != 1 {
		t.Errorf("provisioner config should hold only command: %v %s", attrs, diags.Error())
	}
	if mr.Connection == nil {
		t.Errorf("connection block not kept")
	}
	// The remaining body holds only the provider's arguments: decoding it
	// with a schema of just those must succeed.
	content, diags := a.Config.Content(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "triggers", Required: true}}})
	if diags.HasErrors() || len(content.Attributes) != 1 || len(content.Blocks) != 0 {
		t.Errorf("resource config should hold only triggers: %v %s", content, diags.Error())
	}
	if b := cfg.Module.ManagedResources["terraform_data.b"]; !b.Managed.IgnoreAllChanges || b.Managed.CreateBeforeDestroySet {
		t.Errorf("terraform_data.b lifecycle: %+v", b.Managed)
	}
	var passed []string
	for _, p := range cfg.Module.ModuleCalls["m"].Providers {
		passed = append(passed, p.InChild.String()+"="+p.InParent.String())
	}
	if diff := cmp.Diff([]string{"null=null.alt", "null.other=null"}, passed); diff != "" {
		t.Errorf("providers map (-want +got):\n%s", diff)
	}
	if d := cfg.Module.DataResources["data.x.y"]; d == nil || d.Managed != nil {
		t.Errorf("data resource: %+v", d)
	}
}

func TestCompatibilityVersion(t *testing.T) {
	dir := writeFiles(t, map[string]string{"main.tf": "terraform {\n  required_version = \">= 1.10\"\n}"})
	if _, diags := LoadConfigDir(dir); !diags.HasErrors() || !strings.Contains(diags[0].Detail, "1.9.0") {
		t.Errorf("the default loader should reject >= 1.10 naming 1.9.0: %v", diags)
	}
	if _, diags := (&Loader{CompatibilityVersion: "1.10.2"}).LoadConfigDir(dir); diags.HasErrors() {
		t.Errorf("a 1.10.2 loader should accept >= 1.10: %s", diags.Error())
	}
	if _, diags := (&Loader{CompatibilityVersion: "nope"}).LoadConfigDir(dir); !diags.HasErrors() {
		t.Errorf("an invalid compatibility version should be an error")
	}
}

func TestLegacyRequiredProvider(t *testing.T) {
	cfg := mustLoad(t, map[string]string{"main.tf": `
terraform {
  required_providers {
    random = "~> 3.1"
  }
}`})
	rp := cfg.Module.ProviderRequirements["random"]
	if rp == nil || rp.Type != addrs.NewDefaultProvider("random") || rp.Requirement.Required.String() != "~> 3.1" || rp.Source != "" {
		t.Errorf("legacy entry decoded as %+v", rp)
	}
}

func TestLoadRootErrors(t *testing.T) {
	if _, diags := LoadConfigDir(filepath.Join(t.TempDir(), "absent")); !diags.HasErrors() {
		t.Errorf("a missing root directory must be an error")
	}
	cfg, diags := LoadConfigDir(t.TempDir())
	if diags.HasErrors() || cfg == nil || len(cfg.Module.Files) != 0 {
		t.Errorf("an empty directory is an empty module: %v %s", cfg, diags.Error())
	}
}

func TestLoadModuleSingle(t *testing.T) {
	dir := writeFiles(t, map[string]string{"main.tf": `module "x" { source = "./nowhere" }`})
	m, diags := (&Loader{}).LoadModule(dir)
	if diags.HasErrors() || m.ModuleCalls["x"] == nil {
		t.Errorf("LoadModule must not follow module calls: %s", diags.Error())
	}
}

// TestVariableTypeDeclared tells "type = any" from no type, which both
// give cty.DynamicPseudoType, including a type set only by an override.
func TestVariableTypeDeclared(t *testing.T) {
	cfg, diags := loadInline(t, map[string]string{
		"main.tf": `
variable "untyped" {}
variable "any" { type = any }
variable "str" { type = string }
variable "later" {}
`,
		"main_override.tf": `variable "later" { type = any }`,
	})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	want := map[string]bool{"untyped": false, "any": true, "str": true, "later": true}
	for name, w := range want {
		if got := cfg.Module.Variables[name].TypeDeclared(); got != w {
			t.Errorf("%s: TypeDeclared() = %v, want %v", name, got, w)
		}
	}
}
