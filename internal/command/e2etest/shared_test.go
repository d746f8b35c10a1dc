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

	"github.com/plankit/plankit/internal/backend/pg/pgtest"
	"github.com/plankit/plankit/internal/providers/install"
	"github.com/plankit/plankit/internal/providers/install/registrytest"
	"github.com/plankit/plankit/internal/providers/plugin/plugintest"
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

// initLockFile renders a lock file as `tool init` (tofu or terraform)
// writes it: its header, then per provider (sorted) version, constraints
// and the sorted hashes one per line, blocks separated by a blank line.
func initLockFile(tool string, blocks ...[4]string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# This file is maintained automatically by \"%s init\".\n# Manual edits may be lost in future updates.\n", tool)
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

// initInstall unpacks a package zip where init puts it,
// .terraform/providers/HOST/NS/TYPE/VERSION/OS_ARCH, and returns the
// hashes init locks for it, sorted: h1: of the unpacked package, and
// with zh the zh: of the zip (tofu init locks the zip's hash it checked
// against a network mirror's; terraform init does not).
func initInstall(t *testing.T, dir, host, nsType, version string, zipBytes []byte, zh bool) string {
	t.Helper()
	pkg := filepath.Join(dir, ".terraform", "providers", host, nsType, version, platform)
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
	if !zh {
		return h1
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

// TestSharedDirectory (issue 26): a directory tofu init initialised (its
// lock file under registry.opentofu.org in OpenTofu's exact formatting,
// its packages in .terraform/providers where tofu init unpacks them), with
// a pg backend and encrypted state, goes through plankit's plan, apply,
// saved-plan apply, init and read-only commands in turn: afterwards the
// lock file is byte-identical, and nothing was added to
// .terraform/providers (no registry.terraform.io twin). The same for a
// directory terraform init initialised (registry.terraform.io, no
// encryption). With PLANKIT_TEST_TOFU (PLANKIT_TEST_TERRAFORM) naming an
// OpenTofu (Terraform) binary, that tool's init writes the lock file
// (checked against the rendering here), its apply writes the first state,
// and its plan runs after each of plankit's commands.
func TestSharedDirectory(t *testing.T) {
	for _, fl := range []struct {
		tool, host, oracle string
		zh                 bool
		env                []string
	}{
		{tool: "tofu", host: "registry.opentofu.org", oracle: "PLANKIT_TEST_TOFU", zh: true, env: []string{tfEncryption}},
		{tool: "terraform", host: "registry.terraform.io", oracle: "PLANKIT_TEST_TERRAFORM"},
	} {
		t.Run(fl.tool, func(t *testing.T) {
			sharedDirectory(t, fl.tool, fl.host, os.Getenv(fl.oracle), fl.zh, fl.env)
		})
	}
}

func sharedDirectory(t *testing.T, tool, host, oracle string, zh bool, extraEnv []string) {
	bins := plugintest.Build(t)
	srv := registrytest.New(t)
	fwZip := srv.AddBinary(t, "plankit/fwtest", "1.0.0", platform, bins.FW)
	srv.AddBinary(t, "plankit/fwtest", "2.0.0", platform, bins.FW)
	sdkZip := srv.AddBinary(t, "plankit/sdktest", "2.1.0", platform, bins.SDK)
	cs := pgtest.NewDatabase(t)
	dir, objects := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), sharedConfig)
	// The providers come from a network mirror, as a team's CLI
	// configuration would say; init of every tool uses it.
	cli := filepath.Join(t.TempDir(), "cli.tfrc")
	writeFile(t, cli, fmt.Sprintf("provider_installation {\n  network_mirror {\n    url = %q\n  }\n}\n", srv.MirrorURL()))
	env := append(pluginEnv(t),
		"SSL_CERT_FILE="+srv.WriteCA(t, t.TempDir()), "TF_CLI_CONFIG_FILE="+cli,
		"PG_CONN_STR="+cs, "TF_VAR_objects="+objects)
	env = append(env, extraEnv...)

	fwHashes := initInstall(t, dir, host, "plankit/fwtest", "1.0.0", fwZip, zh)
	sdkHashes := initInstall(t, dir, host, "plankit/sdktest", "2.1.0", sdkZip, zh)
	lock := initLockFile(tool,
		[4]string{host + "/plankit/fwtest", "1.0.0", "~> 1.0", fwHashes},
		[4]string{host + "/plankit/sdktest", "2.1.0", "", sdkHashes})
	lockPath := filepath.Join(dir, ".terraform.lock.hcl")
	writeFile(t, lockPath, lock)

	runOracle := func(what string, args ...string) {
		if oracle == "" {
			return
		}
		cmd := exec.Command(oracle, args...)
		cmd.Dir = dir
		cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "TMPDIR=" + os.TempDir()}, env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %s %s: %v\n%s", what, tool, strings.Join(args, " "), err, out)
		}
	}
	if oracle != "" {
		// The tool initialises the directory itself; its lock file must
		// be the one rendered above.
		os.RemoveAll(filepath.Join(dir, ".terraform"))
		os.Remove(lockPath)
		runOracle(tool+" init", "init", "-no-color", "-input=false")
		got, _ := os.ReadFile(lockPath)
		if diff := cmp.Diff(lock, string(got)); diff != "" {
			t.Fatalf("the lock file %s init wrote differs from the rendering here (-rendered +%s):\n%s", tool, tool, diff)
		}
		runOracle(tool+" apply", "apply", "-no-color", "-input=false", "-auto-approve")
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
		runOracle(tool+" plan after "+what, "plan", "-no-color", "-input=false", "-lock-timeout=10s")
	}

	r := run(t, dir, "plan", env, "-no-color", "-out=p.tfplan")
	must(t, r, 0, "plan")
	if oracle == "" {
		contains(t, r.stdout, "plan", "Plan: 3 to add, 0 to change, 0 to destroy.")
	}
	if strings.Contains(r.stdout+r.stderr, "recorded the provider selections") {
		t.Errorf("plan recorded provider selections:\n%s%s", r.stdout, r.stderr)
	}
	check("plan -out")
	if len(extraEnv) > 0 {
		isEnvelope(t, filepath.Join(dir, "p.tfplan"))
	}
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
	display := host + "/"
	if host == "registry.terraform.io" {
		display = ""
	}
	contains(t, r.stdout, "plan init",
		"- Using previously-installed "+display+"plankit/fwtest v1.0.0",
		"- Using previously-installed "+display+"plankit/sdktest v2.1.0")
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
