package command

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/providers/install"
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
