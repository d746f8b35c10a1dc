package review

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/depsfile"
	"github.com/plankit/plankit/internal/providers/builtin"
	"github.com/plankit/plankit/internal/terraform"
	"github.com/plankit/plankit/jsonplan"
	"github.com/plankit/plankit/planfile"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/states/statefile"
)

// The secrets planted in the fixtures: none may appear in any output.
var plantedSecrets = []string{"planted-var-secret-1", "planted-var-secret-2", "planted-literal-v1", "planted-literal-v2"}

// fixture is a configuration in two versions: the first is applied, the
// second planned against the result, so the plan has every kind of
// change real providers make.
type fixture struct {
	files1, files2 map[string]string
	vars1, vars2   map[string]string
	// deleteAfterApply is a file removed between the apply and the plan
	// (the local provider then reports drift).
	deleteAfterApply string
	backend          *planfile.Backend
	signKey          ed25519.PrivateKey
	policy           []byte // the recorded policy result (planfile.EntryPolicy)
}

const mainV1 = `
variable "db_password" {
  type      = string
  sensitive = true
}
variable "n" {
  type    = number
  default = 2
}
resource "terraform_data" "base" { input = "v1" }
resource "terraform_data" "keep" { input = "same" }
resource "terraform_data" "gone" { input = "bye" }
resource "terraform_data" "swap" {
  input            = "a"
  triggers_replace = ["1"]
}
resource "terraform_data" "cbd" {
  triggers_replace = ["1"]
  lifecycle { create_before_destroy = true }
}
resource "local_sensitive_file" "secret" {
  filename = "${path.module}/secret.txt"
  content  = "planted-literal-v1"
}
resource "local_sensitive_file" "db" {
  filename = "${path.module}/db.txt"
  content  = var.db_password
}
module "net" {
  source = "./net"
  base   = terraform_data.base.output
  n      = var.n
}
output "pw" {
  value     = var.db_password
  sensitive = true
}
output "base" { value = terraform_data.base.output }
`

const mainV2 = `
variable "db_password" {
  type      = string
  sensitive = true
}
variable "n" {
  type    = number
  default = 2
}
resource "terraform_data" "base" { input = "v2" }
resource "terraform_data" "keep" { input = "same" }
resource "terraform_data" "swap" {
  input            = "a"
  triggers_replace = ["2"]
}
resource "terraform_data" "cbd" {
  triggers_replace = ["2"]
  lifecycle { create_before_destroy = true }
}
resource "terraform_data" "added" {
  input = "new | with ` + "`backticks`" + `"
  depends_on = [terraform_data.swap]
}
resource "local_sensitive_file" "secret" {
  filename = "${path.module}/secret.txt"
  content  = "planted-literal-v2"
}
resource "local_sensitive_file" "db" {
  filename = "${path.module}/db.txt"
  content  = var.db_password
}
module "net" {
  source = "./net"
  base   = terraform_data.base.output
  n      = var.n
}
output "pw" {
  value     = var.db_password
  sensitive = true
}
output "base" { value = terraform_data.base.output }
check "base_pinned" {
  assert {
    condition     = terraform_data.base.output == "v1"
    error_message = "base | moved on from ` + "`v1`" + `"
  }
}
`

const netModule = `
variable "base" { type = string }
variable "n" { type = number }
resource "terraform_data" "n" {
  count = var.n
  input = "${var.base}-${count.index}"
}
`

func basicFixture(n int) fixture {
	return fixture{
		files1:           map[string]string{"main.tf": mainV1, "net/main.tf": netModule},
		files2:           map[string]string{"main.tf": mainV2, "net/main.tf": netModule},
		vars1:            map[string]string{"db_password": "planted-var-secret-1", "n": fmt.Sprint(n)},
		vars2:            map[string]string{"db_password": "planted-var-secret-2", "n": fmt.Sprint(n)},
		deleteAfterApply: "secret.txt",
		backend:          &planfile.Backend{Type: "pg", Workspace: "staging"},
	}
}

