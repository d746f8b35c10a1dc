package e2etest

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/mod/sumdb/dirhash"

	"github.com/plankit/plankit/internal/providers/plugin/plugintest"
)

var platform = runtime.GOOS + "_" + runtime.GOARCH

// pluginMirror is a -plugin-dir directory holding the test providers in
// both of Terraform's filesystem mirror layouts: fwtest 1.0.0 unpacked,
// sdktest 2.1.0 packed. Each executable is a shell script that appends a
// line to the marker file, then runs the real provider binary: so tests
// see every provider process start, and can alter a package by editing
// the script.
type pluginMirror struct {
	dir, marker   string
	fwDir, sdkZip string
}

func newPluginMirror(t *testing.T) *pluginMirror {
	t.Helper()
	bins := plugintest.Build(t)
	m := &pluginMirror{dir: t.TempDir(), marker: filepath.Join(t.TempDir(), "started")}
	m.fwDir = filepath.Join(m.dir, "registry.terraform.io", "plankit", "fwtest", "1.0.0", platform)
	if err := os.MkdirAll(m.fwDir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeExec(t, filepath.Join(m.fwDir, "terraform-provider-fwtest_v1.0.0"), wrapper(m.marker, "fwtest", bins.FW))
	zdir := filepath.Join(m.dir, "registry.terraform.io", "plankit", "sdktest")
	if err := os.MkdirAll(zdir, 0o755); err != nil {
		t.Fatal(err)
	}
	m.sdkZip = filepath.Join(zdir, "terraform-provider-sdktest_2.1.0_"+platform+".zip")
	writeZip(t, m.sdkZip, "terraform-provider-sdktest_v2.1.0", wrapper(m.marker, "sdktest", bins.SDK))
	return m
}

func wrapper(marker, name, bin string) string {
	return fmt.Sprintf("#!/bin/sh\necho %s >> %q\nexec %q \"$@\"\n", name, marker, bin)
}

func writeExec(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o755); err != nil {
		t.Fatal(err)
	}
}

