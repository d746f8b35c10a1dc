package configs

import (
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestTofuFiles: .tofu and .tofu.json files are configuration, override
// ones included, and a .tofu (.tofu.json) file replaces the .tf (.tf.json)
// file of the same stem in its directory, as in OpenTofu; a .tofu file
// does not replace a .tf.json one.
func TestTofuFiles(t *testing.T) {
	cfg, diags := loadInline(t, map[string]string{
		"main.tf":            `resource "null_resource" "from_tf" {}`,
		"main.tofu":          `resource "null_resource" "from_tofu" {}`,
		"extra.tofu":         `resource "null_resource" "extra" {}`,
		"data.tf.json":       `{"resource": {"null_resource": {"from_tf_json": {}}}}`,
		"data.tofu.json":     `{"resource": {"null_resource": {"from_tofu_json": {}}}}`,
		"both.tf.json":       `{"resource": {"null_resource": {"kept_tf_json": {}}}}`,
		"both.tofu":          `resource "null_resource" "kept_tofu" {}`,
		"over_override.tofu": `resource "null_resource" "extra" { triggers = { a = "b" } }`,
		"m/main.tf":          `resource "null_resource" "child_tf" {}`,
		"m/main.tofu":        `resource "null_resource" "child_tofu" {}`,
		"root.tf":            "module \"m\" {\n  source = \"./m\"\n}",
	})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	got := map[string][]string{}
	cfg.DeepEach(func(c *Config) {
		for _, name := range sortedKeys(c.Module.ManagedResources) {
			got[c.Path.String()] = append(got[c.Path.String()], name)
		}
	})
	want := map[string][]string{
		"":         {"null_resource.extra", "null_resource.from_tofu", "null_resource.from_tofu_json", "null_resource.kept_tf_json", "null_resource.kept_tofu"},
		"module.m": {"null_resource.child_tofu"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("resources (-want +got):\n%s", d)
	}
	if r := cfg.Module.ManagedResources["null_resource.extra"]; r.DeclRange.Filename != "extra.tofu" {
		t.Errorf("extra declared in %s", r.DeclRange.Filename)
	}
	if _, ok := cfg.Module.Files["main.tf"]; ok {
		t.Error("the shadowed main.tf is among the module's files")
	}
	for name, want := range map[string]fileKind{"a.tofu": filePrimary, "a.tofu.json": filePrimary, "override.tofu": fileOverride, "x_override.tofu.json": fileOverride, ".tofu": fileIgnored, "a.tofutest.hcl": fileIgnored} {
		if got := classifyFile(name); got != want {
			t.Errorf("classifyFile(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestProviderForEach: OpenTofu's provider for_each and NAME.ALIAS[KEY]
// references in a resource's provider argument load; the mistakes around
// them are errors at their place.
func TestProviderForEach(t *testing.T) {
	cfg, diags := loadInline(t, map[string]string{"main.tf": `
provider "null" {
  alias    = "by"
  for_each = toset(["a"])
}
resource "null_resource" "x" {
  for_each = toset(["a"])
  provider = null.by[each.key]
}
resource "null_resource" "y" {
  provider = null.by["a"]
}`})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if cfg.Module.ProviderConfigs["null.by"].ForEach == nil {
		t.Error("for_each not kept")
	}
	for _, name := range []string{"null_resource.x", "null_resource.y"} {
		ref := cfg.Module.ManagedResources[name].ProviderConfigRef
		if ref == nil || ref.KeyExpr == nil || ref.Addr().String() != "null.by" {
			t.Errorf("%s: provider ref %+v", name, ref)
		}
	}
	_, diags = loadInline(t, map[string]string{"main.tf": `
provider "null" {
  for_each = toset(["a"])
}
provider "null" {
  alias = "plain"
}
provider "null" {
  alias    = "by"
  for_each = toset(["a"])
}
resource "null_resource" "keyed_plain" {
  provider = null.plain["a"]
}
resource "null_resource" "no_key" {
  provider = null.by
}
module "m" {
  source    = "./m"
  providers = { null = null.by["a"], null.x = null.plain["a"], null.y = null.by }
}`, "m/main.tf": ``})
	want := []string{
		"main.tf:3: Provider for_each without an alias",
		"main.tf:13: Invalid provider instance reference",
		"main.tf:16: Provider instance key missing",
		"main.tf:20: Invalid provider instance reference",
		"main.tf:20: Provider instance key missing",
	}
	got := diagSummaries(diags)
	sort.Strings(got)
	sort.Strings(want)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}
