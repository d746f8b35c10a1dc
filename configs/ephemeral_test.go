package configs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/plankit/plankit/addrs"
)

func loadSource(t *testing.T, src string) (*Config, string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, diags := LoadConfigDir(dir)
	var msgs []string
	for _, d := range diags {
		msgs = append(msgs, d.Summary+": "+d.Detail)
	}
	return cfg, strings.Join(msgs, "\n")
}

func TestEphemeralBlocks(t *testing.T) {
	cfg, diags := loadSource(t, `
terraform {
  required_providers {
    vault = { source = "hashicorp/vault" }
  }
}
provider "aws" {
  alias    = "by_region"
  for_each = toset(["a", "b"])
}
ephemeral "vault_token" "t" {
  count      = 2
  depends_on = [aws_instance.x]
  lifecycle {
    precondition {
      condition     = aws_instance.x.id != ""
      error_message = "x"
    }
  }
}
ephemeral "aws_secret" "s" {
  for_each = toset(["a", "b"])
  provider = aws.by_region[each.key]
  name     = ephemeral.vault_token.t[0].id
}
resource "aws_instance" "x" {}
`)
	if diags != "" {
		t.Fatalf("diagnostics: %s", diags)
	}
	m := cfg.Module
	var got []string
	for k, r := range m.EphemeralResources {
		got = append(got, k+" "+r.Provider.String())
	}
	if d := cmp.Diff([]string{"ephemeral.aws_secret.s registry.terraform.io/hashicorp/aws", "ephemeral.vault_token.t registry.terraform.io/hashicorp/vault"}, sorted(got)); d != "" {
		t.Errorf("ephemeral resources (-want +got):\n%s", d)
	}
	tok := m.ResourceByAddr(addrs.Resource{Mode: addrs.EphemeralResourceMode, Type: "vault_token", Name: "t"})
	if tok == nil || tok.Count == nil || len(tok.DependsOn) != 1 || len(tok.Preconditions) != 1 || tok.Managed != nil {
		t.Errorf("vault_token.t = %+v", tok)
	}
	var types []string
	for _, p := range cfg.ProviderTypes() {
		types = append(types, p.String())
	}
	if d := cmp.Diff([]string{"registry.terraform.io/hashicorp/aws", "registry.terraform.io/hashicorp/vault"}, types); d != "" {
		t.Errorf("ProviderTypes (-want +got):\n%s", d)
	}
}

func TestEphemeralBlockErrors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"managed lifecycle", `ephemeral "a_b" "c" {
  lifecycle { create_before_destroy = true }
}`, `Unsupported argument`},
		{"provisioner", `ephemeral "a_b" "c" {
  provisioner "local-exec" { command = "x" }
}`, "Ephemeral resources do not have provisioner blocks"},
		{"duplicate", `ephemeral "a_b" "c" {}
ephemeral "a_b" "c" {}`, `Duplicate ephemeral "a_b" configuration`},
		{"count and for_each", `ephemeral "a_b" "c" {
  count    = 1
  for_each = {}
}`, "count"},
		{"short reference", `locals { x = ephemeral.a_b }`, `The "ephemeral" object must be followed by two attribute names`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := loadSource(t, tt.src)
			if tt.name == "short reference" {
				// references are parsed when evaluated; check the parser.
				diags = parseRefDiag(t, "ephemeral.a_b")
			}
			if !strings.Contains(diags, tt.want) {
				t.Errorf("diagnostics %q lack %q", diags, tt.want)
			}
		})
	}
}

func parseRefDiag(t *testing.T, s string) string {
	t.Helper()
	trav := mustTraversal(t, s)
	_, diags := addrs.ParseRef(trav)
	var msgs []string
	for _, d := range diags {
		msgs = append(msgs, d.Summary+": "+d.Detail)
	}
	return strings.Join(msgs, "\n")
}

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

func mustTraversal(t *testing.T, s string) hcl.Traversal {
	t.Helper()
	trav, diags := hclsyntax.ParseTraversalAbs([]byte(s), "ref", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	return trav
}