// createFixture is a configuration that only creates, planned from no state.
func createFixture() fixture {
	files := map[string]string{"main.tf": `
resource "terraform_data" "one" { input = "x" }
resource "terraform_data" "two" { input = terraform_data.one.output }
`}
	return fixture{files2: files}
}

var fixedTime = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// build plans (and first applies) the fixture in a fresh directory with
// the built-in providers through the core, and writes the archive to
// dir/name; it returns the archive's path.
func (f fixture) build(t testing.TB, name string) string {
	t.Helper()
	dir := t.TempDir()
	ctx := context.Background()
	write := func(files map[string]string) {
		for p, s := range files {
			full := filepath.Join(dir, p)
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	vars := func(m map[string]string, cfg *configs.Config) terraform.InputValues {
		out := terraform.InputValues{}
		for k, v := range m {
			val := cty.StringVal(v)
			if k == "n" {
				var n int64
				fmt.Sscan(v, &n)
				val = cty.NumberIntVal(n)
			}
			out[k] = &terraform.InputValue{Value: val, SourceType: terraform.ValueFromCLIArg}
		}
		return out
	}
	newCtx := func() *terraform.Context {
		c, diags := terraform.NewContext(&terraform.ContextOpts{Providers: builtin.FactoriesIn(dir), WorkingDir: dir})
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		return c
	}
	load := func() *configs.Config {
		cfg, diags := configs.LoadConfigDir(dir)
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		return cfg
	}
	opts := func(m map[string]string, cfg *configs.Config) *terraform.PlanOpts {
		return &terraform.PlanOpts{Mode: plans.NormalMode, SetVariables: vars(m, cfg), Timestamp: func() time.Time { return fixedTime }}
	}
	prior := states.NewState()
	if f.files1 != nil {
		write(f.files1)
		cfg := load()
		p, diags := newCtx().Plan(ctx, cfg, prior, opts(f.vars1, cfg))
		if diags.HasErrors() {
			t.Fatalf("plan 1: %s", diags.Error())
		}
		st, diags := newCtx().Apply(ctx, p, cfg, nil)
		if diags.HasErrors() {
			t.Fatalf("apply 1: %s", diags.Error())
		}
		prior = st
		if f.deleteAfterApply != "" {
			if err := os.Remove(filepath.Join(dir, f.deleteAfterApply)); err != nil {
				t.Fatal(err)
			}
		}
	}
	write(f.files2)
	cfg := load()
	p, diags := newCtx().Plan(ctx, cfg, prior, opts(f.vars2, cfg))
	if diags.HasErrors() {
		t.Fatalf("plan 2: %s", diags.Error())
	}
	show := planfile.NewEntryBuffer()
	s, err := jsonplan.StartSections(show, cfg, p.ProviderSchemas, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Finish(p); err != nil {
		t.Fatal(err)
	}
	if err := show.Close(); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	err = planfile.WriteTo(&buf, &planfile.CreateArgs{
		Plan: p, StateFile: &statefile.File{Lineage: "fixture", State: prior}, PreviousRunStateFile: &statefile.File{Lineage: "fixture", State: prior},
		ConfigSnapshot: cfg.Snapshot(), DependencyLocks: depsfile.NewLocks(), Backend: f.backend, ShowJSON: show,
		SignKey: f.signKey, ToolVersion: "test", PolicyResult: f.policy,
	})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// load opens an archive as the outputs' input, named by its base name
// (the goldens must not depend on the temporary directory).
func loadArchive(t testing.TB, path string, key ed25519.PublicKey) *Archive {
	t.Helper()
	a, err := Load(path, key)
	if err != nil {
		t.Fatal(err)
	}
	a.Name = filepath.Base(path)
	return a
}

// Values that differ on every run: terraform_data ids and the archives'
// hashes (which cover them).
var (
	uuidRE = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	hashRE = regexp.MustCompile(`[0-9a-f]{64}`)
)

func normalize(s string) string {
	s = uuidRE.ReplaceAllString(s, "00000000-0000-0000-0000-000000000000")
	return hashRE.ReplaceAllString(s, strings.Repeat("0", 64))
}
