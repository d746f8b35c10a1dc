package command

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/depsfile"
	"github.com/plankit/plankit/internal/command/views"
	"github.com/plankit/plankit/internal/operation"
	"github.com/plankit/plankit/internal/providers/builtin"
	"github.com/plankit/plankit/internal/providers/builtin/null"
	"github.com/plankit/plankit/internal/providers/install"
	"github.com/plankit/plankit/planfile"
	"github.com/plankit/plankit/providers"
)

var acmeNull = addrs.Provider{Hostname: "example.com", Namespace: "acme", Type: "null"}

// pluginRecorder stands in for providers/plugin in Meta.Plugins: every
// discovered "plugin" is served by the built-in null provider's code, and
// each start is counted, so tests see which package discovery chose and
// whether anything started.
type pluginRecorder struct {
	starts atomic.Int64
	mu     sync.Mutex
	chosen []string // "ADDR VERSION EXECUTABLE"
}

func (r *pluginRecorder) factory(p addrs.Provider, version, exe string) providers.Factory {
	r.mu.Lock()
	r.chosen = append(r.chosen, fmt.Sprintf("%s %s %s", p, version, exe))
	r.mu.Unlock()
	return func() (providers.Interface, error) {
		r.starts.Add(1)
		return null.Factory()
	}
}

// discoveryMeta is a Meta as cli builds it: providers found by discovery,
// built-ins from builtin.FactoriesIn (their starts counted too), HOME an
// empty directory so no user configuration leaks in.
func discoveryMeta(t *testing.T, rec *pluginRecorder) (*Meta, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	var out, errb bytes.Buffer
	return &Meta{
		Streams: views.Streams{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb},
		Environment: operation.Environment{
			Env: []string{"HOME=" + t.TempDir(), "XDG_CACHE_HOME=" + t.TempDir()},
			ProvidersIn: func(wd string) map[addrs.Provider]providers.Factory {
				fs := map[addrs.Provider]providers.Factory{}
				for p, f := range builtin.FactoriesIn(wd) {
					fs[p] = func() (providers.Interface, error) {
						rec.starts.Add(1)
						return f()
					}
				}
				return fs
			},
			Plugins: rec.factory,
		},
	}, &out, &errb
}

// fakePackage writes an unpacked package HOST/NS/TYPE/VERSION/OS_ARCH
// below root and returns its directory.
func fakePackage(t *testing.T, root string, p addrs.Provider, version string) string {
	t.Helper()
	dir := filepath.Join(root, p.Hostname, p.Namespace, p.Type, version, runtime.GOOS+"_"+runtime.GOARCH)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "terraform-provider-"+p.Type+"_v"+version), []byte("#!/bin/false\n"+version), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

const acmeConfig = `
terraform {
  required_providers {
    null = {
      source  = "example.com/acme/null"
      version = "~> 3.0"
    }
  }
}

resource "null_resource" "a" {}
`

