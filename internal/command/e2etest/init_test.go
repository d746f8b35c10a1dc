package e2etest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plankit/plankit/internal/providers/install/registrytest"
	"github.com/plankit/plankit/internal/providers/plugin/plugintest"
)

const registryConfig = `
terraform {
  required_providers {
    fwtest = {
      source  = "%s/plankit/fwtest"
      version = "~> 1.0"
    }
    sdktest = {
      source = "%s/plankit/sdktest"
    }
  }
}

variable "objects" {
  type = string
}

provider "fwtest" {
  state_dir = var.objects
}

provider "sdktest" {
  state_dir = var.objects
}

resource "fwtest_thing" "a" {
  name = "alpha"
}

resource "sdktest_thing" "b" {
  name  = "beta"
  value = fwtest_thing.a.id
}
`

// registryEnv serves the test providers from a loopback HTTPS registry
// (signed SHA256SUMS), trusted through SSL_CERT_FILE as a user would.
func registryEnv(t *testing.T) (*registrytest.Server, []string) {
	bins := plugintest.Build(t)
	srv := registrytest.New(t)
	srv.AddBinary(t, "plankit/fwtest", "1.0.0", platform, bins.FW)
	srv.AddBinary(t, "plankit/fwtest", "2.0.0", platform, bins.FW)
	srv.AddBinary(t, "plankit/sdktest", "2.1.0", platform, bins.SDK)
	env := append(pluginEnv(t), "SSL_CERT_FILE="+srv.WriteCA(t, t.TempDir()))
	return srv, env
}