func writeZip(t *testing.T, path, name, content string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	h := &zip.FileHeader{Name: name, Method: zip.Deflate}
	h.SetMode(0o755)
	w, err := zw.CreateHeader(h)
	if err == nil {
		_, err = w.Write([]byte(content))
	}
	if err == nil {
		err = zw.Close()
	}
	if err == nil {
		err = f.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
}

// starts returns the provider processes started since the last call.
func (m *pluginMirror) starts(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(m.marker)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(m.marker); err != nil {
		t.Fatal(err)
	}
	return strings.Fields(string(b))
}

const pluginConfig = `
terraform {
  required_providers {
    fwtest = {
      source  = "plankit/fwtest"
      version = "%s"
    }
    sdktest = {
      source = "plankit/sdktest"
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

output "a_id" {
  value = fwtest_thing.a.id
}
`

// pluginEnv isolates the binaries from the user's CLI configuration and
// provider cache.
func pluginEnv(t *testing.T) []string {
	return []string{"HOME=" + t.TempDir(), "XDG_CACHE_HOME=" + t.TempDir()}
}

// TestPluginProvidersPlanCopyApply: plan with plugin providers found in
// -plugin-dir (one unpacked, one packed), record them in the lock file,
// copy only the .tfplan to another directory and apply it there with
// -plugin-dir. No provider process outlives either command.
func TestPluginProvidersPlanCopyApply(t *testing.T) {
	mirror := newPluginMirror(t)
	dir, objects := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), fmt.Sprintf(pluginConfig, "~> 1.0"))
	env := pluginEnv(t)

	r := run(t, dir, "plan", env, "-no-color", "-plugin-dir="+mirror.dir, "-var", "objects="+objects, "-out=x.tfplan")
	must(t, r, 0, "plan")
	contains(t, r.stdout, "plan output",
		"plankit recorded the provider selections in .terraform.lock.hcl:\n  registry.terraform.io/plankit/fwtest 1.0.0\n  registry.terraform.io/plankit/sdktest 2.1.0",
		"# fwtest_thing.a will be created", "# sdktest_thing.b will be created", "Plan: 2 to add, 0 to change, 0 to destroy.",
		"apply -plugin-dir="+mirror.dir+" \"x.tfplan\"")
	// One process per provider: the one that answered the schema
	// request is the one the plan configured.
	if got := strings.Join(sorted(mirror.starts(t)), " "); got != "fwtest sdktest" {
		t.Errorf("plan started provider processes %q, want one of each", got)
	}
	noProviderProcesses(t, env)

	// The lock file, with hashes computed here from their definitions.
	fwH1, err := dirhash.HashDir(mirror.fwDir, "", dirhash.Hash1)
	if err != nil {
		t.Fatal(err)
	}
	sdkH1, err := dirhash.HashZip(mirror.sdkZip, dirhash.Hash1)
	if err != nil {
		t.Fatal(err)
	}
	zb, _ := os.ReadFile(mirror.sdkZip)
	sum := sha256.Sum256(zb)
	lock, err := os.ReadFile(filepath.Join(dir, ".terraform.lock.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	contains(t, string(lock), "lock file",
		"provider \"registry.terraform.io/plankit/fwtest\" {\n  version     = \"1.0.0\"\n  constraints = \"~> 1.0\"\n  hashes = [\n    \""+fwH1+"\",\n  ]\n}",
		"provider \"registry.terraform.io/plankit/sdktest\" {\n  version = \"2.1.0\"\n  hashes = [\n    \""+sdkH1+"\",\n    \"zh:"+hex.EncodeToString(sum[:])+"\",\n  ]\n}")

	// Only the archive goes to another directory.
	other := t.TempDir()
	copyFile(t, filepath.Join(dir, "x.tfplan"), filepath.Join(other, "x.tfplan"))
	r = run(t, other, "apply", env, "-no-color", "-plugin-dir="+mirror.dir, "x.tfplan")
	must(t, r, 0, "apply")
	contains(t, r.stdout, "apply output", "fwtest_thing.a: Creation complete", "sdktest_thing.b: Creation complete", "Apply complete! Resources: 2 added, 0 changed, 0 destroyed.")
	if got := strings.Join(sorted(mirror.starts(t)), " "); got != "fwtest sdktest" {
		t.Errorf("apply started provider processes %q, want one of each", got)
	}
	noProviderProcesses(t, env)
	for _, kind := range []string{"thing", "sdkthing"} {
		if entries, _ := os.ReadDir(filepath.Join(objects, kind)); len(entries) != 1 {
			t.Errorf("the providers stored %d %s objects, want 1", len(entries), kind)
		}
	}

	// The state written there plans with no changes from the original
	// directory (both providers read their objects back).
	r = run(t, dir, "plan", env, "-no-color", "-plugin-dir="+mirror.dir, "-var", "objects="+objects, "-state="+filepath.Join(other, "terraform.tfstate"), "-detailed-exitcode")
	must(t, r, 0, "plan after apply")
	contains(t, r.stdout, "second plan", "No changes.")
	noProviderProcesses(t, env)
}

