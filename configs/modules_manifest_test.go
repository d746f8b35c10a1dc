package configs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// terraformInitialised is a directory as terraform init leaves it for a
// registry module that calls a local submodule and a git module.
var terraformInitialised = map[string]string{
	"main.tf": `
module "vpc" {
  source  = "terraform-aws-modules/vpc/aws"
  version = "~> 5.0"
}
module "net" {
  source = "git::https://example.com/net.git//subnets?ref=v1.2.0"
}
`,
	".terraform/modules/vpc/main.tf":             "module \"sub\" {\n  source = \"./modules/sub\"\n}\noutput \"id\" { value = module.sub.id }\n",
	".terraform/modules/vpc/modules/sub/main.tf": "output \"id\" { value = \"vpc-1\" }\n",
	".terraform/modules/net/subnets/main.tf":     "output \"cidr\" { value = \"10.0.0.0/16\" }\n",
	".terraform/modules/modules.json": `{"Modules":[{"Key":"","Source":"","Dir":"."},` +
		`{"Key":"net","Source":"git::https://example.com/net.git//subnets?ref=v1.2.0","Dir":".terraform/modules/net/subnets"},` +
		`{"Key":"vpc","Source":"registry.terraform.io/terraform-aws-modules/vpc/aws","Version":"5.1.0","Dir":".terraform/modules/vpc"},` +
		`{"Key":"vpc.sub","Source":"./modules/sub","Dir":".terraform/modules/vpc/modules/sub"}]}`,
}

func TestLoadInstalledModules(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, terraformInitialised)
	cfg, diags := LoadConfigDir(root)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	got := map[string]string{}
	cfg.DeepEach(func(c *Config) { got[c.Path.String()] = c.Module.SourceDir })
	want := map[string]string{"": ".", "module.vpc": ".terraform/modules/vpc", "module.vpc.module.sub": ".terraform/modules/vpc/modules/sub", "module.net": ".terraform/modules/net/subnets"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: dir %q, want %q (all: %v)", k, got[k], v, got)
		}
	}
	if v := cfg.Children["vpc"]; v == nil || cfg.Module.ModuleCalls["vpc"].Version != "~> 5.0" {
		t.Errorf("version constraint not kept")
	}
	// The snapshot (what a plan archive carries) loads the same tree
	// without the working directory.
	snap, ds := LoadConfigSnapshot(cfg.Snapshot())
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	if snap.Children["vpc"].Children["sub"].Module.SourceDir != ".terraform/modules/vpc/modules/sub" {
		t.Error("snapshot lost the installed module")
	}
}

func TestLoadInstalledModulesErrors(t *testing.T) {
	tests := map[string]struct {
		edit func(files map[string]string)
		want string
	}{
		"no manifest": {func(f map[string]string) { delete(f, ".terraform/modules/modules.json") }, `The module "net" has source "git::https://example.com/net.git//subnets?ref=v1.2.0", which is not installed`},
		"source changed": {func(f map[string]string) {
			f["main.tf"] = strings.Replace(f["main.tf"], "ref=v1.2.0", "ref=v2.0.0", 1)
		}, "the source changed since the last init"},
		"manifest escapes": {func(f map[string]string) {
			f[".terraform/modules/modules.json"] = strings.Replace(f[".terraform/modules/modules.json"], `"Dir":".terraform/modules/net/subnets"`, `"Dir":"../../elsewhere"`, 1)
		}, "outside the configuration directory"},
		"bad manifest": {func(f map[string]string) { f[".terraform/modules/modules.json"] = "{" }, "is not valid JSON"},
		"version on local": {func(f map[string]string) {
			f["main.tf"] += "module \"l\" {\n  source = \"./l\"\n  version = \"1.0\"\n}\n"
		}, "Invalid version argument for a local module"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			files := map[string]string{}
			for k, v := range terraformInitialised {
				files[k] = v
			}
			tc.edit(files)
			root := t.TempDir()
			writeTree(t, root, files)
			_, diags := LoadConfigDir(root)
			if !diags.HasErrors() || !strings.Contains(diags.Error(), tc.want) {
				t.Errorf("diags %v, want an error containing %q", diags, tc.want)
			}
		})
	}
}
