package planfile_test

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/depsfile"
	"github.com/plankit/plankit/planfile"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/states/statefile"
)

// Example opens a plan archive the way tooling would: no providers, no
// configuration directory, no state backend, only the .tfplan file. (The
// first half writes one, as plan -out does.)
func Example() {
	dir, _ := os.MkdirTemp("", "planfile-example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "ci.tfplan")
	if err := writeExamplePlan(path); err != nil {
		fmt.Println(err)
		return
	}

	r, err := planfile.Open(path)
	if err != nil {
		fmt.Println(err) // an *planfile.Error; errors.Is(err, planfile.KindIntegrity) etc.
		return
	}
	defer r.Close()

	plan, err := r.ReadPlan()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("format:", r.FormatInfo(), "written by", r.FormatInfo().ToolVersion)
	for _, rc := range plan.Changes.Resources {
		fmt.Printf("%s: %s, name = %s\n", rc.Addr, rc.Action, rc.After.GetAttr("name").AsString())
	}

	prior, _ := r.ReadStateFile()
	fmt.Println("prior state:", prior.Lineage, "serial", prior.Serial)

	snap, _ := r.ReadConfigSnapshot()
	for _, key := range slices.Sorted(maps.Keys(snap.Modules)) {
		m := snap.Modules[key]
		fmt.Printf("module %q in %s: %d file(s)\n", key, m.Dir, len(m.Files))
	}

	locks, _ := r.ReadDependencyLocks()
	for p, l := range locks.AllProviders() {
		fmt.Println("provider", p.ForDisplay(), l.Version())
	}
	// Output:
	// format: 1.3 written by example 1.0
	// null_resource.web: Create, name = web
	// prior state: 0f5a7c1e-0000-4000-8000-000000000000 serial 3
	// module "" in .: 1 file(s)
	// provider hashicorp/null 3.2.1
}

func writeExamplePlan(path string) error {
	ty := cty.Object(map[string]cty.Type{"id": cty.String, "name": cty.String})
	addr := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "null_resource", Name: "web"}.Instance(addrs.NoKey).Absolute(nil)
	changes := plans.NewChanges()
	changes.Resources = append(changes.Resources, &plans.ResourceInstanceChange{
		Addr: addr, PrevRunAddr: addr,
		ProviderAddr: addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("null")},
		Change: plans.Change{Action: plans.Create, Before: cty.NullVal(ty), After: cty.ObjectVal(map[string]cty.Value{
			"id": cty.UnknownVal(cty.String), "name": cty.StringVal("web"),
		})},
	})
	state := states.NewState()
	locks := depsfile.NewLocks()
	locks.SetProvider(addrs.NewDefaultProvider("null"), "3.2.1", ">= 3.0", nil)
	return planfile.Write(path, &planfile.CreateArgs{
		Plan:                 &plans.Plan{Changes: changes, Applyable: true, Complete: true},
		StateFile:            &statefile.File{Lineage: "0f5a7c1e-0000-4000-8000-000000000000", Serial: 3, State: state},
		PreviousRunStateFile: &statefile.File{Lineage: "0f5a7c1e-0000-4000-8000-000000000000", Serial: 3, State: state},
		ConfigSnapshot: &configs.Snapshot{Modules: map[string]*configs.SnapshotModule{
			"": {Dir: ".", Files: map[string][]byte{"main.tf": []byte(`resource "null_resource" "web" {}` + "\n")}},
		}},
		DependencyLocks: locks,
		ToolVersion:     "example 1.0",
	})
}