// TestPluginLockMismatchRefusedAtApply: a package altered after the plan
// is refused by apply before any provider process starts.
func TestPluginLockMismatchRefusedAtApply(t *testing.T) {
	mirror := newPluginMirror(t)
	dir, objects := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), fmt.Sprintf(pluginConfig, ">= 1.0"))
	env := pluginEnv(t)
	must(t, run(t, dir, "plan", env, "-no-color", "-plugin-dir="+mirror.dir, "-var", "objects="+objects, "-out=x.tfplan"), 0, "plan")
	mirror.starts(t)

	exe := filepath.Join(mirror.fwDir, "terraform-provider-fwtest_v1.0.0")
	orig, _ := os.ReadFile(exe)
	writeExec(t, exe, string(orig)+"# altered\n")
	r := run(t, dir, "apply", env, "-no-color", "-plugin-dir="+mirror.dir, "x.tfplan")
	must(t, r, 1, "apply of an altered package")
	contains(t, strings.Join(strings.Fields(r.stderr), " "), "apply error",
		"Provider package does not match the lock file", "plankit/fwtest 1.0.0", mirror.fwDir)
	if got := mirror.starts(t); len(got) != 0 {
		t.Errorf("provider processes started before the refusal: %v", got)
	}
	if entries, _ := os.ReadDir(objects); len(entries) != 0 {
		t.Errorf("a refused apply created objects: %v", entries)
	}
	if _, err := os.Stat(filepath.Join(dir, "terraform.tfstate")); !os.IsNotExist(err) {
		t.Errorf("a refused apply wrote a state: %v", err)
	}
}

// TestPluginVersionConstraintUnmet: no installed version meets the
// constraint: plan says which versions it found where.
func TestPluginVersionConstraintUnmet(t *testing.T) {
	mirror := newPluginMirror(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), fmt.Sprintf(pluginConfig, "~> 2.0"))
	r := run(t, dir, "plan", pluginEnv(t), "-no-color", "-plugin-dir="+mirror.dir, "-var", "objects=x")
	must(t, r, 1, "plan")
	contains(t, strings.Join(strings.Fields(r.stderr), " "), "plan error",
		"No installed provider version meets the constraints",
		"registry.terraform.io/plankit/fwtest (~> 2.0)",
		"-plugin-dir "+mirror.dir+": 1.0.0 ("+platform+", unpacked)",
		".terraform/providers")
	if got := mirror.starts(t); len(got) != 0 {
		t.Errorf("provider processes started: %v", got)
	}
	if _, err := os.Stat(filepath.Join(dir, ".terraform.lock.hcl")); !os.IsNotExist(err) {
		t.Error("a failed plan wrote a lock file")
	}

	// Nothing installed anywhere: every place searched is named.
	env := pluginEnv(t)
	r = run(t, dir, "plan", env, "-no-color", "-var", "objects=x")
	must(t, r, 1, "plan with no plugins")
	home := strings.TrimPrefix(env[0], "HOME=")
	contains(t, strings.Join(strings.Fields(r.stderr), " "), "plan error",
		"Provider not found", "registry.terraform.io/plankit/fwtest (~> 2.0)", "registry.terraform.io/plankit/sdktest (any version)",
		".terraform/providers "+filepath.Join(dir, ".terraform", "providers")+": nothing",
		"implied local mirror "+filepath.Join(home, ".terraform.d", "plugins")+": nothing",
		"To install it, run plan init.")
}