// TestInitPlanApplyFromRegistry: plan init installs from the registry
// into .terraform/providers and writes the lock file; plan and apply then
// use the installed plugins with no -plugin-dir.
func TestInitPlanApplyFromRegistry(t *testing.T) {
	srv, env := registryEnv(t)
	host := srv.Host()
	dir, objects := t.TempDir(), t.TempDir()
	repo := gitModule(t)
	writeFile(t, filepath.Join(dir, "main.tf"), fmt.Sprintf(registryConfig, host, host)+
		"module \"meta\" {\n  source = \"git::file://"+repo+"//meta?ref=v1.0.0\"\n}\noutput \"meta\" { value = module.meta.greeting }\n")

	r := run(t, dir, "plan", env, "-no-color", "-var", "objects="+objects, "-out=x.tfplan")
	must(t, r, 1, "plan before init")
	contains(t, r.stderr, "plan before init", "Module not installed", "Run plan init")

	r = run(t, dir, "plan", env, "init", "-lockfile=readonly", "-no-color")
	must(t, r, 1, "init -lockfile=readonly without a lock file")
	contains(t, r.stderr, "readonly init", "Provider dependency changes detected")
	contains(t, r.stdout, "readonly init", "Initializing modules...\nDownloading git::file://"+repo+"//meta?ref=v1.0.0 for meta...\n- meta in .terraform/modules/meta/meta")
	if _, err := os.Stat(filepath.Join(dir, ".terraform.lock.hcl")); err == nil {
		t.Error("init -lockfile=readonly wrote the lock file")
	}

	r = run(t, dir, "plan", env, "init", "-no-color")
	must(t, r, 0, "init")
	keyID := srv.Key.PrimaryKey.KeyIdString()
	contains(t, r.stdout, "init output",
		"Initializing modules...\n- meta in .terraform/modules/meta/meta", // downloaded by the readonly init already
		"Initializing provider plugins...",
		"- Finding "+host+"/plankit/fwtest versions matching \"~> 1.0\"...",
		"- Installing "+host+"/plankit/fwtest v1.0.0...",
		"- Installed "+host+"/plankit/fwtest v1.0.0 (self-signed, key ID "+keyID+")",
		"- Finding latest version of "+host+"/plankit/sdktest...",
		"- Installed "+host+"/plankit/sdktest v2.1.0 (self-signed, key ID "+keyID+")",
		"plankit has created a lock file .terraform.lock.hcl",
		"plankit has been successfully initialized!")
	exe := filepath.Join(dir, ".terraform", "providers", host, "plankit", "fwtest", "1.0.0", platform, "terraform-provider-fwtest_v1.0.0")
	if st, err := os.Stat(exe); err != nil || st.Mode()&0o111 == 0 {
		t.Fatalf("installed executable %s: %v", exe, err)
	}
	lock, err := os.ReadFile(filepath.Join(dir, ".terraform.lock.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	contains(t, string(lock), "lock file",
		"provider \""+host+"/plankit/fwtest\" {\n  version     = \"1.0.0\"\n  constraints = \"~> 1.0\"\n  hashes = [\n    \"h1:",
		"\"zh:")
	if n := strings.Count(string(lock), "zh:"); n != 2 {
		t.Errorf("lock file has %d zh: hashes, want one per package:\n%s", n, lock)
	}

	r = run(t, dir, "plan", env, "init", "-no-color")
	must(t, r, 0, "second init")
	contains(t, r.stdout, "second init",
		"- Reusing previous version of "+host+"/plankit/fwtest from the dependency lock file",
		"- Using previously-installed "+host+"/plankit/fwtest v1.0.0")
	if strings.Contains(r.stdout, "created a lock file") {
		t.Error("second init claims to create the lock file")
	}

	r = run(t, dir, "plan", env, "-no-color", "-var", "objects="+objects, "-out=x.tfplan")
	must(t, r, 0, "plan after init")
	contains(t, r.stdout, "plan", "Plan: 2 to add, 0 to change, 0 to destroy.")
	r = run(t, dir, "apply", env, "-no-color", "x.tfplan")
	must(t, r, 0, "apply")
	contains(t, r.stdout, "apply", "Apply complete! Resources: 2 added, 0 changed, 0 destroyed.")
	noProviderProcesses(t, env)

	// The archive alone, on an empty runner: apply -install fetches the
	// locked versions.
	runner := t.TempDir()
	objects2 := t.TempDir()
	r = run(t, dir, "plan", env, "-no-color", "-var", "objects="+objects2, "-state=other.tfstate", "-out=y.tfplan")
	must(t, r, 0, "second plan")
	copyFile(t, filepath.Join(dir, "y.tfplan"), filepath.Join(runner, "y.tfplan"))
	r = run(t, runner, "apply", pluginEnvWithCA(t, env), "-no-color", "y.tfplan")
	must(t, r, 1, "apply without -install on an empty runner")
	contains(t, strings.Join(strings.Fields(r.stderr), " "), "apply without -install", "run apply -install y.tfplan.")
	r = run(t, runner, "apply", pluginEnvWithCA(t, env), "-no-color", "-install", "y.tfplan")
	must(t, r, 0, "apply -install")
	contains(t, r.stdout, "apply -install",
		"- Installed "+host+"/plankit/fwtest v1.0.0 (self-signed, key ID "+keyID+")",
		"Apply complete! Resources: 2 added, 0 changed, 0 destroyed.",
		`meta = "hello from git"`)
	noProviderProcesses(t, env)
}

// pluginEnvWithCA is a fresh HOME and cache with env's SSL_CERT_FILE.
func pluginEnvWithCA(t *testing.T, env []string) []string {
	out := pluginEnv(t)
	for _, kv := range env {
		if strings.HasPrefix(kv, "SSL_CERT_FILE=") {
			out = append(out, kv)
		}
	}
	return out
}

// TestPlanInstallAndFailures: plan -install is one CI command; a
// tampered package is refused with nothing installed.
func TestPlanInstallAndFailures(t *testing.T) {
	srv, env := registryEnv(t)
	host := srv.Host()
	dir, objects := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), fmt.Sprintf(registryConfig, host, host))

	srv.SetTamper("zip")
	r := run(t, dir, "plan", env, "-no-color", "-install", "-var", "objects="+objects)
	must(t, r, 1, "plan -install of a tampered package")
	contains(t, r.stderr, "tampered", "checksum mismatch", "Nothing was installed.")
	if _, err := os.Stat(filepath.Join(dir, ".terraform", "providers", host, "plankit", "fwtest")); err == nil {
		t.Error("a tampered package was installed")
	}
	srv.SetTamper("")
	r = run(t, dir, "plan", env, "-no-color", "-install", "-var", "objects="+objects)
	must(t, r, 0, "plan -install")
	contains(t, r.stdout, "plan -install", "- Installed "+host+"/plankit/fwtest v1.0.0", "Plan: 2 to add, 0 to change, 0 to destroy.")
	noProviderProcesses(t, env)

	// The lock pins a version the registry withdrew.
	srv.Remove("plankit/fwtest", "1.0.0")
	os.RemoveAll(filepath.Join(dir, ".terraform"))
	r = run(t, dir, "plan", env, "init", "-no-color")
	must(t, r, 1, "init with a withdrawn locked version")
	contains(t, r.stderr, "withdrawn", "Locked provider version is not available", "plan init -upgrade")
	r = run(t, dir, "plan", env, "init", "-no-color", "-upgrade")
	must(t, r, 1, "init -upgrade: no 1.x left")
	contains(t, r.stderr, "no versions left", "no available releases match")
}

// gitModule is a local git repository (system git) tagged v1.0.0 whose
// meta directory is a module with one output.
func gitModule(t *testing.T) string {
	repo := t.TempDir()
	if err := os.Mkdir(filepath.Join(repo, "meta"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(repo, "meta", "main.tf"), "output \"greeting\" { value = \"hello from git\" }\n")
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"commit", "-q", "-m", "meta"}, {"tag", "v1.0.0"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.invalid", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.invalid", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return repo
}