func TestPlanRecordsDiscoveredPluginInLockFile(t *testing.T) {
	dir, plugins := t.TempDir(), t.TempDir()
	writeFiles(t, dir, map[string]string{"main.tf": acmeConfig})
	fakePackage(t, plugins, acmeNull, "3.1.0")
	chosen := fakePackage(t, plugins, acmeNull, "3.2.0")
	fakePackage(t, plugins, acmeNull, "4.0.0")
	h1, err := install.HashDir(chosen)
	if err != nil {
		t.Fatal(err)
	}
	var rec pluginRecorder
	m, out, errb := discoveryMeta(t, &rec)
	if code := Plan(m, []string{"-chdir=" + dir, "-no-color", "-plugin-dir=" + plugins, "-out=p.tfplan"}); code != ExitOK {
		t.Fatalf("plan: exit %d\n%s", code, errb)
	}
	if !strings.Contains(out.String(), "plankit recorded the provider selections in .terraform.lock.hcl:\n  example.com/acme/null 3.2.0") {
		t.Errorf("plan did not say it recorded the provider:\n%s", out)
	}
	wantExe := filepath.Join(chosen, "terraform-provider-null_v3.2.0")
	if diff := cmp.Diff([]string{"example.com/acme/null 3.2.0 " + wantExe}, rec.chosen); diff != "" {
		t.Errorf("plugins started (-want +got):\n%s", diff)
	}
	lockPath := filepath.Join(dir, ".terraform.lock.hcl")
	got, err := os.ReadFile(lockPath)
	if err != nil {
		t.Fatal(err)
	}
	want := header() + fmt.Sprintf("provider \"example.com/acme/null\" {\n  version     = \"3.2.0\"\n  constraints = \"~> 3.0\"\n  hashes = [\n    %q,\n  ]\n}\n", h1)
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("lock file (-want +got):\n%s", diff)
	}
	// The archive carries the same lock.
	r, err := planfile.Open(filepath.Join(dir, "p.tfplan"))
	if err != nil {
		t.Fatal(err)
	}
	locks, err := r.ReadDependencyLocks()
	r.Close()
	if err != nil {
		t.Fatal(err)
	}
	if l := locks.Provider(acmeNull); l == nil || l.Version() != "3.2.0" || !l.ContainsHash(h1) {
		t.Errorf("archive lock for %s = %+v", acmeNull, l)
	}

	// A newer version appears: the lock keeps plan on 3.2.0, and the
	// lock file is not rewritten.
	fakePackage(t, plugins, acmeNull, "3.9.0")
	st, _ := os.Stat(lockPath)
	rec = pluginRecorder{}
	m, out, errb = discoveryMeta(t, &rec)
	if code := Plan(m, []string{"-chdir=" + dir, "-no-color", "-plugin-dir=" + plugins}); code != ExitOK {
		t.Fatalf("second plan: exit %d\n%s", code, errb)
	}
	if strings.Contains(out.String(), "recorded the provider") {
		t.Errorf("second plan recorded again:\n%s", out)
	}
	if len(rec.chosen) != 1 || !strings.Contains(rec.chosen[0], " 3.2.0 ") {
		t.Errorf("second plan chose %v, want the locked 3.2.0", rec.chosen)
	}
	if st2, _ := os.Stat(lockPath); !st2.ModTime().Equal(st.ModTime()) {
		t.Error("the lock file was rewritten although nothing changed")
	}
}

func header() string {
	src, _ := depsfile.SaveLocksToBytes(depsfile.NewLocks())
	return string(src)
}

