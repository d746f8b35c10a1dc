package command

import (
	"fmt"
	"path/filepath"
	"sort"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/depsfile"
	"github.com/plankit/plankit/internal/providers/install"
)

// TestPrestartLocked checks which providers PrestartLocked starts early:
// every package the lock file records, only when every entry verifies
// and every needed provider is locked or built in, so that a command
// about to refuse a package starts none.
func TestPrestartLocked(t *testing.T) {
	acmeOther := addrs.Provider{Hostname: "example.com", Namespace: "acme", Type: "other"}
	hashiNull := addrs.Provider{Hostname: "registry.terraform.io", Namespace: "hashicorp", Type: "null"}
	plugins := t.TempDir()
	nullDir := fakePackage(t, plugins, acmeNull, "3.2.0")
	otherDir := fakePackage(t, plugins, acmeOther, "1.0.0")
	hash := func(dir string) string {
		h, err := install.HashDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	nullExe := filepath.Join(nullDir, "terraform-provider-null_v3.2.0")
	otherExe := filepath.Join(otherDir, "terraform-provider-other_v1.0.0")
	type entry struct {
		p       addrs.Provider
		version string
		hashes  []string
	}
	cases := []struct {
		name   string
		locks  []entry
		needed []addrs.Provider
		want   []string
	}{
		{"all verify", []entry{{acmeNull, "3.2.0", []string{hash(nullDir)}}, {acmeOther, "1.0.0", []string{hash(otherDir)}}}, nil,
			[]string{"example.com/acme/null 3.2.0 " + nullExe, "example.com/acme/other 1.0.0 " + otherExe}},
		{"locked without hashes", []entry{{acmeNull, "3.2.0", nil}}, nil,
			[]string{"example.com/acme/null 3.2.0 " + nullExe}},
		{"needed are locked or built in", []entry{{acmeNull, "3.2.0", []string{hash(nullDir)}}}, []addrs.Provider{acmeNull, hashiNull},
			[]string{"example.com/acme/null 3.2.0 " + nullExe}},
		{"one hash mismatch", []entry{{acmeNull, "3.2.0", []string{hash(nullDir)}}, {acmeOther, "1.0.0", []string{hash(nullDir)}}}, nil, nil},
		{"locked version not installed", []entry{{acmeNull, "3.2.0", []string{hash(nullDir)}}, {acmeOther, "2.0.0", nil}}, nil, nil},
		{"needed provider not locked", []entry{{acmeNull, "3.2.0", []string{hash(nullDir)}}}, []addrs.Provider{acmeNull, acmeOther}, nil},
		{"empty lock file", nil, nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			locks := depsfile.NewLocks()
			for _, e := range c.locks {
				locks.SetProvider(e.p, e.version, "", e.hashes)
			}
			if err := depsfile.SaveLocksToFile(locks, filepath.Join(dir, depsfile.LockFilePath)); err != nil {
				t.Fatal(err)
			}
			var rec pluginRecorder
			m, _, _ := discoveryMeta(t, &rec)
			var mu sync.Mutex
			var got []string
			m.PrestartPlugin = func(p addrs.Provider, version, exe string) {
				mu.Lock()
				defer mu.Unlock()
				got = append(got, fmt.Sprintf("%s %s %s", p, version, exe))
			}
			// From the working directory's lock file, and from a lock
			// given (an archive's).
			for _, given := range []*depsfile.Locks{nil, locks} {
				got = nil
				m.ProviderSource().PrestartLocked(dir, []string{plugins}, given, c.needed)()
				sort.Strings(got)
				if diff := cmp.Diff(c.want, got); diff != "" {
					t.Errorf("given lock %v: prestarted (-want +got):\n%s", given != nil, diff)
				}
			}
			if n := rec.starts.Load(); n != 0 {
				t.Errorf("PrestartLocked started %d providers itself", n)
			}
		})
	}
}

// TestPlanPrestartsResolvedPlugins checks that a plan without a lock file
// starts every plugin provider it resolved in the background as soon as
// they are verified (the core's start then takes it), and that a plan
// with the lock file also asks for the locked ones before loading the
// configuration.
func TestPlanPrestartsResolvedPlugins(t *testing.T) {
	dir, plugins := t.TempDir(), t.TempDir()
	writeFiles(t, dir, map[string]string{"main.tf": acmeConfig})
	pkg := fakePackage(t, plugins, acmeNull, "3.2.0")
	want := []string{"example.com/acme/null 3.2.0 " + filepath.Join(pkg, "terraform-provider-null_v3.2.0")}
	var rec pluginRecorder
	m, _, errb := discoveryMeta(t, &rec)
	var mu sync.Mutex
	var got []string
	m.PrestartPlugin = func(p addrs.Provider, version, exe string) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, fmt.Sprintf("%s %s %s", p, version, exe))
	}
	for _, run := range []string{"without a lock file", "with the lock file"} {
		got = nil
		if code := Plan(m, []string{"-chdir=" + dir, "-no-color", "-plugin-dir=" + plugins}); code != ExitOK {
			t.Fatalf("plan %s: exit %d\n%s", run, code, errb)
		}
		// With the lock file, PrestartLocked asks first, then resolution
		// asks again (providers/plugin ignores a second request while the
		// first is pending).
		wantRun := want
		if run == "with the lock file" {
			wantRun = append(append([]string{}, want...), want...)
		}
		if diff := cmp.Diff(wantRun, got); diff != "" {
			t.Errorf("plan %s: prestarted (-want +got):\n%s", run, diff)
		}
	}
}
