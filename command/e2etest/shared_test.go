package e2etest

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/backend/pg/pgtest"
	"github.com/plankit/plankit/providers/install"
	"github.com/plankit/plankit/providers/install/registrytest"
	"github.com/plankit/plankit/providers/plugin/plugintest"
)

// sharedConfig names its providers without a hostname, so OpenTofu takes
// them from registry.opentofu.org (Terraform from registry.terraform.io).
const sharedConfig = `
terraform {
  backend "pg" {}
  required_providers {
    fwtest = {
      source  = "plankit/fwtest"
      version = "~> 1.0"
    }
    sdktest = {
      source = "plankit/sdktest"
    }
  }
}

variable "objects" {
  type = string
}

variable "name" {
  type    = string
  default = "alpha"
}

provider "fwtest" {
  state_dir = var.objects
}

provider "sdktest" {
  state_dir = var.objects
}

resource "fwtest_thing" "a" {
  name = var.name
}

resource "sdktest_thing" "b" {
  name  = "beta"
  value = fwtest_thing.a.id
}

resource "terraform_data" "c" {
  input = sdktest_thing.b.id
}
`

// tofuLockFile renders a lock file as OpenTofu's tofu init writes it: its
// header, then per provider (sorted) version, constraints and the sorted
// hashes one per line, blocks separated by a blank line.
func tofuLockFile(blocks ...[4]string) string {
	var b strings.Builder
	b.WriteString("# This file is maintained automatically by \"tofu init\".\n# Manual edits may be lost in future updates.\n")
	for _, bl := range blocks {
		fmt.Fprintf(&b, "\nprovider %q {\n", bl[0])
		if bl[2] != "" {
			fmt.Fprintf(&b, "  version     = %q\n  constraints = %q\n", bl[1], bl[2])
		} else {
			fmt.Fprintf(&b, "  version = %q\n", bl[1])
		}
		b.WriteString("  hashes = [\n")
		for _, h := range strings.Split(bl[3], " ") {
			fmt.Fprintf(&b, "    %q,\n", h)
		}
		b.WriteString("  ]\n}\n")
	}
	return b.String()
}

// tofuInstall unpacks a package zip where tofu init puts it,
// .terraform/providers/registry.opentofu.org/NS/TYPE/VERSION/OS_ARCH,
// and returns the hashes tofu init locks for it (h1: of the unpacked
// package, zh: of the zip), sorted.
func tofuInstall(t *testing.T, dir, nsType, version string, zipBytes []byte) string {
	t.Helper()
	pkg := filepath.Join(dir, ".terraform", "providers", "registry.opentofu.org", nsType, version, platform)
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(zipBytes), int64(len(zipBytes)))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		writeExec(t, filepath.Join(pkg, f.Name), string(b))
	}
	h1, err := install.HashDir(pkg)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(zipBytes)
	return h1 + " zh:" + hex.EncodeToString(sum[:])
}