// TestApplyRefusesLockMismatch: apply checks every installed package
// against the archive's lock file before any provider starts.
func TestApplyRefusesLockMismatch(t *testing.T) {
	dir, plugins := t.TempDir(), t.TempDir()
	writeFiles(t, dir, map[string]string{"main.tf": acmeConfig})
	pkg := fakePackage(t, plugins, acmeNull, "3.2.0")
	var rec pluginRecorder
	m, _, errb := discoveryMeta(t, &rec)
	fresh := filepath.Join(dir, "fresh.tfplan")
	if code := Plan(m, []string{"-chdir=" + dir, "-no-color", "-plugin-dir=" + plugins, "-out=" + fresh}); code != ExitOK {
		t.Fatalf("plan: exit %d\n%s", code, errb)
	}
	rewrite := func(name string, edit func(*depsfile.Locks)) string {
		out := filepath.Join(dir, name)
		rewriteArchive(t, fresh, out, func(a *planfile.CreateArgs) { edit(a.DependencyLocks) })
		return out
	}
	otherVersion := rewrite("version.tfplan", func(l *depsfile.Locks) { l.SetProvider(acmeNull, "3.1.5", "~> 3.0", nil) })
	otherHash := rewrite("hash.tfplan", func(l *depsfile.Locks) {
		l.SetProvider(acmeNull, "3.2.0", "~> 3.0", []string{"h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="})
	})
	unlocked := rewrite("unlocked.tfplan", func(l *depsfile.Locks) { l.RemoveProvider(acmeNull) })
	state := filepath.Join(t.TempDir(), "s.tfstate")

	tests := []struct {
		name, plan string
		pluginDir  string
		want       []string
	}{
		{"locked version not installed", otherVersion, plugins, []string{"Locked provider version is not installed", "locked to 3.1.5", "3.2.0 (" + runtime.GOOS + "_" + runtime.GOARCH + ", unpacked)"}},
		{"hash mismatch", otherHash, plugins, []string{"Provider package does not match the lock file", pkg}},
		{"missing from the lock file", unlocked, plugins, []string{"Provider missing from the plan's lock file", "Plan again"}},
		{"not installed here", fresh, "", []string{"Provider not found", "example.com/acme/null (~> 3.0, locked to 3.2.0", "apply -install"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := pluginRecorder{}
			m, _, errb := discoveryMeta(t, &rec)
			args := []string{"-no-color", "-state=" + state}
			if tc.pluginDir != "" {
				args = append(args, "-plugin-dir="+tc.pluginDir)
			}
			code := Apply(m, append(args, tc.plan))
			for _, w := range tc.want {
				if !strings.Contains(errb.String(), w) {
					t.Errorf("stderr lacks %q", w)
				}
			}
			if code != ExitError {
				t.Errorf("exit %d, want 1", code)
			}
			if n := rec.starts.Load(); n != 0 {
				t.Errorf("%d providers started before the refusal, want 0", n)
			}
			if t.Failed() {
				t.Logf("stderr:\n%s", errb)
			}
		})
	}
	if _, err := os.Stat(state); !os.IsNotExist(err) {
		t.Fatalf("a refused apply wrote the state: %v", err)
	}

	// The package changed on disk after the plan: refused too.
	exe := filepath.Join(pkg, "terraform-provider-null_v3.2.0")
	orig, _ := os.ReadFile(exe)
	if err := os.WriteFile(exe, []byte("tampered"), 0o755); err != nil {
		t.Fatal(err)
	}
	rec = pluginRecorder{}
	m, _, errb = discoveryMeta(t, &rec)
	if code := Apply(m, []string{"-no-color", "-state=" + state, "-plugin-dir=" + plugins, fresh}); code != ExitError || !strings.Contains(errb.String(), "Provider package does not match the lock file") || rec.starts.Load() != 0 {
		t.Errorf("tampered package: exit %d, %d starts\n%s", code, rec.starts.Load(), errb)
	}
	if err := os.WriteFile(exe, orig, 0o755); err != nil {
		t.Fatal(err)
	}

	// The control: the unchanged archive applies, from another directory.
	rec = pluginRecorder{}
	m, out, errb := discoveryMeta(t, &rec)
	if code := Apply(m, []string{"-chdir=" + t.TempDir(), "-no-color", "-state=" + state, "-plugin-dir=" + plugins, fresh}); code != ExitOK {
		t.Fatalf("apply: exit %d\n%s%s", code, out, errb)
	}
	if rec.starts.Load() == 0 {
		t.Error("the control apply started no provider: the counter does not work")
	}
}

// TestBuiltinVersionConstraints: a constraint a built-in's version does
// not meet is an error naming both versions (issue 19); one it meets
// plans with the built-in.
func TestBuiltinVersionConstraints(t *testing.T) {
	for _, tc := range []struct {
		constraint string
		wantCode   int
		want       string
	}{
		{"~> 3.6", ExitError, "requires hashicorp/null ~> 3.6, but no plugin package for it is installed and plankit's built-in hashicorp/null is version 3.2.4"},
		{">= 3.0, < 4.0", ExitOK, ""},
	} {
		t.Run(tc.constraint, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"main.tf": fmt.Sprintf(`
terraform {
  required_providers {
    null = { source = "hashicorp/null", version = %q }
  }
}
resource "null_resource" "a" {}
`, tc.constraint)})
			var rec pluginRecorder
			m, _, errb := discoveryMeta(t, &rec)
			code := Plan(m, []string{"-chdir=" + dir, "-no-color", "-out=p.tfplan"})
			if code != tc.wantCode || !strings.Contains(strings.Join(strings.Fields(errb.String()), " "), tc.want) {
				t.Errorf("exit %d, want %d with %q:\n%s", code, tc.wantCode, tc.want, errb)
			}
			if _, err := os.Stat(filepath.Join(dir, ".terraform.lock.hcl")); !os.IsNotExist(err) {
				t.Errorf("a built-in was recorded in the lock file: %v", err)
			}
		})
	}
}

