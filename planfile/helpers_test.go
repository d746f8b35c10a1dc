package planfile

import (
	"crypto/ed25519"
	"os"
	"path/filepath"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/depsfile"
	"github.com/plankit/plankit/plans/planstest"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/states/statefile"
)

// testConfigFiles is a root module calling a child module.
var testConfigFiles = map[string]string{
	"main.tf": `
module "net" {
  source = "./modules/net"
  cidr   = var.cidr
}
variable "cidr" {
  default = "10.0.0.0/16"
}
resource "null_resource" "a" {
  triggers = { cidr = module.net.cidr }
}
`,
	"modules/net/net.tf": `
variable "cidr" {}
output "cidr" { value = var.cidr }
resource "null_resource" "n" {}
`,
	"modules/net/override.tf.json": `{"output": {"cidr": {"value": "${var.cidr}"}}}`,
}

func writeTree(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func testSnapshot(t testing.TB) *configs.Snapshot {
	t.Helper()
	cfg, diags := configs.LoadConfigDir(writeTree(t, testConfigFiles))
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	return cfg.Snapshot()
}

func testState(t testing.TB, id string) *states.State {
	t.Helper()
	s := states.NewState()
	addr := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "null_resource", Name: "a"}.Instance(addrs.NoKey).Absolute(nil)
	s.SetResourceInstanceCurrent(addr, &states.ResourceInstanceObjectSrc{
		AttrsJSON: []byte(`{"id":"` + id + `","triggers":null}`), Status: states.ObjectReady,
		AttrSensitivePaths: []cty.Path{cty.GetAttrPath("triggers")},
	}, addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("null")})
	s.SetOutputValue(addrs.OutputValue{Name: "o"}.Absolute(nil), cty.StringVal("x"), false)
	return s
}

func testLocks() *depsfile.Locks {
	l := depsfile.NewLocks()
	l.SetProvider(addrs.NewDefaultProvider("null"), "3.2.1", "~> 3.0", nil)
	return l
}

// testArgs returns a complete archive's worth of content.
func testArgs(t testing.TB) *CreateArgs {
	t.Helper()
	p := planstest.FullPlan()
	prior := testState(t, "prior")
	prev := testState(t, "prev")
	p.PriorState, p.PrevRunState = prior, prev
	return &CreateArgs{
		Plan:                 p,
		StateFile:            &statefile.File{Lineage: "5b7e3c52-0c3d-4a0e-9f1e-2a1b3c4d5e6f", Serial: 7, State: prior},
		PreviousRunStateFile: &statefile.File{Lineage: "5b7e3c52-0c3d-4a0e-9f1e-2a1b3c4d5e6f", Serial: 6, State: prev},
		ConfigSnapshot:       testSnapshot(t),
		DependencyLocks:      testLocks(),
		ToolVersion:          "plankit 0.1.0-test",
	}
}

// testKey is a fixed Ed25519 key, so signed archives are reproducible too.
func testKey(seed byte) ed25519.PrivateKey {
	s := make([]byte, ed25519.SeedSize)
	for i := range s {
		s[i] = seed
	}
	return ed25519.NewKeyFromSeed(s)
}

func writeArchive(t testing.TB, args *CreateArgs) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "test.tfplan")
	if err := Write(path, args); err != nil {
		t.Fatal(err)
	}
	return path
}
