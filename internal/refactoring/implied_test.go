package refactoring

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/configs"
)

// TestImpliedStatementsOrder: implied moves come module by module, each
// module's in the order of its resources' names, whatever the map order,
// and none for a resource the state has nothing of, moved explicitly, or
// with for_each.
func TestImpliedStatementsOrder(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("main.tf", `
resource "null_resource" "d" { count = 1 }
resource "null_resource" "b" { count = 1 }
resource "null_resource" "a" {}
resource "null_resource" "c" { count = 1 }
resource "null_resource" "e" { count = 1 }
resource "null_resource" "f" { for_each = {} }
resource "null_resource" "g" { count = 1 }
moved {
  from = null_resource.x
  to   = null_resource.g
}
module "m" { source = "./m" }
`)
	write("m/main.tf", `
resource "null_resource" "z" { count = 1 }
resource "null_resource" "y" {}
`)
	cfg, diags := configs.LoadConfigDir(dir)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	st := stateOf(t, "null_resource.d", "null_resource.b", "null_resource.a[0]", "null_resource.c",
		"null_resource.f", "null_resource.g", "module.m.null_resource.z", "module.m.null_resource.y[0]")
	var got []string
	for range 5 { // map order differs from run to run
		got = got[:0]
		for _, s := range FindStatements(cfg, st) {
			if s.Implied {
				got = append(got, s.Module.String()+":"+s.From.String()+"->"+s.To.String())
			}
		}
		want := []string{
			":null_resource.a[0]->null_resource.a", ":null_resource.b->null_resource.b[0]",
			":null_resource.c->null_resource.c[0]", ":null_resource.d->null_resource.d[0]",
			"module.m:null_resource.y[0]->null_resource.y", "module.m:null_resource.z->null_resource.z[0]",
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("implied statements (-want +got):\n%s", diff)
		}
	}
}