// TestLockFileFromInitApplies: lock files written by tofu init or
// terraform init (entries under registry.opentofu.org, entries for
// providers the configuration does not use, hashes of packages not
// installed here) plan and apply with the built-ins where the locked
// versions are theirs, and are left as they were (issue 19); another
// locked version is an error saying to install it (issue 26).
func TestLockFileFromInitApplies(t *testing.T) {
	lock := `# This file is maintained automatically by "tofu init".
# Manual edits may be lost in future updates.

provider "registry.opentofu.org/hashicorp/null" {
  version     = "3.2.3"
  constraints = "~> 3.2"
  hashes = [
    "h1:I0Um8UkrMUb81Fxq/dxbr3HLP2cecTH2WMJiwKSrwQY=",
    "zh:22d062e5278d872fe7aed834f5577ba0a5afe34a3bdac2b81f828d8d3e6706d2",
  ]
}

provider "registry.terraform.io/hashicorp/aws" {
  version = "5.80.0"
  hashes = [
    "h1:q6ZQVHAX6EFdBLSpDcOQ1tGmZ+lX4ahlvoOxhDCq9FQ=",
  ]
}

provider "registry.terraform.io/hashicorp/random" {
  version = "3.6.3"
  hashes = [
    "h1:zG9uFP8l9u+yGZZvi5Te7PV62j50azpgwPunq2vTm1E=",
  ]
}
`
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		".terraform.lock.hcl": lock,
		"main.tf": `
resource "null_resource" "a" {}
resource "random_id" "b" {
  byte_length = 4
}
`})
	var rec pluginRecorder
	// Locked versions the built-ins do not match are not served by them
	// (issue 26): plan says to install them.
	m, _, errb := discoveryMeta(t, &rec)
	if code := Plan(m, []string{"-chdir=" + dir, "-no-color", "-out=p.tfplan"}); code != ExitError {
		t.Fatalf("plan with locked versions the built-ins do not match: exit %d\n%s", code, errb)
	}
	msg := strings.Join(strings.Fields(errb.String()), " ")
	for _, want := range []string{
		"locks registry.opentofu.org/hashicorp/null at 3.2.3", "compatible with 3.2.4, not 3.2.3",
		"locks hashicorp/random at 3.6.3", "compatible with 3.8.1, not 3.6.3", "run plan init",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("plan error lacks %q:\n%s", want, errb)
		}
	}
	// Locked at the built-ins' versions: served by them, the lock file
	// untouched.
	lock = strings.NewReplacer(`"3.2.3"`, `"3.2.4"`, `"3.6.3"`, `"3.8.1"`).Replace(lock)
	writeFiles(t, dir, map[string]string{".terraform.lock.hcl": lock})
	m, _, errb = discoveryMeta(t, &rec)
	if code := Plan(m, []string{"-chdir=" + dir, "-no-color", "-out=p.tfplan"}); code != ExitOK {
		t.Fatalf("plan: exit %d\n%s", code, errb)
	}
	m, out, errb := discoveryMeta(t, &rec)
	if code := Apply(m, []string{"-chdir=" + dir, "-no-color", "p.tfplan"}); code != ExitOK {
		t.Fatalf("apply: exit %d\n%s%s", code, out, errb)
	}
	if !strings.Contains(out.String(), "Apply complete! Resources: 2 added") {
		t.Errorf("apply output:\n%s", out)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, ".terraform.lock.hcl")); string(got) != lock {
		t.Errorf("the lock file changed:\n%s", got)
	}
	if len(rec.chosen) != 0 {
		t.Errorf("plugins chosen: %v", rec.chosen)
	}
}

