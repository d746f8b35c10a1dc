package operation

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/depsfile"
	"github.com/plankit/plankit/states"
)

// TestHostEvidence: which host an implied registry.terraform.io source
// resolves to, from each kind of evidence in the working directory.
func TestHostEvidence(t *testing.T) {
	null := addrs.NewDefaultProvider("null")
	tofuNull, _ := null.RegistryTwin()
	tofuRandom := addrs.Provider{Hostname: addrs.OpenTofuProviderRegistryHost, Namespace: "hashicorp", Type: "random"}
	tfRandom := addrs.NewDefaultProvider("random")
	other := addrs.Provider{Hostname: "example.com", Namespace: "acme", Type: "null"}
	cases := []struct {
		name      string
		locked    []addrs.Provider
		installed []addrs.Provider
		state     []addrs.Provider
		want      addrs.Provider
	}{
		{name: "nothing: Terraform's default", want: null},
		{name: "locked under OpenTofu's host", locked: []addrs.Provider{tofuNull}, want: tofuNull},
		{name: "locked under Terraform's host", locked: []addrs.Provider{null}, want: null},
		{name: "both locked: as written", locked: []addrs.Provider{null, tofuNull}, want: null},
		{name: "lock beats installed", locked: []addrs.Provider{null}, installed: []addrs.Provider{tofuNull}, want: null},
		{name: "installed only under OpenTofu's host", installed: []addrs.Provider{tofuNull}, want: tofuNull},
		{name: "state only", state: []addrs.Provider{tofuNull}, want: tofuNull},
		{name: "another provider locked by tofu init", locked: []addrs.Provider{tofuRandom}, want: tofuNull},
		{name: "another provider installed by tofu init", installed: []addrs.Provider{tofuRandom}, want: tofuNull},
		{name: "mixed directory: Terraform's default", locked: []addrs.Provider{tofuRandom, tfRandom}, want: null},
		{name: "only a third-party host", locked: []addrs.Provider{other}, want: null},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			lock := ""
			for _, p := range tc.locked {
				lock += fmt.Sprintf("provider %q {\n  version = \"1.0.0\"\n}\n", p.String())
			}
			for _, p := range tc.installed {
				installedPackage(t, dir, p, "1.0.0")
			}
			if err := os.WriteFile(filepath.Join(dir, "l.hcl"), []byte(lock), 0o644); err != nil {
				t.Fatal(err)
			}
			locks, diags := depsfile.LoadLocksFromFile(filepath.Join(dir, "l.hcl"))
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			state := states.NewState()
			for i, p := range tc.state {
				addr := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: p.Type + "_thing", Name: fmt.Sprint("r", i)}.Instance(addrs.NoKey).Absolute(addrs.RootModuleInstance)
				state.SetResourceInstanceCurrent(addr, &states.ResourceInstanceObjectSrc{AttrsJSON: []byte(`{}`), Status: states.ObjectReady}, addrs.AbsProviderConfig{Provider: p})
			}
			e := newHostEvidence(dir, locks, state)
			if got := e.resolve(null); got != tc.want {
				t.Errorf("resolve(%s) = %s, want %s", null, got, tc.want)
			}
		})
	}
}

// installedPackage lays out an (unrunnable) package of p at version under
// root as .terraform/providers holds one.
func installedPackage(t *testing.T, root string, p addrs.Provider, version string) {
	t.Helper()
	dir := filepath.Join(root, p.Hostname, p.Namespace, p.Type, version, runtime.GOOS+"_"+runtime.GOARCH)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "terraform-provider-"+p.Type+"_v"+version), []byte("#!/bin/false\n"+version), 0o755); err != nil {
		t.Fatal(err)
	}
}
