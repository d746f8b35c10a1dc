package e2etest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ephemeralVarConfig: an ephemeral variable configures the provider (token)
// and, through a local, feeds the write-only password_wo; terraform_data.snap's
// first provisioner copies the apply's journal segments while the apply
// runs, after fwtest_thing.a was created; the second gets the secret and
// prints it (its output is not shown).
const ephemeralVarConfig = `
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

variable "secret" {
  type      = string
  ephemeral = true
}

locals {
  password = "${var.secret}-pw"
}

provider "fwtest" {
  state_dir = var.objects
  token     = var.secret
}

resource "fwtest_thing" "a" {
  name        = "alpha"
  password_wo = local.password
}

resource "terraform_data" "snap" {
  depends_on = [fwtest_thing.a]
  provisioner "local-exec" {
    command = "mkdir -p journal-copy && for f in .terraform.tfstate.journal.*; do [ -e \"$f\" ] && cp \"$f\" journal-copy/; done; true"
  }
  provisioner "local-exec" {
    command = "echo the secret is ${var.secret}; echo ${var.secret} > provisioned.txt"
  }
}
`

const ephemeralSecret = "eph-s3cr3t-5150"

func sha256Of(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// TestEphemeralValuesThroughBinaries: the secret reaches the provider
// (its configuration and the write-only argument, at plan and at apply)
// and is found nowhere plankit writes: not in any entry of the archive,
// the state, the journal, show -json or the commands' output. apply FILE
// refuses the archive without the ephemeral variable, naming it, and with
// a changed non-ephemeral one; given it again (TF_VAR_), it applies.
func TestEphemeralValuesThroughBinaries(t *testing.T) {
	mirror := newPluginMirror(t)
	env := pluginEnv(t)
	objects, work, other := t.TempDir(), t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(work, "main.tf"), ephemeralVarConfig)
	var outputs []string
	record := func(r result) result {
		outputs = append(outputs, r.stdout, r.stderr)
		return r
	}

	r := record(run(t, work, "plan", env, "-no-color", "-plugin-dir="+mirror.dir, "-var", "objects="+objects, "-var", "secret="+ephemeralSecret, "-out=x.tfplan"))
	must(t, r, 0, "plan")
	contains(t, r.stdout, "plan output", "# fwtest_thing.a will be created", "+ password_wo = (sensitive, write-only attribute)",
		"Plan: 2 to add, 0 to change, 0 to destroy.")
	// The provider was configured with the token while planning.
	if got := readRecord(t, objects, "provider", "token")["sha256"]; got != sha256Of(ephemeralSecret) {
		t.Errorf("token digest after plan = %v, want the secret's", got)
	}
	js := record(run(t, work, "plan", env, "show", "-json", "x.tfplan"))
	must(t, js, 0, "show -json")
	tp := readTFJSON(t, js.stdout)
	if _, ok := tp.Variables["secret"]; ok {
		t.Errorf("show -json lists the ephemeral variable: %v", tp.Variables)
	}
	for _, rc := range tp.ResourceChanges {
		if rc.Address != "fwtest_thing.a" {
			continue
		}
		after, _ := rc.Change.After.(map[string]any)
		if v, ok := after["password_wo"]; !ok || v != nil {
			t.Errorf("show -json after.password_wo = %v (present %v), want null", v, ok)
		}
	}
	// The configuration says which variables are ephemeral, as OpenTofu's
	// show -json does.
	var doc struct {
		Configuration struct {
			RootModule struct {
				Variables map[string]map[string]any `json:"variables"`
			} `json:"root_module"`
		} `json:"configuration"`
	}
	if err := json.Unmarshal([]byte(js.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if got := doc.Configuration.RootModule.Variables; got["secret"]["ephemeral"] != true || got["objects"]["ephemeral"] != nil {
		t.Errorf("show -json configuration variables = %v", got)
	}
	human := record(run(t, work, "plan", env, "show", "-no-color", "x.tfplan"))
	must(t, human, 0, "show")
	contains(t, human.stdout, "show", "+ password_wo = (sensitive, write-only attribute)")

	// Only the archive goes to the other directory.
	copyFile(t, filepath.Join(work, "x.tfplan"), filepath.Join(other, "x.tfplan"))
	missing := record(run(t, other, "apply", env, "-no-color", "-plugin-dir="+mirror.dir, "x.tfplan"))
	must(t, missing, 1, "apply without the ephemeral variable")
	contains(t, missing.stderr, "refusal", "No value for ephemeral variable", `Variable "secret" is ephemeral`)
	changed := record(run(t, other, "apply", env, "-no-color", "-plugin-dir="+mirror.dir, "-var", "secret="+ephemeralSecret, "-var", "objects="+objects+"/else", "x.tfplan"))
	must(t, changed, 1, "apply with a changed variable")
	contains(t, changed.stderr, "refusal", "Variable changed since the plan", `Variable "objects" is given a value (with -var)`)
	if _, err := os.Stat(filepath.Join(objects, "thing")); !os.IsNotExist(err) {
		t.Fatalf("a refused apply created objects: %v", err)
	}

	ap := record(run(t, other, "apply", append(env, "TF_VAR_secret="+ephemeralSecret), "-no-color", "-plugin-dir="+mirror.dir, "-var", "objects="+objects, "x.tfplan"))
	must(t, ap, 0, "apply")
	contains(t, ap.stdout, "apply", "fwtest_thing.a: Creation complete", "Apply complete! Resources: 2 added, 0 changed, 0 destroyed.",
		"terraform_data.snap (local-exec): (output suppressed: the provisioner's configuration holds ephemeral values)")
	// The provisioner got the value (it wrote it where the test skips).
	if b, err := os.ReadFile(filepath.Join(other, "provisioned.txt")); err != nil || string(b) != ephemeralSecret+"\n" {
		t.Errorf("provisioner wrote %q, %v", b, err)
	}
	if err := os.Remove(filepath.Join(other, "provisioned.txt")); err != nil {
		t.Fatal(err)
	}

	// The provider got the value at apply: it keeps its digest.
	id := stateAttr(t, filepath.Join(other, "terraform.tfstate"), "fwtest_thing", "id")
	if got := readRecord(t, objects, "thing", id.(string))["password_wo_sha256"]; got != sha256Of(ephemeralSecret+"-pw") {
		t.Errorf("password digest = %v, want the configured value's", got)
	}
	if v := stateAttr(t, filepath.Join(other, "terraform.tfstate"), "fwtest_thing", "password_wo"); v != nil {
		t.Errorf("state password_wo = %v, want null", v)
	}
	journals, _ := filepath.Glob(filepath.Join(other, "journal-copy", ".terraform.tfstate.journal.*"))
	if len(journals) == 0 {
		t.Errorf("the provisioner copied no journal segment during the apply")
	}

	// apply without a plan file plans and applies with the value given once.
	inline := record(run(t, work, "apply", env, "-no-color", "-auto-approve", "-plugin-dir="+mirror.dir, "-state=inline.tfstate",
		"-var", "objects="+objects, "-var", "secret="+ephemeralSecret+"2"))
	must(t, inline, 0, "apply without a plan file")
	id2 := stateAttr(t, filepath.Join(work, "inline.tfstate"), "fwtest_thing", "id")
	if got := readRecord(t, objects, "thing", id2.(string))["password_wo_sha256"]; got != sha256Of(ephemeralSecret+"2-pw") {
		t.Errorf("password digest after apply without a plan file = %v, want the configured value's", got)
	}
	if err := os.Remove(filepath.Join(work, "provisioned.txt")); err != nil {
		t.Fatal(err)
	}

	// Nowhere: every ZIP entry of the archive (decompressed), every file
	// of both directories (state, backups, journal copies, lock file),
	// and everything the commands printed.
	for _, dir := range []string{work, other} {
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(b), ephemeralSecret) {
				t.Errorf("%s holds the secret", p)
			}
			if strings.HasSuffix(p, ".tfplan") {
				for name, content := range zipEntries(t, p) {
					if strings.Contains(content, ephemeralSecret) {
						t.Errorf("archive entry %s holds the secret", name)
					}
				}
			}
			return nil
		})
	}
	for i, o := range outputs {
		if strings.Contains(o, ephemeralSecret) {
			t.Errorf("command output %d shows the secret:\n%s", i, o)
		}
	}
	noProviderProcesses(t, env)
}

// readRecord reads an object the test providers keep in dir.
func readRecord(t *testing.T, dir, kind, id string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, kind, id+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var rec map[string]any
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatal(err)
	}
	return rec
}

// stateAttr returns an attribute of the only instance of the first
// resource of type typ in the state file at path.
func stateAttr(t *testing.T, path, typ, name string) any {
	t.Helper()
	var sf struct {
		Resources []struct {
			Type      string `json:"type"`
			Instances []struct {
				Attributes map[string]any `json:"attributes"`
			} `json:"instances"`
		} `json:"resources"`
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &sf); err != nil {
		t.Fatal(err)
	}
	for _, r := range sf.Resources {
		if r.Type == typ && len(r.Instances) == 1 {
			return r.Instances[0].Attributes[name]
		}
	}
	t.Fatalf("no %s in %s", typ, path)
	return nil
}