// TestInitialisedDirectory: a directory terraform init left
// (.terraform/providers and the lock file with the package's hash) plans
// and applies with that package, and its lock file is not rewritten.
func TestInitialisedDirectory(t *testing.T) {
	dir := t.TempDir()
	pkg := fakePackage(t, filepath.Join(dir, ".terraform", "providers"), acmeNull, "3.2.0")
	h1, _ := install.HashDir(pkg)
	lock := fmt.Sprintf("# This file is maintained automatically by \"terraform init\".\n# Manual edits may be lost in future updates.\n\nprovider \"example.com/acme/null\" {\n  version     = \"3.2.0\"\n  constraints = \"~> 3.0\"\n  hashes = [\n    %q,\n    \"zh:00000000000000000000000000000000000000000000000000000000000000ff\",\n  ]\n}\n", h1)
	writeFiles(t, dir, map[string]string{"main.tf": acmeConfig, ".terraform.lock.hcl": lock})
	var rec pluginRecorder
	m, out, errb := discoveryMeta(t, &rec)
	if code := Apply(m, []string{"-chdir=" + dir, "-no-color", "-auto-approve"}); code != ExitOK {
		t.Fatalf("apply: exit %d\n%s%s", code, out, errb)
	}
	if len(rec.chosen) == 0 || !strings.HasSuffix(rec.chosen[0], filepath.Join(pkg, "terraform-provider-null_v3.2.0")) {
		t.Errorf("chosen %v, want the package in .terraform/providers", rec.chosen)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, ".terraform.lock.hcl")); string(got) != lock {
		t.Errorf("the lock file changed:\n%s", got)
	}
}

// TestNoInstalledVersionMeetsConstraints names the constraint and what
// was found.
func TestNoInstalledVersionMeetsConstraints(t *testing.T) {
	dir, plugins := t.TempDir(), t.TempDir()
	writeFiles(t, dir, map[string]string{"main.tf": acmeConfig})
	fakePackage(t, plugins, acmeNull, "2.9.0")
	fakePackage(t, plugins, acmeNull, "4.0.0")
	var rec pluginRecorder
	m, _, errb := discoveryMeta(t, &rec)
	code := Plan(m, []string{"-chdir=" + dir, "-no-color", "-plugin-dir=" + plugins})
	msg := strings.Join(strings.Fields(errb.String()), " ")
	for _, want := range []string{"No installed provider version meets the constraints", "example.com/acme/null (~> 3.0)", "-plugin-dir " + plugins + ": 4.0.0", "2.9.0", ".terraform/providers"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q", want)
		}
	}
	if code != ExitError || t.Failed() {
		t.Errorf("exit %d\n%s", code, errb)
	}
	if _, err := os.Stat(filepath.Join(dir, ".terraform.lock.hcl")); !os.IsNotExist(err) {
		t.Error("a failed plan wrote a lock file")
	}
}

