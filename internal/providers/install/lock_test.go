package install

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plankit/plankit/addrs"
)

func errKind(t *testing.T, err error) *Error {
	t.Helper()
	var ierr *Error
	if !errors.As(err, &ierr) {
		t.Fatalf("error %v (%T) is not an *install.Error", err, err)
	}
	return ierr
}

func TestFindChecksLockedHashes(t *testing.T) {
	dir := t.TempDir()
	pkgDir := writeUnpacked(t, dir, provFoo, "1.0.0", testPlatform, "good")
	good, err := HashDir(pkgDir)
	if err != nil {
		t.Fatal(err)
	}
	zipDir := t.TempDir()
	zipPath := writePacked(t, zipDir, provFoo, "1.0.0", testPlatform, map[string]string{"terraform-provider-foo_v1.0.0": "good"})
	zh, _ := HashZipFile(zipPath)

	tests := []struct {
		name    string
		dir     string
		hashes  []string
		wantErr bool
	}{
		{"unpacked, h1 matches", dir, []string{"zh:0000", good}, false},
		{"unpacked, no hashes recorded", dir, nil, false},
		{"unpacked, only zh recorded", dir, []string{zh}, true},
		{"unpacked, other h1", dir, []string{"h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="}, true},
		{"packed, zh matches", zipDir, []string{zh}, false},
		{"packed, h1 matches", zipDir, []string{good}, false},
		{"packed, none matches", zipDir, []string{"zh:1111", "h1:AAAA"}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newTestFinder(t, []string{tc.dir}, "", nil)
			sel, err := f.Find(Requirement{Provider: provFoo, Locked: "1.0.0", LockedHashes: tc.hashes, LockFile: ".terraform.lock.hcl"})
			if !tc.wantErr {
				if err != nil {
					t.Fatal(err)
				}
				if sel.Hashes[0] != good {
					t.Errorf("h1 = %s, want %s", sel.Hashes[0], good)
				}
				return
			}
			e := errKind(t, err)
			if e.Kind != HashMismatch {
				t.Fatalf("kind %d, want HashMismatch: %v", e.Kind, err)
			}
			for _, want := range []string{"acme/foo 1.0.0", good, "remove the block provider \"registry.terraform.io/acme/foo\" from .terraform.lock.hcl", "terraform init"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("message lacks %q:\n%s", want, err)
				}
			}
			if sel != nil {
				t.Errorf("a refused package was selected: %+v", sel)
			}
		})
	}
}

func TestFindLockedVersion(t *testing.T) {
	dir := t.TempDir()
	writeUnpacked(t, dir, provFoo, "1.0.0", testPlatform, "one")
	writeUnpacked(t, dir, provFoo, "1.2.0", testPlatform, "two")
	f := newTestFinder(t, []string{dir}, "", nil)
	sel, err := f.Find(Requirement{Provider: provFoo, Constraints: constraints(t, ">= 1.0"), Locked: "1.0.0", LockFile: "x.lock.hcl"})
	if err != nil {
		t.Fatal(err)
	}
	if sel.Version != "1.0.0" {
		t.Errorf("selected %s; the lock file pins 1.0.0", sel.Version)
	}
	_, err = f.Find(Requirement{Provider: provFoo, Locked: "1.1.0", LockFile: "x.lock.hcl"})
	e := errKind(t, err)
	if e.Kind != LockedVersionMissing {
		t.Fatalf("kind %d: %v", e.Kind, err)
	}
	for _, want := range []string{"locked to 1.1.0 in x.lock.hcl", "1.2.0 (linux_amd64, unpacked)", "1.0.0 (linux_amd64, unpacked)"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message lacks %q:\n%s", want, err)
		}
	}
}

func TestFindNotFoundListsEverySource(t *testing.T) {
	home := t.TempDir()
	plugin := t.TempDir()
	writeUnpacked(t, plugin, provFoo, "1.0.0", "darwin_arm64", "mac")
	writeUnpacked(t, plugin, provFoo, "0.9.0", testPlatform, "old")
	wd := t.TempDir()
	f := newTestFinder(t, []string{plugin}, wd, []string{"HOME=" + home, "TF_PLUGIN_CACHE_DIR=/nonexistent/cache"})
	_, err := f.Find(Requirement{Provider: provFoo, Constraints: constraints(t, "~> 1.0")})
	e := errKind(t, err)
	if e.Kind != NoMatchingVersion {
		t.Fatalf("kind %d: %v", e.Kind, err)
	}
	for _, want := range []string{
		"registry.terraform.io/acme/foo (~> 1.0)",
		"-plugin-dir " + plugin + ": 0.9.0 (linux_amd64, unpacked); 1.0.0 (only for darwin_arm64, not linux_amd64)",
		".terraform/providers " + filepath.Join(wd, ".terraform", "providers") + ": nothing",
		"implied local mirror " + filepath.Join(home, ".terraform.d", "plugins") + ": nothing",
		"TF_PLUGIN_CACHE_DIR /nonexistent/cache: nothing",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message lacks %q:\n%s", want, err)
		}
	}
	// Nothing anywhere: NotFound; what to do is the command's to say.
	other := addrs.Provider{Hostname: "example.com", Namespace: "x", Type: "bar"}
	_, err = f.Find(Requirement{Provider: other})
	if e := errKind(t, err); e.Kind != NotFound || !strings.Contains(err.Error(), "example.com/x/bar (any version)") || strings.Contains(err.Error(), " init") {
		t.Errorf("got %v", err)
	}
}

