package install

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/addrs"
)

// TestParseDevOverrides: dev_overrides blocks, written as Terraform's
// documentation writes them (quoted provider addresses as argument names,
// which HCL 2 alone refuses), in native syntax and in JSON, with the rest
// of the file parsed as before and positions after the block still right.
func TestParseDevOverrides(t *testing.T) {
	env := []string{"HOME=/home/u", "GOBIN=/go/bin"}
	for _, tc := range []struct {
		name, file, src string
		want            map[addrs.Provider]string
		wantErr         string
	}{
		{name: "native", file: "rc", src: `
plugin_cache_dir = "/cache"
provider_installation {
  dev_overrides {
    "hashicorp/null"         = "$GOBIN"
    "example.com/acme/thing" = "~/dev/thing"
  }
  direct {}
}
`, want: map[addrs.Provider]string{
			addrs.NewDefaultProvider("null"):                            "/go/bin",
			{Hostname: "example.com", Namespace: "acme", Type: "thing"}: "/home/u/dev/thing",
		}},
		{name: "json", file: "rc.json", src: `{"provider_installation": {"dev_overrides": {"acme/foo": "/dev/foo"}, "direct": {}}}`,
			want: map[addrs.Provider]string{provFoo: "/dev/foo"}},
		{name: "bad address", file: "rc", src: "provider_installation {\n  dev_overrides {\n    \"not/a/valid/address\" = \"/x\"\n  }\n}\n",
			wantErr: "not/a/valid/address"},
		{name: "an error after the block keeps its line", file: "rc", src: "provider_installation {\n  dev_overrides {\n    \"acme/foo\" = \"/x\"\n  }\n  filesystem_mirror {\n    path    = \"/m\"\n    include = [\"toomany/a/b/c\"]\n  }\n}\n",
			wantErr: "rc:7"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, diags := ParseCLIConfig([]byte(tc.src), tc.file, env)
			if tc.wantErr != "" {
				if !diags.HasErrors() || !strings.Contains(diags.Error(), tc.wantErr) {
					t.Fatalf("diagnostics %v; want an error mentioning %q", diags, tc.wantErr)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			if d := cmp.Diff(tc.want, cfg.DevOverrides); d != "" {
				t.Errorf("dev overrides (-want +got):\n%s", d)
			}
			if tc.file == "rc" && cfg.PluginCacheDir != "/cache" {
				t.Errorf("plugin_cache_dir = %q; the rest of the file was not read", cfg.PluginCacheDir)
			}
			methods, diags := ParseMethods([]byte(tc.src), tc.file, env)
			if diags.HasErrors() || len(methods) != 1 || methods[0].Kind != Direct {
				t.Errorf("methods %v, %v; want the direct method", methods, diags)
			}
		})
	}
}

// TestFindDevOverride: an override wins over every installed package,
// whatever the constraints and the lock say; its executable is found by
// Terraform's naming rule; a directory without one is a clear error.
func TestFindDevOverride(t *testing.T) {
	pluginDir := t.TempDir()
	writeUnpacked(t, pluginDir, provFoo, "1.0.0", testPlatform, "released")
	dev := t.TempDir()
	for _, name := range []string{"terraform-provider-foobar", "README", "terraform-provider-foo_v9.9.9-dev"} {
		if err := os.WriteFile(filepath.Join(dev, name), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	empty := t.TempDir()
	gone := filepath.Join(t.TempDir(), "gone")
	rc := filepath.Join(t.TempDir(), "dev.tfrc")
	src := "provider_installation {\n  dev_overrides {\n    \"acme/foo\" = \"" + dev + "\"\n    \"hashicorp/null\" = \"" + empty + "\"\n    \"acme/bar\" = \"" + gone + "\"\n  }\n}\n"
	if err := os.WriteFile(rc, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	f := newTestFinder(t, []string{pluginDir}, "", []string{"HOME=" + t.TempDir(), "TF_CLI_CONFIG_FILE=" + rc})
	sel, err := f.Find(Requirement{Provider: provFoo, Constraints: constraints(t, "~> 1.0"), Locked: "1.0.0", LockedHashes: []string{"h1:doesnotmatch="}})
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dev, "terraform-provider-foo_v9.9.9-dev"); sel.Executable != want || sel.DevOverride != "dev_overrides in "+rc || sel.Package != nil {
		t.Errorf("selection %+v; want the override's executable %s", sel, want)
	}
	if !strings.Contains(sel.Where(), "dev_overrides in "+rc) {
		t.Errorf("Where() = %q", sel.Where())
	}
	// The override of a built-in provider with no executable is an error,
	// not a silent fall back to the built-in.
	_, err = f.Find(Requirement{Provider: provNull})
	var e *Error
	if !errors.As(err, &e) || e.Kind != BadPackage || !strings.Contains(e.Detail, empty) || !strings.Contains(e.Detail, "terraform-provider-null") {
		t.Errorf("got %v; want an error naming %s and the executable it lacks", err, empty)
	}
	// An override naming a directory that does not exist is an error too,
	// naming the directory and the file that set it.
	_, err = f.Find(Requirement{Provider: addrs.Provider{Hostname: "registry.terraform.io", Namespace: "acme", Type: "bar"}})
	if !errors.As(err, &e) || e.Kind != BadPackage || !strings.Contains(e.Detail, gone) || !strings.Contains(e.Detail, rc) {
		t.Errorf("got %v; want an error naming %s and %s", err, gone, rc)
	}
}