// treeOf lists every file below root with its content's hash.
func treeOf(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		sum := sha256.Sum256(b)
		out = append(out, rel+" "+hex.EncodeToString(sum[:8]))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSharedDirectoryWithOpenTofu (issue 26): a directory tofu init
// initialised (its lock file under registry.opentofu.org in OpenTofu's
// exact formatting, its packages in .terraform/providers where tofu init
// unpacks them), with a pg backend and encrypted state, goes through
// plankit's plan, apply, saved-plan apply, init and read-only commands in
// turn: afterwards the lock file is byte-identical, and nothing was added
// to .terraform/providers (no registry.terraform.io twin). With
// PLANKIT_TEST_TOFU naming an OpenTofu binary, tofu init writes the lock
// file (checked against the rendering above) and tofu plan runs between
// plankit's commands.
func TestSharedDirectoryWithOpenTofu(t *testing.T) {
	bins := plugintest.Build(t)
	srv := registrytest.New(t)
	fwZip := srv.AddBinary(t, "plankit/fwtest", "1.0.0", platform, bins.FW)
	srv.AddBinary(t, "plankit/fwtest", "2.0.0", platform, bins.FW)
	sdkZip := srv.AddBinary(t, "plankit/sdktest", "2.1.0", platform, bins.SDK)
	cs := pgtest.NewDatabase(t)
	dir, objects := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), sharedConfig)
	// The providers come from a network mirror, as a team's CLI
	// configuration would say; tofu init and plan init both use it.
	cli := filepath.Join(t.TempDir(), "cli.tfrc")
	writeFile(t, cli, fmt.Sprintf("provider_installation {\n  network_mirror {\n    url = %q\n  }\n}\n", srv.MirrorURL()))
	env := append(pluginEnv(t),
		"SSL_CERT_FILE="+srv.WriteCA(t, t.TempDir()), "TF_CLI_CONFIG_FILE="+cli,
		"PG_CONN_STR="+cs, tfEncryption, "TF_VAR_objects="+objects)

	fwHashes := tofuInstall(t, dir, "plankit/fwtest", "1.0.0", fwZip)
	sdkHashes := tofuInstall(t, dir, "plankit/sdktest", "2.1.0", sdkZip)
	lock := tofuLockFile(
		[4]string{"registry.opentofu.org/plankit/fwtest", "1.0.0", "~> 1.0", fwHashes},
		[4]string{"registry.opentofu.org/plankit/sdktest", "2.1.0", "", sdkHashes})
	lockPath := filepath.Join(dir, ".terraform.lock.hcl")
	writeFile(t, lockPath, lock)

	tofu := os.Getenv("PLANKIT_TEST_TOFU")
	runTofu := func(what string, args ...string) {
		if tofu == "" {
			return
		}
		cmd := exec.Command(tofu, args...)
		cmd.Dir = dir
		cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "TMPDIR=" + os.TempDir()}, env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: tofu %s: %v\n%s", what, strings.Join(args, " "), err, out)
		}
	}
	if tofu != "" {
		// OpenTofu initialises the directory itself; its lock file must
		// be the one rendered above.
		os.RemoveAll(filepath.Join(dir, ".terraform"))
		os.Remove(lockPath)
		runTofu("tofu init", "init", "-no-color", "-input=false")
		got, _ := os.ReadFile(lockPath)
		if diff := cmp.Diff(lock, string(got)); diff != "" {
			t.Fatalf("the lock file tofu init wrote differs from OpenTofu's format as rendered here (-rendered +tofu):\n%s", diff)
		}
		runTofu("tofu apply", "apply", "-no-color", "-input=false", "-auto-approve")
	}
	tree := treeOf(t, filepath.Join(dir, ".terraform", "providers"))
	check := func(what string) {
		t.Helper()
		if got, _ := os.ReadFile(lockPath); string(got) != lock {
			t.Errorf("after %s the lock file changed:\n%s\nwas:\n%s", what, got, lock)
		}
		if diff := cmp.Diff(tree, treeOf(t, filepath.Join(dir, ".terraform", "providers"))); diff != "" {
			t.Errorf("after %s .terraform/providers changed (-before +after):\n%s", what, diff)
		}
		runTofu("tofu plan after "+what, "plan", "-no-color", "-input=false", "-lock-timeout=10s")
	}

	r := run(t, dir, "plan", env, "-no-color", "-out=p.tfplan")
	must(t, r, 0, "plan")
	if tofu == "" {
		contains(t, r.stdout, "plan", "Plan: 3 to add, 0 to change, 0 to destroy.")
	}
	if strings.Contains(r.stdout+r.stderr, "recorded the provider selections") {
		t.Errorf("plan recorded provider selections:\n%s%s", r.stdout, r.stderr)
	}
	check("plan -out")
	isEnvelope(t, filepath.Join(dir, "p.tfplan"))
	must(t, run(t, dir, "apply", env, "-no-color", "p.tfplan"), 0, "apply p.tfplan")
	check("apply FILE")
	s, _ := pull(t, dir, env)
	if !s.has("fwtest_thing.a") || !s.has("terraform_data.c") {
		t.Fatalf("state after apply: %+v", s)
	}

	r = run(t, dir, "apply", env, "-no-color", "-auto-approve", "-var", "name=gamma")
	must(t, r, 0, "apply -auto-approve")
	contains(t, r.stdout, "apply -auto-approve", "Apply complete!")
	check("apply -auto-approve")

	r = run(t, dir, "plan", env, "init", "-no-color")
	must(t, r, 0, "plan init")
	contains(t, r.stdout, "plan init",
		"- Using previously-installed registry.opentofu.org/plankit/fwtest v1.0.0",
		"- Using previously-installed registry.opentofu.org/plankit/sdktest v2.1.0")
	check("plan init")

	for _, args := range [][]string{
		{"providers"}, {"validate", "-no-color"}, {"graph"}, {"state", "list"}, {"output", "-no-color"},
		{"-no-color", "-install", "-var", "name=gamma"}, {"-no-color", "-refresh-only"},
	} {
		must(t, run(t, dir, "plan", env, args...), 0, "plan "+strings.Join(args, " "))
		check("plan " + strings.Join(args, " "))
	}
	must(t, run(t, dir, "apply", env, "-no-color", "-destroy", "-auto-approve", "-var", "name=gamma"), 0, "apply -destroy")
	check("apply -destroy")
}
