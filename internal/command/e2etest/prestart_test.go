package e2etest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPluginPrestartFromLockFile: with a lock file, plan starts the
// locked providers while it loads the configuration (see
// command/providers_prestart.go). Each provider still runs as one
// process, and none outlives the command, whether the plan succeeds,
// fails after the providers were started, or does not need a provider
// the lock file records.
func TestPluginPrestartFromLockFile(t *testing.T) {
	mirror := newPluginMirror(t)
	dir, objects := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), fmt.Sprintf(pluginConfig, "~> 1.0"))
	env := pluginEnv(t)
	plan := func(extra ...string) result {
		args := append([]string{"-no-color", "-plugin-dir=" + mirror.dir, "-var", "objects=" + objects}, extra...)
		return run(t, dir, "plan", env, args...)
	}
	must(t, plan("-out=x.tfplan"), 0, "first plan (records the lock file)")
	mirror.starts(t)
	noProviderProcesses(t, env)

	// Planned again with the lock file: one process per provider.
	r := plan("-out=x.tfplan")
	must(t, r, 0, "plan with the lock file")
	contains(t, r.stdout, "plan output", "Plan: 2 to add, 0 to change, 0 to destroy.")
	if got := strings.Join(sorted(mirror.starts(t)), " "); got != "fwtest sdktest" {
		t.Errorf("plan started provider processes %q, want one of each", got)
	}
	noProviderProcesses(t, env)

	// Apply of the archive (its lock file): one process per provider.
	r = run(t, dir, "apply", env, "-no-color", "-plugin-dir="+mirror.dir, "x.tfplan")
	must(t, r, 0, "apply")
	if got := strings.Join(sorted(mirror.starts(t)), " "); got != "fwtest sdktest" {
		t.Errorf("apply started provider processes %q, want one of each", got)
	}
	noProviderProcesses(t, env)

	// A plan that fails after its providers started (an undeclared
	// variable is only found once the configuration is loaded).
	r = plan("-var", "nope=1")
	must(t, r, 1, "plan with an undeclared variable")
	noProviderProcesses(t, env)
	mirror.starts(t)

	// A configuration that no longer uses a locked provider: the plan
	// works and the unused provider's process is stopped.
	writeFile(t, filepath.Join(dir, "main.tf"), `
terraform {
  required_providers {
    fwtest = {
      source  = "plankit/fwtest"
      version = "~> 1.0"
    }
  }
}

variable "objects" {
  type = string
}

provider "fwtest" {
  state_dir = var.objects
}

resource "fwtest_thing" "c" {
  name = "gamma"
}
`)
	r = plan("-state=" + filepath.Join(t.TempDir(), "empty.tfstate"))
	must(t, r, 0, "plan without sdktest")
	contains(t, r.stdout, "plan output", "Plan: 1 to add, 0 to change, 0 to destroy.")
	noProviderProcesses(t, env)
}

// TestPluginLockMismatchRefusedAtPlan: a package altered after its lock
// entry was recorded is refused by plan before any provider process
// starts, the early start (from the lock file) included.
func TestPluginLockMismatchRefusedAtPlan(t *testing.T) {
	mirror := newPluginMirror(t)
	dir, objects := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), fmt.Sprintf(pluginConfig, "~> 1.0"))
	env := pluginEnv(t)
	plan := func() result {
		return run(t, dir, "plan", env, "-no-color", "-plugin-dir="+mirror.dir, "-var", "objects="+objects, "-out=x.tfplan")
	}
	must(t, plan(), 0, "first plan (records the lock file)")
	mirror.starts(t)

	exe := filepath.Join(mirror.fwDir, "terraform-provider-fwtest_v1.0.0")
	orig, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	writeExec(t, exe, string(orig)+"# altered\n")
	r := plan()
	must(t, r, 1, "plan of an altered package")
	contains(t, strings.Join(strings.Fields(r.stderr), " "), "plan error",
		"Provider package does not match the lock file", "plankit/fwtest 1.0.0")
	if got := mirror.starts(t); len(got) != 0 {
		t.Errorf("provider processes started before the refusal: %v", got)
	}
	noProviderProcesses(t, env)
}
