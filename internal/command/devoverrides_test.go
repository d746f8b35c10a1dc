package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDevOverrides: a provider in the CLI configuration's dev_overrides is
// skipped by init (nothing downloaded, nothing locked, -lockfile=readonly
// content), and plan serves it from the override's directory with a
// warning, recording nothing in the lock file.
func TestDevOverrides(t *testing.T) {
	dir, dev := t.TempDir(), t.TempDir()
	writeFiles(t, dir, map[string]string{"main.tf": acmeConfig})
	exe := filepath.Join(dev, "terraform-provider-null")
	if err := os.WriteFile(exe, []byte("#!/bin/false\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	rc := filepath.Join(t.TempDir(), "dev.tfrc")
	if err := os.WriteFile(rc, []byte("provider_installation {\n  dev_overrides {\n    \"example.com/acme/null\" = \""+dev+"\"\n  }\n  direct {}\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rec := &pluginRecorder{}
	m, out, errb := discoveryMeta(t, rec)
	m.Env = append(m.Env, "TF_CLI_CONFIG_FILE="+rc)

	// No registry answers for example.com: init must not try it.
	for _, args := range [][]string{{"init", "-no-color"}, {"init", "-no-color", "-lockfile=readonly"}} {
		out.Reset()
		errb.Reset()
		if code := Plan(m, append([]string{"-chdir=" + dir}, args...)); code != 0 {
			t.Fatalf("%v: exit %d\n%s%s", args, code, out, errb)
		}
		if want := "- Skipped example.com/acme/null: dev_overrides in " + rc + " serves it from " + dev; !strings.Contains(out.String(), want) {
			t.Errorf("%v output lacks %q:\n%s", args, want, out)
		}
	}
	lockPath := filepath.Join(dir, ".terraform.lock.hcl")
	if b, err := os.ReadFile(lockPath); err == nil && strings.Contains(string(b), "acme/null") {
		t.Errorf("init locked the overridden provider:\n%s", b)
	}

	out.Reset()
	errb.Reset()
	if code := Plan(m, []string{"-chdir=" + dir, "-no-color"}); code != 0 {
		t.Fatalf("plan: exit %d\n%s%s", code, out, errb)
	}
	if len(rec.chosen) != 1 || rec.chosen[0] != "example.com/acme/null  "+exe {
		t.Errorf("plan chose %q, want the override's executable %s", rec.chosen, exe)
	}
	if all := out.String() + errb.String(); !strings.Contains(all, "Provider development overrides are in effect") || !strings.Contains(all, "example.com/acme/null in "+dev) {
		t.Errorf("plan did not warn about the override:\n%s", all)
	}
	if b, err := os.ReadFile(lockPath); err == nil && strings.Contains(string(b), "acme/null") {
		t.Errorf("plan locked the overridden provider:\n%s", b)
	}
}
