package command

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/depsfile"
	"github.com/plankit/plankit/internal/providers/install"
	"github.com/plankit/plankit/states"
)

// TestImpliedSourceHost (issue 26): a source without a hostname is served
// from the registry host the lock file and .terraform/providers already
// use (registry.opentofu.org where tofu init ran), never a registry twin
// of a locked provider; plan and apply leave the lock file as it was.
func TestImpliedSourceHost(t *testing.T) {
	tofuNull := addrs.Provider{Hostname: addrs.OpenTofuProviderRegistryHost, Namespace: "hashicorp", Type: "null"}
	tfNull := addrs.NewDefaultProvider("null")
	required := func(source string) string {
		return fmt.Sprintf("terraform {\n  required_providers {\n    null = { source = %q }\n  }\n}\n\nresource \"null_resource\" \"a\" {}\n", source)
	}
	noEntry := "resource \"null_resource\" \"a\" {}\n"
	cases := []struct {
		name   string
		config string
		// installed is where init left the package (zero: nowhere);
		// locked whether the lock file records it, with its hash.
		installed addrs.Provider
		locked    bool
		// mirror: a -plugin-dir also holds registry.terraform.io's
		// package of the same version.
		mirror bool
		// want is the provider whose package plan and apply run ("" for
		// the built-in), and wantLock what the lock file says after.
		want     string
		wantLock []string
	}{
		{name: "tofu init, hashicorp/null", config: required("hashicorp/null"), installed: tofuNull, locked: true,
			want: "registry.opentofu.org/hashicorp/null 3.2.3", wantLock: []string{"registry.opentofu.org/hashicorp/null"}},
		{name: "tofu init, and a mirror with registry.terraform.io's package", config: required("hashicorp/null"), installed: tofuNull, locked: true, mirror: true,
			want: "registry.opentofu.org/hashicorp/null 3.2.3", wantLock: []string{"registry.opentofu.org/hashicorp/null"}},
		{name: "tofu init, no required_providers entry", config: noEntry, installed: tofuNull, locked: true,
			want: "registry.opentofu.org/hashicorp/null 3.2.3", wantLock: []string{"registry.opentofu.org/hashicorp/null"}},
		{name: "terraform init, hashicorp/null", config: required("hashicorp/null"), installed: tfNull, locked: true,
			want: "registry.terraform.io/hashicorp/null 3.2.3", wantLock: []string{"registry.terraform.io/hashicorp/null"}},
		{name: "tofu's package, no lock entry yet: recorded under its own host", config: required("null"), installed: tofuNull,
			want: "registry.opentofu.org/hashicorp/null 3.2.3", wantLock: []string{"registry.opentofu.org/hashicorp/null"}},
		{name: "an explicit registry.terraform.io source is kept", config: required("registry.terraform.io/hashicorp/null"), installed: tofuNull, locked: true,
			want: "", wantLock: []string{"registry.opentofu.org/hashicorp/null"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"main.tf": tc.config})
			var exe string
			if !tc.installed.IsZero() {
				pkg := fakePackage(t, filepath.Join(dir, ".terraform", "providers"), tc.installed, "3.2.3")
				exe = filepath.Join(pkg, "terraform-provider-null_v3.2.3")
				if tc.locked {
					h1, err := install.HashDir(pkg)
					if err != nil {
						t.Fatal(err)
					}
					writeFiles(t, dir, map[string]string{".terraform.lock.hcl": fmt.Sprintf("# This file is maintained automatically by \"tofu init\".\n# Manual edits may be lost in future updates.\n\nprovider %q {\n  version = \"3.2.3\"\n  hashes = [\n    %q,\n  ]\n}\n", tc.installed.String(), h1)})
				}
			}
			before, _ := os.ReadFile(filepath.Join(dir, ".terraform.lock.hcl"))
			var extra []string
			if tc.mirror {
				mirror := t.TempDir()
				fakePackage(t, mirror, tfNull, "3.2.3")
				extra = append(extra, "-plugin-dir="+mirror)
			}
			var rec pluginRecorder
			m, out, errb := discoveryMeta(t, &rec)
			if code := Plan(m, append([]string{"-chdir=" + dir, "-no-color", "-out=p.tfplan"}, extra...)); code != ExitOK {
				t.Fatalf("plan: exit %d\n%s%s", code, out, errb)
			}
			m, out, errb = discoveryMeta(t, &rec)
			if code := Apply(m, append([]string{"-chdir=" + dir, "-no-color"}, append(extra, "p.tfplan")...)); code != ExitOK {
				t.Fatalf("apply: exit %d\n%s%s", code, out, errb)
			}
			var want []string
			if tc.want != "" {
				want = []string{tc.want + " " + exe, tc.want + " " + exe}
			}
			if diff := cmp.Diff(want, rec.chosen); diff != "" {
				t.Errorf("packages plan and apply ran (-want +got):\n%s", diff)
			}
			after, _ := os.ReadFile(filepath.Join(dir, ".terraform.lock.hcl"))
			var got []string
			for _, line := range strings.Split(string(after), "\n") {
				if name, ok := strings.CutPrefix(line, "provider \""); ok {
					got = append(got, strings.TrimSuffix(name, "\" {"))
				}
			}
			if diff := cmp.Diff(tc.wantLock, got); diff != "" {
				t.Errorf("lock file's providers (-want +got):\n%s\n%s", diff, after)
			}
			if tc.locked && string(after) != string(before) {
				t.Errorf("the lock file changed:\n%s\nwas:\n%s", after, before)
			}
		})
	}
}

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
				fakePackage(t, dir, p, "1.0.0")
			}
			writeFiles(t, dir, map[string]string{"l.hcl": lock})
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
				t.Errorf("operation.Resolve(%s) = %s, want %s", null, got, tc.want)
			}
		})
	}
}