// TestPluginInitialisedDirectory: a directory as terraform init leaves it
// (.terraform/providers and a lock file) plans and applies with no
// -plugin-dir, its lock file untouched; plan providers says where each
// provider comes from.
func TestPluginInitialisedDirectory(t *testing.T) {
	mirror := newPluginMirror(t)
	dir, objects := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), fmt.Sprintf(pluginConfig, "~> 1.0"))
	// What init leaves: the unpacked packages under .terraform/providers.
	fwPkg := filepath.Join(dir, ".terraform", "providers", "registry.terraform.io", "plankit", "fwtest", "1.0.0", platform)
	sdkPkg := filepath.Join(dir, ".terraform", "providers", "registry.terraform.io", "plankit", "sdktest", "2.1.0", platform)
	for _, d := range []string{fwPkg, sdkPkg} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	fwScript, _ := os.ReadFile(filepath.Join(mirror.fwDir, "terraform-provider-fwtest_v1.0.0"))
	writeExec(t, filepath.Join(fwPkg, "terraform-provider-fwtest_v1.0.0"), string(fwScript))
	writeExec(t, filepath.Join(sdkPkg, "terraform-provider-sdktest_v2.1.0"), wrapper(mirror.marker, "sdktest", plugintest.Build(t).SDK))
	fwH1, _ := dirhash.HashDir(fwPkg, "", dirhash.Hash1)
	sdkH1, _ := dirhash.HashDir(sdkPkg, "", dirhash.Hash1)
	lock := fmt.Sprintf(`# This file is maintained automatically by "terraform init".
# Manual edits may be lost in future updates.

provider "registry.terraform.io/plankit/fwtest" {
  version     = "1.0.0"
  constraints = "~> 1.0"
  hashes = [
    %q,
  ]
}

provider "registry.terraform.io/plankit/sdktest" {
  version = "2.1.0"
  hashes = [
    %q,
  ]
}
`, fwH1, sdkH1)
	writeFile(t, filepath.Join(dir, ".terraform.lock.hcl"), lock)
	env := pluginEnv(t)

	r := run(t, dir, "plan", env, "-chdir="+dir, "providers")
	must(t, r, 0, "plan providers")
	contains(t, r.stdout, "plan providers",
		"Providers required by configuration:\n.\n├── provider[registry.terraform.io/plankit/fwtest] ~> 1.0\n└── provider[registry.terraform.io/plankit/sdktest]\n",
		"    registry.terraform.io/plankit/fwtest 1.0.0: .terraform/providers "+filepath.Join(dir, ".terraform", "providers")+": "+filepath.Join(fwPkg, "terraform-provider-fwtest_v1.0.0")+"\n",
		"    registry.terraform.io/plankit/sdktest 2.1.0: .terraform/providers ")
	if got := mirror.starts(t); len(got) != 0 {
		t.Errorf("plan providers started %v", got)
	}

	r = run(t, dir, "plan", env, "-chdir="+dir, "validate", "-no-color")
	must(t, r, 0, "plan validate")
	contains(t, r.stdout, "plan validate", "Success! The configuration is valid.")

	r = run(t, dir, "apply", env, "-no-color", "-auto-approve", "-var", "objects="+objects)
	must(t, r, 0, "apply")
	contains(t, r.stdout, "apply", "Apply complete! Resources: 2 added, 0 changed, 0 destroyed.")
	if got, _ := os.ReadFile(filepath.Join(dir, ".terraform.lock.hcl")); string(got) != lock {
		t.Errorf("the lock file terraform init wrote was changed:\n%s", got)
	}
	noProviderProcesses(t, env)
}

// noProviderProcesses fails when a test provider process started with
// this test's environment (its unique HOME, env[0]) still runs (Linux:
// /proc).
func noProviderProcesses(t *testing.T, env []string) {
	t.Helper()
	if left := providerProcesses(t, env); len(left) > 0 {
		t.Errorf("provider processes started by this test still run after the command ended: %v", left)
	}
}

func providerProcesses(t *testing.T, env []string) []string {
	t.Helper()
	if runtime.GOOS != "linux" {
		return nil
	}
	bins := plugintest.Build(t)
	procs, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	mark := []byte(env[0] + "\x00")
	var out []string
	for _, p := range procs {
		exe, err := os.Readlink(filepath.Join("/proc", p.Name(), "exe"))
		if err != nil || exe != bins.FW && exe != bins.SDK {
			continue
		}
		environ, err := os.ReadFile(filepath.Join("/proc", p.Name(), "environ"))
		if err != nil || !bytes.Contains(environ, mark) {
			continue
		}
		out = append(out, p.Name()+" "+filepath.Base(exe))
	}
	return out
}

