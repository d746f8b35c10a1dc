package configs

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/addrs"
)

func TestConfigTree(t *testing.T) {
	cfg, diags := LoadConfigDir(filepath.Join(fixturesDir, "config-valid-modules"))
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	var order []string
	cfg.DeepEach(func(c *Config) {
		if c.Root != cfg {
			t.Errorf("%s: Root is not the root", c.Path)
		}
		if c.Parent != nil && c.Parent.Children[c.Path[len(c.Path)-1]] != c {
			t.Errorf("%s: not its parent's child", c.Path)
		}
		order = append(order, c.Path.String()+"="+c.Module.SourceDir)
	})
	want := []string{
		"=.",
		"module.net=modules/net",
		"module.net.module.sub=modules/sub",
		"module.zones=modules/net",
		"module.zones.module.sub=modules/sub",
	}
	if diff := cmp.Diff(want, order); diff != "" {
		t.Errorf("DeepEach order (-want +got):\n%s", diff)
	}
	sub := cfg.Descendant(addrs.Module{"zones", "sub"})
	if sub == nil || sub.SourceAddr != "../sub" || sub.CallRange.Filename != "modules/net/main.tf" || sub.CallRange.Start.Line != 5 {
		t.Errorf("Descendant(zones.sub) = %+v", sub)
	}
	if cfg.Descendant(nil) != cfg || cfg.Descendant(addrs.Module{"nope"}) != nil || cfg.Descendant(addrs.Module{"net", "sub", "x"}) != nil {
		t.Errorf("Descendant of root / missing paths")
	}
	net := cfg.Module.ModuleCalls["net"]
	if net.Count == nil || net.ForEach != nil || cfg.Module.ModuleCalls["zones"].ForEach == nil || len(cfg.Module.ModuleCalls["zones"].DependsOn) != 1 {
		t.Errorf("module call repetition not decoded")
	}
	var types []string
	for _, p := range cfg.ProviderTypes() {
		types = append(types, p.String())
	}
	if diff := cmp.Diff([]string{"registry.terraform.io/hashicorp/null", "terraform.io/builtin/terraform"}, types); diff != "" {
		t.Errorf("ProviderTypes (-want +got):\n%s", diff)
	}
}

// TestDiagnosticRendering checks that diagnostics render their source
// snippet from the loaded configuration alone.
func TestDiagnosticRendering(t *testing.T) {
	cfg, diags := loadInline(t, map[string]string{
		"main.tf":   `module "c" { source = "./c" }`,
		"c/main.tf": "\nresource \"null_resource\" \"x\" {\n  count = 1\n  for_each = {}\n}\n",
	})
	if len(diags) != 1 {
		t.Fatalf("want one diagnostic, got %v", diags)
	}
	var buf bytes.Buffer
	w := hcl.NewDiagnosticTextWriter(&buf, cfg.SourceHCLFiles(), 0, false)
	if err := w.WriteDiagnostics(diags); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"on c/main.tf line 4", "for_each = {}", `in resource "null_resource" "x"`} {
		if !strings.Contains(out, want) {
			t.Errorf("rendered diagnostic lacks %q:\n%s", want, out)
		}
	}
}

func BenchmarkLoadConfigDir(b *testing.B) {
	dir := filepath.Join(fixturesDir, "config-valid-basic")
	for b.Loop() {
		if _, diags := LoadConfigDir(dir); diags.HasErrors() {
			b.Fatal(diags.Error())
		}
	}
}

func BenchmarkLoadConfigSnapshot(b *testing.B) {
	cfg, diags := LoadConfigDir(filepath.Join(fixturesDir, "config-valid-modules"))
	if diags.HasErrors() {
		b.Fatal(diags.Error())
	}
	snap := cfg.Snapshot()
	for b.Loop() {
		if _, diags := LoadConfigSnapshot(snap); diags.HasErrors() {
			b.Fatal(diags.Error())
		}
	}
}