func TestFindBuiltins(t *testing.T) {
	f := newTestFinder(t, nil, "", nil)
	sel, err := f.Find(Requirement{Provider: provNull, Constraints: constraints(t, "~> 3.2")})
	if err != nil || !sel.BuiltIn || sel.Version != "3.2.4" {
		t.Fatalf("got %+v, %v; want the built-in null 3.2.4", sel, err)
	}
	_, err = f.Find(Requirement{Provider: provNull, Constraints: constraints(t, "~> 3.6")})
	if e := errKind(t, err); e.Kind != BuiltinVersion || !strings.Contains(err.Error(), "~> 3.6") || !strings.Contains(err.Error(), "version 3.2.4") {
		t.Errorf("got %v; want an error naming ~> 3.6 and 3.2.4", err)
	}
	// A lock entry of the built-in's version is served by it when no
	// plugin is installed; one of another version is never served by it
	// (issue 26): that package must be installed.
	sel, err = f.Find(Requirement{Provider: provNull, Locked: "3.2.4", LockedHashes: []string{"h1:x"}})
	if err != nil || !sel.BuiltIn {
		t.Errorf("got %+v, %v; want the built-in", sel, err)
	}
	_, err = f.Find(Requirement{Provider: provNull, Locked: "3.2.3", LockedHashes: []string{"h1:x"}, LockFile: ".terraform.lock.hcl"})
	if e := errKind(t, err); e.Kind != LockedVersionMissing || !strings.Contains(err.Error(), "locks hashicorp/null at 3.2.3") || !strings.Contains(err.Error(), "compatible with 3.2.4, not 3.2.3") {
		t.Errorf("got %v; want the locked version missing, naming 3.2.3 and 3.2.4", err)
	}
	// An installed plugin wins over the built-in; one that does not meet
	// the constraints is an error, not a silent fall-back.
	dir := t.TempDir()
	writeUnpacked(t, dir, provNull, "3.1.0", testPlatform, "null")
	f = newTestFinder(t, []string{dir}, "", nil)
	sel, err = f.Find(Requirement{Provider: provNull})
	if err != nil || sel.BuiltIn || sel.Version != "3.1.0" {
		t.Errorf("got %+v, %v; want the plugin 3.1.0", sel, err)
	}
	if _, err := f.Find(Requirement{Provider: provNull, Constraints: constraints(t, ">= 3.2")}); errKind(t, err).Kind != NoMatchingVersion {
		t.Errorf("got %v", err)
	}
}

func TestUnpackRefusesUnsafeArchives(t *testing.T) {
	for name, files := range map[string]map[string]string{
		"escaping path": {"../evil": "x", "terraform-provider-foo_v1.0.0": "ok"},
		"absolute path": {"/tmp/evil": "x"},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writePacked(t, dir, provFoo, "1.0.0", testPlatform, files)
			f := newTestFinder(t, []string{dir}, "", nil)
			_, err := f.Find(Requirement{Provider: provFoo})
			if e := errKind(t, err); e.Kind != BadPackage {
				t.Fatalf("got %v", err)
			}
			entries, _ := os.ReadDir(f.CacheDir)
			if len(entries) != 0 {
				t.Errorf("the cache holds %v after a refused archive; want nothing", entries)
			}
		})
	}
}

func TestUnpackReusesAndRepairsCache(t *testing.T) {
	dir := t.TempDir()
	writePacked(t, dir, provFoo, "1.0.0", testPlatform, map[string]string{"terraform-provider-foo_v1.0.0": "v1"})
	f := newTestFinder(t, []string{dir}, "", nil)
	sel, err := f.Find(Requirement{Provider: provFoo})
	if err != nil {
		t.Fatal(err)
	}
	// Tamper with the unpacked copy: the next Find replaces it.
	if err := os.WriteFile(sel.Executable, []byte("tampered"), 0o755); err != nil {
		t.Fatal(err)
	}
	sel2, err := f.Find(Requirement{Provider: provFoo})
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(sel2.Executable); string(b) != "v1" || sel2.Dir != sel.Dir {
		t.Errorf("executable %s has %q, want the archive's content in %s", sel2.Executable, b, sel.Dir)
	}
}

func TestParsePattern(t *testing.T) {
	for in, want := range map[string]string{
		"hashicorp/*":               "registry.terraform.io/hashicorp/*",
		"example.com/*/*":           "example.com/*/*",
		"Registry.OpenTofu.org/A/B": "registry.opentofu.org/a/b",
	} {
		p, err := ParsePattern(in)
		if err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		if got := p.Host + "/" + p.Namespace + "/" + p.Type; got != want {
			t.Errorf("%s: got %s, want %s", in, got, want)
		}
	}
	for _, bad := range []string{"foo", "a//b", "a/b/c/d"} {
		if _, err := ParsePattern(bad); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}