func TestProvidersSubcommand(t *testing.T) {
	dir, plugins := t.TempDir(), t.TempDir()
	writeFiles(t, dir, map[string]string{
		"main.tf": acmeConfig + `
module "child" {
  source = "./child"
}
`,
		"child/main.tf": `
terraform {
  required_providers {
    random = { source = "hashicorp/random", version = ">= 3.0" }
  }
}
resource "random_id" "x" {
  byte_length = 2
}
`,
		"terraform.tfstate": `{"version": 4, "terraform_version": "1.9.0", "serial": 1, "lineage": "l", "outputs": {}, "resources": [
  {"mode": "managed", "type": "null_resource", "name": "old", "provider": "provider[\"registry.opentofu.org/hashicorp/null\"]",
   "instances": [{"schema_version": 0, "attributes": {"id": "1", "triggers": null}}]}]}`,
	})
	pkg := fakePackage(t, plugins, acmeNull, "3.2.0")
	var rec pluginRecorder
	m, out, errb := discoveryMeta(t, &rec)
	if code := Plan(m, []string{"-chdir=" + dir, "providers", "-plugin-dir=" + plugins}); code != ExitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errb)
	}
	want := `
Providers required by configuration:
.
├── provider[example.com/acme/null] ~> 3.0
└── module.child
    └── provider[registry.terraform.io/hashicorp/random] >= 3.0

Providers required by state:

    provider[registry.opentofu.org/hashicorp/null]

Where each provider comes from:

    example.com/acme/null 3.2.0: -plugin-dir ` + plugins + `: ` + filepath.Join(pkg, "terraform-provider-null_v3.2.0") + ` (not yet in .terraform.lock.hcl)
    registry.opentofu.org/hashicorp/null 3.2.4: built in
    registry.opentofu.org/hashicorp/random 3.8.1: built in

`
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if rec.starts.Load() != 0 || len(rec.chosen) != 0 {
		t.Errorf("plan providers started or chose plugins: %v", rec.chosen)
	}
	if _, err := os.Stat(filepath.Join(dir, ".terraform.lock.hcl")); !os.IsNotExist(err) {
		t.Error("plan providers wrote a lock file")
	}
	// Without the plugin directory: listed as not found, exit 1.
	m, out, errb = discoveryMeta(t, &rec)
	if code := Plan(m, []string{"-chdir=" + dir, "providers"}); code != ExitError || !strings.Contains(out.String(), "example.com/acme/null: not found") || !strings.Contains(errb.String(), "Provider not found") {
		t.Errorf("exit %d\n%s%s", code, out, errb)
	}
}

// TestRecordedConstraintsAreCanonical: constraints from several modules
// are recorded as terraform init records them.
func TestRecordedConstraintsAreCanonical(t *testing.T) {
	dir, plugins := t.TempDir(), t.TempDir()
	writeFiles(t, dir, map[string]string{
		"main.tf": `
terraform {
  required_providers {
    null = { source = "example.com/acme/null", version = "< 4.0, >= 3.0" }
  }
}
module "m" {
  source = "./m"
}
`,
		"m/main.tf": `
terraform {
  required_providers {
    null = { source = "example.com/acme/null", version = "~> 3.1" }
  }
}
resource "null_resource" "x" {}
`,
	})
	fakePackage(t, plugins, acmeNull, "3.2.0")
	var rec pluginRecorder
	m, _, errb := discoveryMeta(t, &rec)
	if code := Plan(m, []string{"-chdir=" + dir, "-no-color", "-plugin-dir=" + plugins}); code != ExitOK {
		t.Fatalf("exit %d\n%s", code, errb)
	}
	got, _ := os.ReadFile(filepath.Join(dir, ".terraform.lock.hcl"))
	if !strings.Contains(string(got), `constraints = ">= 3.0.0, ~> 3.1, < 4.0.0"`) {
		t.Errorf("lock file:\n%s", got)
	}
}

