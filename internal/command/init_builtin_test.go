package command

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/providers/install/registrytest"
)

// TestInitInstallsBuiltinProvidersFromSources (issue 26): plan init
// installs and locks the real package of a provider plankit has built in
// when a configured source (network or filesystem mirror, -plugin-dir)
// offers it, as tofu init does, and plan then runs that package; the
// built-in serves only where no source offers the provider, said once; a
// lock entry of another version is never served by the built-in.
func TestInitInstallsBuiltinProvidersFromSources(t *testing.T) {
	random := addrs.NewDefaultProvider("random")
	plat := runtime.GOOS + "_" + runtime.GOARCH
	const config = "terraform {\n  required_providers {\n    random = { source = \"hashicorp/random\" }\n  }\n}\n"
	cases := []struct {
		name string
		// setup returns the CLI configuration's provider_installation
		// block and extra init arguments.
		setup    func(t *testing.T, m *Meta) (cliConfig string, args []string)
		lock     string
		wantOut  []string
		wantErr  string
		wantLock string // the version locked after init ("" none)
		wantPlan string // the version of the package plan runs ("" the built-in)
	}{
		{
			name: "network mirror",
			setup: func(t *testing.T, m *Meta) (string, []string) {
				srv := registrytest.New(t)
				for _, v := range []string{"3.7.0", "3.8.1"} {
					srv.Add(t, "hashicorp/random", v, plat, map[string][]byte{"terraform-provider-random_v" + v: []byte("#!/bin/false\n" + v)})
				}
				m.HTTPClient = srv.Client()
				return fmt.Sprintf("network_mirror {\n    url = %q\n  }", srv.MirrorURL()), nil
			},
			wantOut:  []string{"- Installed hashicorp/random v3.8.1"},
			wantLock: "3.8.1", wantPlan: "3.8.1",
		},
		{
			name: "filesystem mirror",
			setup: func(t *testing.T, m *Meta) (string, []string) {
				dir := t.TempDir()
				fakePackage(t, dir, random, "3.7.0")
				return fmt.Sprintf("filesystem_mirror {\n    path = %q\n  }", dir), nil
			},
			wantOut:  []string{"- Installed hashicorp/random v3.7.0"},
			wantLock: "3.7.0", wantPlan: "3.7.0",
		},
		{
			name: "-plugin-dir",
			setup: func(t *testing.T, m *Meta) (string, []string) {
				dir := t.TempDir()
				fakePackage(t, dir, random, "3.6.3")
				return fmt.Sprintf("filesystem_mirror {\n    path = %q\n  }", t.TempDir()), []string{"-plugin-dir=" + dir}
			},
			wantOut:  []string{"- Installed hashicorp/random v3.6.3"},
			wantLock: "3.6.3", wantPlan: "3.6.3",
		},
		{
			name: "no source offers it",
			setup: func(t *testing.T, m *Meta) (string, []string) {
				return fmt.Sprintf("filesystem_mirror {\n    path = %q\n  }", t.TempDir()), nil
			},
			wantOut: []string{"- Using hashicorp/random built into plankit (compatible with v3.8.1): no installation source offers it\n"},
		},
		{
			name: "no source offers it, locked at the built-in's version",
			setup: func(t *testing.T, m *Meta) (string, []string) {
				return fmt.Sprintf("filesystem_mirror {\n    path = %q\n  }", t.TempDir()), nil
			},
			lock:     "provider \"registry.terraform.io/hashicorp/random\" {\n  version = \"3.8.1\"\n}\n",
			wantOut:  []string{"- Using hashicorp/random built into plankit (compatible with v3.8.1): no installation source offers it\n"},
			wantLock: "3.8.1",
		},
		{
			name: "no source offers the locked version of another version than the built-in",
			setup: func(t *testing.T, m *Meta) (string, []string) {
				return fmt.Sprintf("filesystem_mirror {\n    path = %q\n  }", t.TempDir()), nil
			},
			lock:     "provider \"registry.terraform.io/hashicorp/random\" {\n  version = \"3.6.3\"\n}\n",
			wantErr:  "locks hashicorp/random at 3.6.3, but no installation source offers it, and plankit's built-in hashicorp/random is compatible with 3.8.1, not 3.6.3",
			wantLock: "3.6.3",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"main.tf": config})
			if tc.lock != "" {
				writeFiles(t, dir, map[string]string{".terraform.lock.hcl": tc.lock})
			}
			var rec pluginRecorder
			m, out, errb := discoveryMeta(t, &rec)
			block, args := tc.setup(t, m)
			cli := filepath.Join(t.TempDir(), "cli.tfrc")
			writeFiles(t, filepath.Dir(cli), map[string]string{filepath.Base(cli): "provider_installation {\n  " + block + "\n}\n"})
			m.Env = append(m.Env, "TF_CLI_CONFIG_FILE="+cli)
			code := Plan(m, append([]string{"-chdir=" + dir, "init", "-no-color"}, args...))
			msg := strings.Join(strings.Fields(errb.String()), " ")
			if tc.wantErr != "" {
				if code != ExitError || !strings.Contains(msg, tc.wantErr) {
					t.Errorf("init: exit %d, want an error saying %q:\n%s", code, tc.wantErr, errb)
				}
			} else if code != ExitOK {
				t.Fatalf("init: exit %d\n%s%s", code, out, errb)
			}
			for _, want := range tc.wantOut {
				if n := strings.Count(out.String(), want); n != 1 {
					t.Errorf("init output has %q %d times, want once:\n%s", want, n, out)
				}
			}
			if tc.wantPlan != "" && strings.Contains(out.String(), "built into plankit") {
				t.Errorf("init used the built-in although a source offers the provider:\n%s", out)
			}
			lockText, _ := os.ReadFile(filepath.Join(dir, ".terraform.lock.hcl"))
			gotLock := ""
			if _, rest, ok := strings.Cut(string(lockText), "provider \"registry.terraform.io/hashicorp/random\" {\n  version = \""); ok {
				gotLock, _, _ = strings.Cut(rest, "\"")
			}
			if gotLock != tc.wantLock {
				t.Errorf("locked version %q, want %q:\n%s", gotLock, tc.wantLock, lockText)
			}
			if tc.wantErr != "" {
				if string(lockText) != tc.lock {
					t.Errorf("a failed init changed the lock file:\n%s", lockText)
				}
				// plan does not serve the lock entry by the built-in.
				errb.Reset()
				if code := Plan(m, []string{"-chdir=" + dir, "-no-color"}); code != ExitError || !strings.Contains(errb.String(), "run plan init") {
					t.Errorf("plan: exit %d, want an error saying to run plan init:\n%s", code, errb)
				}
				return
			}
			// plan runs what init chose, and leaves the lock file as is.
			out.Reset()
			rec.chosen = nil
			if code := Plan(m, []string{"-chdir=" + dir, "-no-color"}); code != ExitOK {
				t.Fatalf("plan: exit %d\n%s%s", code, out, errb)
			}
			var want []string
			if tc.wantPlan != "" {
				exe := filepath.Join(dir, ".terraform", "providers", random.Hostname, "hashicorp", "random", tc.wantPlan, plat, "terraform-provider-random_v"+tc.wantPlan)
				want = []string{random.String() + " " + tc.wantPlan + " " + exe}
			}
			if diff := cmp.Diff(want, rec.chosen); diff != "" {
				t.Errorf("plan ran (-want +got):\n%s", diff)
			}
			if after, _ := os.ReadFile(filepath.Join(dir, ".terraform.lock.hcl")); string(after) != string(lockText) {
				t.Errorf("plan changed the lock file init wrote:\n%s\nwas:\n%s", after, lockText)
			}
		})
	}
}
