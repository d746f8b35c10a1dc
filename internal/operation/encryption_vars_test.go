package operation

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/terraform"
	"github.com/plankit/plankit/plans"
)

const encVarBlock = `
variable "pass" {
  type = string
  validation {
    condition     = length(var.pass) >= 16
    error_message = "At least 16 characters."
  }
}
variable "other" {
  type    = string
  default = "x"
}
terraform {
  required_version = ">= 1.0"
  encryption {
    key_provider "pbkdf2" "k" { passphrase = var.pass }
    method "aes_gcm" "m" { keys = key_provider.pbkdf2.k }
    state { method = method.aes_gcm.m }
  }
}
`

// TestEncryptionVarsOnly: a variable of the encryption configuration may
// be used only there (and in its own validation); any other use is
// refused, naming it.
func TestEncryptionVarsOnly(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []string // variables reported
	}{
		{"only encryption", map[string]string{"main.tf": encVarBlock + `resource "terraform_data" "a" { input = var.other }`}, nil},
		{"resource", map[string]string{"main.tf": encVarBlock + `resource "terraform_data" "a" { input = "${var.pass}-x" }`}, []string{"pass"}},
		{"output", map[string]string{"main.tf": encVarBlock + `output "o" { value = [for c in [1] : var.pass] }`}, []string{"pass"}},
		{"local in another file", map[string]string{"main.tf": encVarBlock, "l.tf": `locals { l = var.pass }`}, []string{"pass"}},
		{"provider", map[string]string{"main.tf": encVarBlock + `provider "terraform" { x = var.pass }`}, []string{"pass"}},
		{"other variable's validation", map[string]string{"main.tf": encVarBlock + `variable "v" {
  validation {
    condition     = var.v != var.pass
    error_message = "no"
  }
}`}, []string{"pass"}},
		{"override file encryption", map[string]string{"main.tf": encVarBlock, "main_override.tf": `terraform {
  encryption {
    key_provider "pbkdf2" "k" { passphrase = var.other }
  }
}`}, nil},
		{"json", map[string]string{"main.tf": encVarBlock, "o.tf.json": `{"output": {"o": {"value": "${var.pass}"}}}`}, []string{"pass"}},
		{"json without it", map[string]string{"main.tf": encVarBlock, "o.tf.json": `{"output": {"o": {"value": "${var.other}"}}}`}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for n, src := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, n), []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			config, diags := configs.LoadConfigDir(dir)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			enc, diags := LoadEncryption(nil, config, terraform.InputValues{"pass": {Value: cty.StringVal("a passphrase long enough")}, "other": {Value: cty.StringVal("another long passphrase")}})
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			var got []string
			for _, d := range EncryptionVarsOnly(config, enc) {
				if !strings.Contains(d.Detail, "must be used only there") || d.Subject == nil {
					t.Fatalf("diagnostic %v", d)
				}
				got = append(got, strings.TrimPrefix(strings.Fields(d.Detail)[0], "var."))
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Fatalf("reported (-want +got):\n%s", diff)
			}
		})
	}
}

// TestWithoutEncryptionVars: the archive's copy of the plan lacks the
// encryption variables' values (recorded as sensitive, with no value) and
// keeps the others; the plan apply runs in process is unchanged. Apply
// of the archive restores the value from the encryption's own variables.
func TestWithoutEncryptionVars(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(encVarBlock), 0o644); err != nil {
		t.Fatal(err)
	}
	config, diags := configs.LoadConfigDir(dir)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	pass := cty.StringVal("a passphrase long enough")
	enc, diags := LoadEncryption(nil, config, terraform.InputValues{"pass": {Value: pass}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	plan := &plans.Plan{VariableValues: map[string]cty.Value{"pass": pass, "other": cty.StringVal("x")}}
	stored := WithoutEncryptionVars(plan, enc)
	if _, ok := stored.VariableValues["pass"]; ok || !stored.VariableSensitive["pass"] || stored.VariableValues["other"] != cty.StringVal("x") {
		t.Fatalf("stored variables %#v %#v", stored.VariableValues, stored.VariableSensitive)
	}
	if plan.VariableValues["pass"] != pass {
		t.Fatal("the caller's plan was changed")
	}
	RestoreEncryptionVars(stored, config, enc)
	if stored.VariableValues["pass"] != pass {
		t.Fatalf("restored %#v", stored.VariableValues["pass"])
	}
	// A variable the plan has no value for and did not leave out on
	// purpose is not invented.
	other := &plans.Plan{VariableValues: map[string]cty.Value{"pass": pass}}
	RestoreEncryptionVars(other, config, enc)
	if _, ok := other.VariableValues["other"]; ok {
		t.Fatalf("restored a variable the archive did not leave out: %#v", other.VariableValues)
	}
	// Without a value, the encryption refuses to start, naming it.
	if _, diags := LoadEncryption(nil, config, nil); !diags.HasErrors() || !strings.Contains(diags.Error(), "var.pass") || !strings.Contains(diags.Error(), "TF_VAR_pass") {
		t.Fatalf("no value: %v", diags)
	}
}
