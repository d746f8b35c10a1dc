package depsfile

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/plankit/plankit/addrs"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/")

func sampleLocks() *Locks {
	l := NewLocks()
	l.SetProvider(addrs.NewDefaultProvider("random"), "3.6.0", "~> 3.5", []string{"zh:b", "h1:a", "zh:b"})
	l.SetProvider(addrs.Provider{Hostname: "example.com", Namespace: "acme", Type: "widget"}, "0.1.0-beta1", "", nil)
	l.SetProvider(addrs.NewDefaultProvider("null"), "3.2.2", "", []string{"h1:x"})
	l.SetProvider(addrs.NewBuiltInProvider("terraform"), "1.0.0", "", nil) // never recorded
	return l
}

func TestGolden(t *testing.T) {
	got, diags := SaveLocksToBytes(sampleLocks())
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	path := filepath.Join("testdata", "golden.lock.hcl")
	if *update {
		os.WriteFile(path, got, 0o644)
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%s (run with -update)", err)
	}
	if d := cmp.Diff(string(want), string(got)); d != "" {
		t.Fatalf("golden (-want +got):\n%s", d)
	}
	back, diags := LoadLocksFromBytes(got, path)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if !back.Equal(sampleLocks()) {
		t.Fatal("read back differs from what was written")
	}
	if back.Provider(addrs.NewBuiltInProvider("terraform")) != nil {
		t.Fatal("a built-in provider was locked")
	}
}

func TestReadTerraformLockFile(t *testing.T) {
	locks, diags := LoadLocksFromFile(filepath.Join("testdata", "terraform.lock.hcl"))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	null := locks.Provider(addrs.NewDefaultProvider("null"))
	if null == nil || null.Version() != "3.2.2" || null.VersionConstraints() != ">= 3.0.0, < 4.0.0" || len(null.Hashes()) != 3 {
		t.Fatalf("null lock %+v", null)
	}
	if !null.ContainsHash("h1:zT1ZbegaAYHwQa+QwIFugArWikRJI9dqohj8xb0GY88=") || null.ContainsHash("h1:nope") {
		t.Fatal("ContainsHash")
	}
	random := locks.Provider(addrs.NewDefaultProvider("random"))
	if random == nil || random.VersionConstraints() != "" {
		t.Fatalf("random lock %+v", random)
	}
	// Written back, only the header differs from Terraform's file.
	src, _ := os.ReadFile(filepath.Join("testdata", "terraform.lock.hcl"))
	got, _ := SaveLocksToBytes(locks)
	body := func(b []byte) string { _, after, _ := strings.Cut(string(b), "\n\n"); return after }
	if d := cmp.Diff(body(src), body(got)); d != "" {
		t.Fatalf("layout differs from Terraform's (-terraform +ours):\n%s", d)
	}
}

func TestReadErrors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"syntax", `provider "x" {`, "Unclosed configuration block"},
		{"short address", `provider "hashicorp/null" { version = "1.0.0" }`, "fully-qualified"},
		{"builtin", `provider "terraform.io/builtin/terraform" { version = "1.0.0" }`, "built in"},
		{"no version", `provider "registry.terraform.io/hashicorp/null" {}`, "version"},
		{"bad version", `provider "registry.terraform.io/hashicorp/null" { version = "banana" }`, "not a version"},
		{"bad constraint", `provider "registry.terraform.io/hashicorp/null" {
version = "1.0.0"
constraints = "~~ 1"
}`, "constraint"},
		{"bad hash", `provider "registry.terraform.io/hashicorp/null" {
version = "1.0.0"
hashes = ["nocolon"]
}`, "SCHEME:VALUE"},
		{"hashes not list", `provider "registry.terraform.io/hashicorp/null" {
version = "1.0.0"
hashes = "h1:x"
}`, "list of strings"},
		{"unknown attr", `provider "registry.terraform.io/hashicorp/null" {
version = "1.0.0"
extra = 1
}`, "extra"},
		{"unknown block", `module "x" {}`, "module"},
		{"duplicate", `provider "registry.terraform.io/hashicorp/null" { version = "1.0.0" }
provider "registry.terraform.io/hashicorp/null" { version = "1.0.1" }`, "Duplicate"},
		{"variable", `provider "registry.terraform.io/hashicorp/null" { version = var.v }`, "Variables not allowed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := LoadLocksFromBytes([]byte(tc.src), "test.lock.hcl")
			if !diags.HasErrors() {
				t.Fatal("no error")
			}
			if !strings.Contains(diags.Error(), tc.want) {
				t.Fatalf("diagnostics %q do not mention %q", diags.Error(), tc.want)
			}
			for _, d := range diags {
				if d.Subject == nil || d.Subject.Filename != "test.lock.hcl" {
					t.Errorf("diagnostic %q has no subject in the file", d.Summary)
				}
			}
		})
	}
}

func TestSaveLocksToFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), LockFilePath)
	if l, diags := LoadLocksFromFile(path); diags.HasErrors() || !l.Empty() {
		t.Fatalf("missing file: %v %v", l, diags)
	}
	if err := SaveLocksToFile(sampleLocks(), path); err != nil {
		t.Fatal(err)
	}
	l, diags := LoadLocksFromFile(path)
	if diags.HasErrors() || !l.Equal(sampleLocks()) {
		t.Fatalf("round trip through the file: %v", diags)
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Fatalf("temporary files left: %v", entries)
	}
	if err := SaveLocksToFile(NewLocks(), path); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Fatal("empty locks left a lock file")
	}
}

func TestEqualAndCopy(t *testing.T) {
	a, b := sampleLocks(), sampleLocks()
	if !a.Equal(b) || !NewLocks().Equal(nil) {
		t.Fatal("equal locks compare unequal")
	}
	c := a.DeepCopy()
	c.SetProvider(addrs.NewDefaultProvider("null"), "3.2.3", "", nil)
	if a.Equal(c) || !a.Equal(b) {
		t.Fatal("DeepCopy shares state or Equal ignores versions")
	}
	c.RemoveProvider(addrs.NewDefaultProvider("null"))
	if len(c.AllProviders()) != 2 {
		t.Fatalf("%d providers after remove", len(c.AllProviders()))
	}
}

// TestUpdateLockFileKeepsTerraformBytes: a lock file written by terraform
// init, read and written back by plankit with one provider added, keeps
// Terraform's header and every existing block byte for byte.
func TestUpdateLockFileKeepsTerraformBytes(t *testing.T) {
	orig, err := os.ReadFile("testdata/terraform.lock.hcl")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), ".terraform.lock.hcl")
	if err := os.WriteFile(path, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	locks, diags := LoadLocksFromFile(path)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if err := UpdateLockFile(locks, path); err != nil {
		t.Fatal(err)
	}
	same, _ := os.ReadFile(path)
	if diff := cmp.Diff(string(orig), string(same)); diff != "" {
		t.Fatalf("rewriting an unchanged Terraform lock file changed it (-want +got):\n%s", diff)
	}
	p, _ := addrs.ParseProviderSourceString("example.com/acme/zzz")
	locks.SetProvider(p, "1.0.0", "~> 1.0", []string{"h1:abc="})
	if err := UpdateLockFile(locks, path); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	head, blocks, _ := strings.Cut(string(orig), "\n\n")
	want := head + "\n\nprovider \"example.com/acme/zzz\" {\n  version     = \"1.0.0\"\n  constraints = \"~> 1.0\"\n  hashes = [\n    \"h1:abc=\",\n  ]\n}\n\n" + blocks
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestUpdateLockFileKeepsOpenTofuOrder (issue 26): providers are listed
// as tofu init and terraform init list them, by hostname, then namespace,
// then type; not by the address string, whose order differs where one
// part is a prefix of another ("a" and "a-b", "example.com" and
// "example.com.au"). A file tofu init wrote is rewritten byte for byte.
func TestUpdateLockFileKeepsOpenTofuOrder(t *testing.T) {
	block := func(addr string) string {
		return fmt.Sprintf("\nprovider %q {\n  version = \"1.0.0\"\n  hashes = [\n    \"h1:abc=\",\n  ]\n}\n", addr)
	}
	head := "# This file is maintained automatically by \"tofu init\".\n# Manual edits may be lost in future updates.\n"
	orig := head + block("example.com/x/y") + block("example.com.au/x/y") + block("registry.opentofu.org/a/x") + block("registry.opentofu.org/a-b/x")
	path := filepath.Join(t.TempDir(), ".terraform.lock.hcl")
	if err := os.WriteFile(path, []byte(orig), 0o644); err != nil {
		t.Fatal(err)
	}
	locks, diags := LoadLocksFromFile(path)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if err := UpdateLockFile(locks, path); err != nil {
		t.Fatal(err)
	}
	same, _ := os.ReadFile(path)
	if diff := cmp.Diff(orig, string(same)); diff != "" {
		t.Fatalf("rewriting an unchanged OpenTofu lock file changed it (-want +got):\n%s", diff)
	}
	p, _ := addrs.ParseProviderSourceString("registry.opentofu.org/a/b")
	locks.SetProvider(p, "1.0.0", "", []string{"h1:abc="})
	if err := UpdateLockFile(locks, path); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	want := head + block("example.com/x/y") + block("example.com.au/x/y") + block("registry.opentofu.org/a/b") + block("registry.opentofu.org/a/x") + block("registry.opentofu.org/a-b/x")
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