// TestInitLockFileAndBuiltinConstraints (issue 19): a lock file from tofu
// init (registry.opentofu.org entries, an entry for a provider not used
// here) no longer breaks apply where the built-in is the locked version,
// and is left unchanged (another locked version must be installed,
// issue 26); a version
// constraint the built-in does not meet is refused at plan, naming both
// versions.
func TestInitLockFileAndBuiltinConstraints(t *testing.T) {
	dir := t.TempDir()
	lock := `# This file is maintained automatically by "tofu init".
# Manual edits may be lost in future updates.

provider "registry.opentofu.org/hashicorp/null" {
  version     = "3.2.3"
  constraints = "~> 3.2"
  hashes = [
    "h1:I0Um8UkrMUb81Fxq/dxbr3HLP2cecTH2WMJiwKSrwQY=",
  ]
}

provider "registry.opentofu.org/hashicorp/aws" {
  version = "5.80.0"
  hashes = [
    "h1:q6ZQVHAX6EFdBLSpDcOQ1tGmZ+lX4ahlvoOxhDCq9FQ=",
  ]
}
`
	writeFile(t, filepath.Join(dir, ".terraform.lock.hcl"), lock)
	writeFile(t, filepath.Join(dir, "main.tf"), `
terraform {
  required_providers {
    null = {
      source  = "hashicorp/null"
      version = "~> 3.2"
    }
  }
}

resource "null_resource" "a" {}
`)
	env := pluginEnv(t)
	// Locked at a version the built-in (3.2.4) is not: plan says to
	// install it rather than serve the entry by the built-in (issue 26).
	r := run(t, dir, "plan", env, "-no-color", "-out=x.tfplan")
	must(t, r, 1, "plan with null locked at 3.2.3")
	contains(t, strings.Join(strings.Fields(r.stderr), " "), "plan error",
		"locks registry.opentofu.org/hashicorp/null at 3.2.3", "compatible with 3.2.4, not 3.2.3", "run plan init")
	lock = strings.Replace(lock, `version     = "3.2.3"`, `version     = "3.2.4"`, 1)
	writeFile(t, filepath.Join(dir, ".terraform.lock.hcl"), lock)
	must(t, run(t, dir, "plan", env, "-no-color", "-out=x.tfplan"), 0, "plan")
	r = run(t, dir, "apply", env, "-no-color", "x.tfplan")
	must(t, r, 0, "apply")
	contains(t, r.stdout, "apply", "Apply complete! Resources: 1 added, 0 changed, 0 destroyed.")
	if got, _ := os.ReadFile(filepath.Join(dir, ".terraform.lock.hcl")); string(got) != lock {
		t.Errorf("the lock file tofu init wrote was changed:\n%s", got)
	}

	writeFile(t, filepath.Join(dir, "main.tf"), `
terraform {
  required_providers {
    null = {
      source  = "hashicorp/null"
      version = "~> 3.6"
    }
  }
}

resource "null_resource" "a" {}
`)
	r = run(t, dir, "plan", env, "-no-color")
	must(t, r, 1, "plan with an unmet constraint")
	contains(t, strings.Join(strings.Fields(r.stderr), " "), "plan error",
		"Built-in provider version does not meet the constraints",
		"requires registry.opentofu.org/hashicorp/null ~> 3.6", "built-in registry.opentofu.org/hashicorp/null is version 3.2.4")
}