// TestProviderNotFoundGivesOneFix: a provider discovery cannot serve is
// reported with plankit's one way to install it for that command (plan
// init in a working directory, apply -install for a saved plan), and no
// other tool's advice.
func TestProviderNotFoundGivesOneFix(t *testing.T) {
	dir, bare, plugins, other := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	writeFiles(t, dir, map[string]string{"main.tf": acmeConfig})
	writeFiles(t, bare, map[string]string{"main.tf": acmeConfig})
	fakePackage(t, plugins, acmeNull, "3.2.0")
	fakePackage(t, other, acmeNull, "4.0.0")
	planFile := filepath.Join(dir, "x.tfplan")
	m, _, errb := discoveryMeta(t, &pluginRecorder{})
	if code := Plan(m, []string{"-chdir=" + dir, "-no-color", "-plugin-dir=" + plugins, "-out=" + planFile}); code != ExitOK {
		t.Fatalf("plan: exit %d\n%s", code, errb)
	}
	lockedDir := t.TempDir()
	writeFiles(t, lockedDir, map[string]string{"main.tf": acmeConfig, ".terraform.lock.hcl": "provider \"example.com/acme/null\" {\n  version     = \"3.1.5\"\n  constraints = \"~> 3.0\"\n}\n"})
	const fromDir = "It installs from the provider's registry, or with -plugin-dir=DIR from a directory of provider packages"
	tests := []struct {
		name    string
		run     func(m *Meta) int
		summary string
		fix     string
	}{
		{"plan, nothing installed", func(m *Meta) int { return Plan(m, []string{"-chdir=" + bare, "-no-color"}) },
			"Provider not found", "To install it, run plan init. " + fromDir},
		{"plan, no version meets the constraints", func(m *Meta) int {
			return Plan(m, []string{"-chdir=" + bare, "-no-color", "-plugin-dir=" + other})
		}, "No installed provider version meets the constraints", "To install it, run plan init. " + fromDir},
		{"plan, locked version not installed", func(m *Meta) int {
			return Plan(m, []string{"-chdir=" + lockedDir, "-no-color", "-plugin-dir=" + plugins})
		}, "Locked provider version is not installed", "To install the locked version, run plan init (plan init -upgrade selects the newest version the constraints allow instead)."},
		{"apply of a saved plan, nothing installed", func(m *Meta) int {
			return Apply(m, []string{"-no-color", "-state=" + filepath.Join(t.TempDir(), "s.tfstate"), planFile})
		}, "Provider not found", "To install the versions the plan's lock file records, run apply -install " + planFile + "."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, _, errb := discoveryMeta(t, &pluginRecorder{})
			code := tc.run(m)
			msg := strings.Join(strings.Fields(errb.String()), " ")
			if code != ExitError || !strings.Contains(msg, tc.summary) {
				t.Fatalf("exit %d, want 1 and %q:\n%s", code, tc.summary, errb)
			}
			if !strings.Contains(msg, tc.fix) {
				t.Errorf("message lacks the fix %q:\n%s", tc.fix, errb)
			}
			for _, other := range []string{"terraform init", "tofu init", "(or pass -install"} {
				if strings.Contains(msg, other) {
					t.Errorf("message gives other advice (%q):\n%s", other, errb)
				}
			}
		})
	}
}

// TestApplyInstallSaysWhatVouched: apply -install of a package from a
// -plugin-dir prints what vouched for it in the parentheses (the plan's
// lock file hashes), never an empty "()".
func TestApplyInstallSaysWhatVouched(t *testing.T) {
	dir, plugins, runner := t.TempDir(), t.TempDir(), t.TempDir()
	writeFiles(t, dir, map[string]string{"main.tf": acmeConfig})
	fakePackage(t, plugins, acmeNull, "3.2.0")
	planFile := filepath.Join(dir, "x.tfplan")
	m, out, errb := discoveryMeta(t, &pluginRecorder{})
	if code := Plan(m, []string{"-chdir=" + dir, "-no-color", "-plugin-dir=" + plugins, "-out=" + planFile}); code != ExitOK {
		t.Fatalf("plan: exit %d\n%s", code, errb)
	}
	m, out, errb = discoveryMeta(t, &pluginRecorder{})
	if code := Apply(m, []string{"-chdir=" + runner, "-no-color", "-install", "-plugin-dir=" + plugins, "-state=" + filepath.Join(runner, "s.tfstate"), planFile}); code != ExitOK {
		t.Fatalf("apply -install: exit %d\n%s%s", code, out, errb)
	}
	var got []string
	for _, l := range strings.Split(out.String(), "\n") {
		if strings.HasPrefix(l, "- Installed ") {
			got = append(got, l)
		}
	}
	want := []string{"- Installed example.com/acme/null v3.2.0 (verified checksum)"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Installed lines (-want +got):\n%s\n%s", diff, out)
	}
}
