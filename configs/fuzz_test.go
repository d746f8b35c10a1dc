package configs

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/addrs"
)

// fuzzSeeds returns every .tf file of the config fixtures plus a few
// hand-written edge cases, as the fuzz seed corpus.
func fuzzSeeds(f *testing.F, suffix string) [][]byte {
	f.Helper()
	seeds := [][]byte{
		nil,
		[]byte("{"),
		[]byte(`variable "v" { type = object({ a = optional(list(string), ["x"]) }) default = {} }`),
		[]byte(`resource "a" "b" { lifecycle { ignore_changes = all } }`),
		[]byte(`module "m" { source = "./" }`),
		[]byte(`terraform { required_providers { x = { source = "a/b", configuration_aliases = [x.y] } } }`),
		[]byte(`{"variable": {"v": {"type": "list(string)", "default": [1]}}}`),
		[]byte(`{"resource": {"a": {"b": {"depends_on": ["x.y"], "provider": "a.b"}}}}`),
		// Nesting deep enough to overflow the stack in the HCL parsers
		// (a fatal error, not a panic) unless inputguard.CheckNesting stops it first.
		[]byte(deepParens(100000)),
		[]byte(deepJSON(100000)),
		[]byte("locals {\n  x = \"ab\xffc\"\n}\n"),
		[]byte("removed {\n  from = module.a.b.c\n  lifecycle {\n    destroy = false\n  }\n  connection {}\n  provisioner \"local-exec\" {\n    when = destroy\n    command = \"x\"\n  }\n}\n"),
		[]byte(`{"removed": [{"from": "module.a[0].b", "lifecycle": {"destroy": "true"}}, {"from": "data.x.y"}]}`),
		[]byte(`resource "a" "b" { lifecycle { precondition { condition = var.x error_message = "m" } postcondition { condition = self.y error_message = "${self.y}" } } }`),
		[]byte(`check "c" { data "a" "b" { x = 1 } assert { condition = data.a.b.x == 1 error_message = "m" } }`),
		[]byte(`{"check": {"c": {"assert": [{"condition": "${var.x}", "error_message": "m"}]}}, "output": {"o": {"value": 1, "precondition": {"condition": "${var.x}", "error_message": "m"}}}}`),
	}
	matches, _ := filepath.Glob(filepath.Join(fixturesDir, "config-*", "*"+suffix))
	for _, p := range matches {
		if src, err := os.ReadFile(p); err == nil {
			seeds = append(seeds, src)
		}
	}
	return seeds
}

// loadFuzzModule loads src as the only file of a module (and its override
// twin), in memory, and exercises the result's bodies the way the core will.
func loadFuzzModule(t *testing.T, name string, src []byte) {
	m, diags := (&Loader{}).LoadModuleFromFiles(".", map[string][]byte{name: src, "z_override" + name[len("main"):]: src})
	if m == nil {
		t.Fatalf("nil module (diags: %v)", diags)
	}
	for _, d := range diags {
		if d.Severity == hcl.DiagError && d.Summary == "" {
			t.Fatalf("error diagnostic without a summary: %#v", d)
		}
	}
	for _, r := range m.ManagedResources {
		_, _ = r.Config.JustAttributes()
		_ = r.ProviderConfigAddr()
	}
	for _, r := range m.Removed {
		mod, _ := r.Target(addrs.Module{"parent"})
		if len(mod) < 1 || r.FromString() == "" {
			t.Fatalf("removed block with an empty target: %#v", r)
		}
	}
	for _, mc := range m.ModuleCalls {
		_, _ = mc.Config.JustAttributes()
	}
}

// FuzzLoadModule feeds arbitrary bytes to the loader as main.tf: it must
// never panic, whatever the input.
func FuzzLoadModule(f *testing.F) {
	for _, s := range fuzzSeeds(f, ".tf") {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		loadFuzzModule(t, "main.tf", src)
	})
}

// FuzzLoadModuleJSON is FuzzLoadModule for the JSON syntax (main.tf.json).
func FuzzLoadModuleJSON(f *testing.F) {
	for _, s := range fuzzSeeds(f, ".tf.json") {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		loadFuzzModule(t, "main.tf.json", src)
	})
}