// TestPluginProcessesStopOnInterrupt: Ctrl-C twice during an apply with
// plugin providers running (the second exits at once) leaves no provider
// process behind.
func TestPluginProcessesStopOnInterrupt(t *testing.T) {
	mirror := newPluginMirror(t)
	dir, objects, ctl := t.TempDir(), t.TempDir(), t.TempDir()
	release := filepath.Join(ctl, "release")
	writeFile(t, filepath.Join(dir, "main.tf"), fmt.Sprintf(pluginConfig, "~> 1.0")+`
resource "fwtest_thing" "slow" {
  name = "slow"
  provisioner "local-exec" {
    command = "echo ready; while [ ! -e '`+release+`' ]; do sleep 0.05; done"
  }
}
`)
	env := pluginEnv(t)
	must(t, run(t, dir, "plan", env, "-no-color", "-plugin-dir="+mirror.dir, "-var", "objects="+objects, "-out=p.tfplan"), 0, "plan")
	noProviderProcesses(t, env)

	cmd := command(dir, "apply", env, "-no-color", "-plugin-dir="+mirror.dir, "p.tfplan")
	outLines, ready, errLines, acked := startWatched(t, cmd, "fwtest_thing.slow (local-exec): ready", "Interrupt received.")
	defer writeFile(t, release, "")
	<-ready
	if !outLines.has("(local-exec): ready") {
		_ = cmd.Process.Kill()
		<-outLines.done
		<-errLines.done
		_ = cmd.Wait()
		t.Fatalf("the provisioner never started:\n%s\n%s", outLines, errLines)
	}
	if len(providerProcesses(t, env)) == 0 {
		t.Errorf("no provider process runs during the apply: the check cannot see them")
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	<-acked
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	<-outLines.done
	<-errLines.done
	if err := cmd.Wait(); err == nil {
		t.Errorf("an interrupted apply exited 0\n%s\n%s", outLines, errLines)
	}
	noTrace(t, result{outLines.String(), errLines.String(), 1}, "interrupted apply")
	// The second Ctrl-C exits at once; the plugins are stopped on the way.
	deadline := time.Now().Add(5 * time.Second)
	for len(providerProcesses(t, env)) > 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	noProviderProcesses(t, env)
}

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}

// TestPluginDevOverrides: a provider named in the CLI configuration's
// dev_overrides (written as Terraform documents it, with quoted provider
// addresses) is served from that directory whatever the version
// constraint says, with a warning, and is never recorded in the lock
// file; plan and apply both use it.
func TestPluginDevOverrides(t *testing.T) {
	mirror := newPluginMirror(t)
	bins := plugintest.Build(t)
	dev := t.TempDir()
	writeExec(t, filepath.Join(dev, "terraform-provider-fwtest"), wrapper(mirror.marker, "fwtest-dev", bins.FW))
	rc := filepath.Join(t.TempDir(), "dev.tfrc")
	writeFile(t, rc, fmt.Sprintf("provider_installation {\n  dev_overrides {\n    \"plankit/fwtest\" = %q\n  }\n  direct {}\n}\n", dev))
	dir, objects := t.TempDir(), t.TempDir()
	// No installed fwtest meets this constraint: only the override can
	// serve it.
	writeFile(t, filepath.Join(dir, "main.tf"), fmt.Sprintf(pluginConfig, ">= 5.0"))
	env := append(pluginEnv(t), "TF_CLI_CONFIG_FILE="+rc)

	r := run(t, dir, "plan", env, "-no-color", "-plugin-dir="+mirror.dir, "-var", "objects="+objects, "-out=x.tfplan")
	must(t, r, 0, "plan")
	contains(t, r.stdout+r.stderr, "plan output", "Provider development overrides are in effect", "plankit/fwtest in "+dev,
		"# fwtest_thing.a will be created")
	if got := strings.Join(sorted(mirror.starts(t)), " "); got != "fwtest-dev sdktest" {
		t.Errorf("plan started provider processes %q, want the override of fwtest and sdktest", got)
	}
	lock, err := os.ReadFile(filepath.Join(dir, ".terraform.lock.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(lock), "fwtest") || !strings.Contains(string(lock), "plankit/sdktest") {
		t.Errorf("lock file records the overridden provider, or lacks the other:\n%s", lock)
	}

	r = run(t, dir, "apply", env, "-no-color", "-plugin-dir="+mirror.dir, "x.tfplan")
	must(t, r, 0, "apply")
	contains(t, r.stdout+r.stderr, "apply output", "Provider development overrides are in effect", "Apply complete! Resources: 2 added")
	if got := strings.Join(sorted(mirror.starts(t)), " "); got != "fwtest-dev sdktest" {
		t.Errorf("apply started provider processes %q, want the override of fwtest and sdktest", got)
	}
	noProviderProcesses(t, env)
}
