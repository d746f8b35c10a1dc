package install_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	version "github.com/hashicorp/go-version"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/providers/install"
	"github.com/plankit/plankit/internal/providers/install/registrytest"
)

const plat = "linux_amd64"

type fixture struct {
	srv  *registrytest.Server
	prov addrs.Provider
	zips map[string][]byte
	home string
}

func newFixture(t *testing.T) *fixture {
	srv := registrytest.New(t)
	f := &fixture{srv: srv, prov: addrs.Provider{Hostname: srv.Host(), Namespace: "acme", Type: "foo"}, zips: map[string][]byte{}, home: t.TempDir()}
	for _, v := range []string{"1.0.0", "1.1.0", "2.0.0", "2.1.0-beta1"} {
		f.zips[v] = srv.Add(t, "acme/foo", v, plat, map[string][]byte{"terraform-provider-foo_v" + v: []byte("binary " + v), "LICENSE": []byte("MIT")})
	}
	f.zips["1.1.0 darwin"] = srv.Add(t, "acme/foo", "1.1.0", "darwin_arm64", map[string][]byte{"terraform-provider-foo_v1.1.0": []byte("mac")})
	f.zips["1.2.0"] = srv.Add(t, "acme/foo", "1.2.0", plat, map[string][]byte{"terraform-provider-foo_v1.2.0": []byte("protocol 4")})
	srv.Protocols = map[string][]string{"acme/foo 1.2.0": {"4.0"}}
	srv.Add(t, "acme/maconly", "1.0.0", "darwin_arm64", map[string][]byte{"terraform-provider-maconly_v1.0.0": []byte("mac")})
	return f
}

func (f *fixture) installer(t *testing.T, wd string, env ...string) *install.Installer {
	t.Helper()
	env = append([]string{"HOME=" + f.home}, env...)
	in, diags := install.NewInstaller(install.InstallerOptions{WorkingDir: wd, Env: env, Platform: plat, HTTPClient: f.srv.Client()})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return in
}

func zh(b []byte) string {
	s := sha256.Sum256(b)
	return "zh:" + hex.EncodeToString(s[:])
}

func mustConstraint(t *testing.T, s string) version.Constraints {
	c, err := version.NewConstraint(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// files lists the regular files below dir, relative.
func files(t *testing.T, dir string) []string {
	var out []string
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, path)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	return out
}

func TestInstallFromRegistry(t *testing.T) {
	f := newFixture(t)
	wd := t.TempDir()
	var lines []string
	res, err := f.installer(t, wd).Install(context.Background(), install.Want{Provider: f.prov, Constraints: mustConstraint(t, "~> 1.0")}, func(s string) { lines = append(lines, s) })
	if err != nil {
		t.Fatal(err)
	}
	if res.Version != "1.1.0" {
		t.Errorf("version = %s, want 1.1.0 (newest meeting ~> 1.0)", res.Version)
	}
	dir := filepath.Join(wd, ".terraform", "providers", f.srv.Host(), "acme", "foo", "1.1.0", plat)
	if res.Dir != dir {
		t.Errorf("dir = %s, want %s", res.Dir, dir)
	}
	got := files(t, filepath.Join(wd, ".terraform", "providers"))
	want := []string{f.srv.Host() + "/acme/foo/1.1.0/linux_amd64/LICENSE", f.srv.Host() + "/acme/foo/1.1.0/linux_amd64/terraform-provider-foo_v1.1.0"}
	if !slices.Equal(got, want) {
		t.Errorf("installed files = %q, want %q (no temporary files left)", got, want)
	}
	h1, _ := install.HashDir(dir)
	wantHashes := []string{h1, zh(f.zips["1.1.0"]), zh(f.zips["1.1.0 darwin"])}
	slices.Sort(wantHashes)
	if !slices.Equal(res.Hashes, wantHashes) {
		t.Errorf("hashes = %q, want h1 and the zh: of every platform %q", res.Hashes, wantHashes)
	}
	if want := "self-signed, key ID " + f.srv.Key.PrimaryKey.KeyIdString(); res.Auth != want {
		t.Errorf("auth = %q, want %q", res.Auth, want)
	}
	if want := []string{`Finding ` + f.prov.ForDisplay() + ` versions matching "~> 1.0"...`, "Installing " + f.prov.ForDisplay() + " v1.1.0..."}; !slices.Equal(lines, want) {
		t.Errorf("progress = %q, want %q", lines, want)
	}
	// Again: nothing downloaded.
	before := f.srv.Requests["/files/acme/foo/1.1.0/"+"terraform-provider-foo_1.1.0_linux_amd64.zip"]
	res2, err := f.installer(t, wd).Install(context.Background(), install.Want{Provider: f.prov, Locked: "1.1.0", LockedHashes: res.Hashes}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res2.Reused != "previously-installed" || f.srv.Requests["/files/acme/foo/1.1.0/terraform-provider-foo_1.1.0_linux_amd64.zip"] != before {
		t.Errorf("second install reused %q and downloaded again: want previously-installed", res2.Reused)
	}
	if !slices.Equal(res2.Hashes, res.Hashes) {
		t.Errorf("second install hashes %q, want the locked %q", res2.Hashes, res.Hashes)
	}
}

func TestInstallVersionSelection(t *testing.T) {
	f := newFixture(t)
	tests := []struct {
		name        string
		constraints string
		locked      string
		upgrade     bool
		want        string
	}{
		{"newest release, no prerelease", "", "", false, "2.0.0"},
		{"constraint", ">= 1.0, < 2.0", "", false, "1.1.0"},
		{"exact prerelease", "2.1.0-beta1", "", false, "2.1.0-beta1"},
		{"lock pins", "", "1.0.0", false, "1.0.0"},
		{"protocol 4 releases skipped", "~> 1.1", "", false, "1.1.0"},
		{"upgrade ignores the lock", "", "1.0.0", true, "2.0.0"},
		{"upgrade within constraints", "~> 1.0", "1.0.0", true, "1.1.0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := install.Want{Provider: f.prov, Locked: tc.locked, Upgrade: tc.upgrade, LockFile: ".terraform.lock.hcl"}
			if tc.constraints != "" {
				w.Constraints = mustConstraint(t, tc.constraints)
			}
			res, err := f.installer(t, t.TempDir()).Install(context.Background(), w, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Version != tc.want {
				t.Errorf("version = %s, want %s", res.Version, tc.want)
			}
		})
	}
}

func TestInstallPluginCache(t *testing.T) {
	f := newFixture(t)
	cache := t.TempDir()
	res, err := f.installer(t, t.TempDir(), "TF_PLUGIN_CACHE_DIR="+cache).Install(context.Background(), install.Want{Provider: f.prov}, nil)
	if err != nil {
		t.Fatal(err)
	}
	cached := filepath.Join(cache, f.srv.Host(), "acme", "foo", "2.0.0", plat)
	if err := install.VerifyPackage(cached, res.Hashes[0]); err != nil && !strings.HasPrefix(res.Hashes[0], "h1:") {
		t.Fatal(err)
	}
	h1, err := install.HashDir(cached)
	if err != nil || !slices.Contains(res.Hashes, h1) {
		t.Fatalf("cache not filled with the package: %v %s", err, h1)
	}
	f.srv.Requests = map[string]int{}
	var lines []string
	wd2 := t.TempDir()
	res2, err := f.installer(t, wd2, "TF_PLUGIN_CACHE_DIR="+cache).Install(context.Background(), install.Want{Provider: f.prov, Locked: "2.0.0", LockedHashes: res.Hashes}, func(s string) { lines = append(lines, s) })
	if err != nil {
		t.Fatal(err)
	}
	if res2.Reused != "cache" {
		t.Errorf("reused = %q, want cache (lines %q)", res2.Reused, lines)
	}
	for p := range f.srv.Requests {
		if strings.HasPrefix(p, "/files/") {
			t.Errorf("downloaded %s although the cache has the package", p)
		}
	}
	if _, err := os.Stat(filepath.Join(wd2, ".terraform/providers", f.srv.Host(), "acme/foo/2.0.0", plat, "terraform-provider-foo_v2.0.0")); err != nil {
		t.Error(err)
	}
}

func TestInstallNetworkMirrorAndFilesystemMirror(t *testing.T) {
	f := newFixture(t)
	cfgDir := t.TempDir()
	mirrorDir := t.TempDir()
	// A filesystem mirror serving only acme/bar, packed.
	bar := addrs.Provider{Hostname: f.srv.Host(), Namespace: "acme", Type: "bar"}
	barDir := filepath.Join(mirrorDir, bar.Hostname, "acme", "bar", "3.0.0", plat)
	os.MkdirAll(barDir, 0o755)
	os.WriteFile(filepath.Join(barDir, "terraform-provider-bar_v3.0.0"), []byte("bar"), 0o755)
	cfg := filepath.Join(cfgDir, "terraformrc")
	os.WriteFile(cfg, []byte(`provider_installation {
  filesystem_mirror {
    path    = "`+mirrorDir+`"
    include = ["*/acme/bar"]
  }
  network_mirror {
    url     = "`+f.srv.MirrorURL()+`"
    exclude = ["*/acme/bar"]
  }
}
`), 0o644)
	in := f.installer(t, t.TempDir(), "TF_CLI_CONFIG_FILE="+cfg)
	res, err := in.Install(context.Background(), install.Want{Provider: f.prov, Constraints: mustConstraint(t, "1.0.0")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Auth != "verified checksum" || res.Version != "1.0.0" {
		t.Errorf("got %s %q, want 1.0.0 from the mirror", res.Version, res.Auth)
	}
	if !slices.Contains(res.Hashes, zh(f.zips["1.0.0"])) {
		t.Errorf("hashes %q lack the mirror's zh:", res.Hashes)
	}
	for p := range f.srv.Requests {
		if strings.HasPrefix(p, "/v1/") {
			t.Errorf("asked the registry (%s) although the CLI configuration lists only mirrors", p)
		}
	}
	res, err = in.Install(context.Background(), install.Want{Provider: bar}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Version != "3.0.0" {
		t.Errorf("bar version = %s", res.Version)
	}
}

func TestInstallFailures(t *testing.T) {
	f := newFixture(t)
	h1Other := "h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
	tests := []struct {
		name     string
		want     install.Want
		tamper   string
		prepare  func(*fixture)
		kind     install.Kind
		contains string
	}{
		{"unknown provider", install.Want{Provider: addrs.Provider{Hostname: f.srv.Host(), Namespace: "acme", Type: "nope"}}, "", nil, install.NotFound, "was not found"},
		{"no matching version", install.Want{Provider: f.prov, Constraints: mustConstraint(t, ">= 5.0")}, "", nil, install.NoMatchingVersion, "no available releases match"},
		{"no package for this platform", install.Want{Provider: addrs.Provider{Hostname: f.srv.Host(), Namespace: "acme", Type: "maconly"}}, "", nil, install.NoPlatform, "linux_amd64"},
		{"checksum mismatch", install.Want{Provider: f.prov}, "zip", nil, install.AuthFailed, "checksum mismatch"},
		{"bad signature", install.Want{Provider: f.prov}, "sig", nil, install.AuthFailed, "not signed by a key"},
		{"unknown signing key", install.Want{Provider: f.prov}, "unknown-key", nil, install.AuthFailed, "not signed by a key"},
		{"checksums do not list the file", install.Want{Provider: f.prov}, "sums", nil, install.AuthFailed, "do not list"},
		{"lock hash mismatch", install.Want{Provider: f.prov, Locked: "1.0.0", LockedHashes: []string{h1Other}}, "", nil, install.HashMismatch, "does not match the lock file"},
		{"locked version withdrawn", install.Want{Provider: f.prov, Locked: "0.9.0"}, "", nil, install.LockedVersionMissing, "no installation source offers that version"},
		{"unreachable registry", install.Want{Provider: addrs.Provider{Hostname: "127.0.0.1:1", Namespace: "acme", Type: "foo"}}, "", nil, install.Unreachable, "Could not retrieve"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f.srv.SetTamper(tc.tamper)
			defer f.srv.SetTamper("")
			wd := t.TempDir()
			cache := t.TempDir()
			_, err := f.installer(t, wd, "TF_PLUGIN_CACHE_DIR="+cache).Install(context.Background(), tc.want, nil)
			var ie *install.Error
			if !errors.As(err, &ie) {
				t.Fatalf("error %v (%T), want an *install.Error", err, err)
			}
			if ie.Kind != tc.kind || !strings.Contains(ie.Error(), tc.contains) {
				t.Errorf("error kind %d %q, want kind %d containing %q", ie.Kind, ie.Error(), tc.kind, tc.contains)
			}
			if got := files(t, wd); len(got) > 0 {
				t.Errorf("files left in the working directory: %q", got)
			}
			if got := files(t, cache); len(got) > 0 {
				t.Errorf("files left in the cache: %q", got)
			}
		})
	}
}

func TestParseMethods(t *testing.T) {
	ms, diags := install.ParseMethods([]byte(`provider_installation {
  network_mirror {
    url = "https://mirror.example.com/providers"
    include = ["example.com/*/*"]
  }
  direct {
    exclude = ["example.com/*/*"]
  }
}`), "rc", nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if len(ms) != 2 || ms[0].Kind != install.NetworkMirror || ms[0].URL != "https://mirror.example.com/providers/" || ms[1].Kind != install.Direct {
		t.Fatalf("methods = %+v", ms)
	}
	p := addrs.Provider{Hostname: "example.com", Namespace: "a", Type: "b"}
	if !ms[0].Serves(p) || ms[1].Serves(p) || ms[0].Serves(addrs.NewDefaultProvider("aws")) {
		t.Error("include/exclude not applied")
	}
	for _, bad := range []string{
		`provider_installation { network_mirror { url = "http://insecure/" } }`,
		`provider_installation { network_mirror {} }`,
		`provider_installation { direct { path = "/x" } }`,
		`provider_installation { direct { include = "x" } }`,
	} {
		if _, diags := install.ParseMethods([]byte(bad), "rc", nil); !diags.HasErrors() {
			t.Errorf("%s: no error", bad)
		}
	}
}

// TestInstallAuthOfLocalPackages: a package from a plugin directory is
// reported as what vouched for it, never as an empty "()": the lock
// file's hashes ("verified checksum", as OpenTofu says) or nothing
// ("unauthenticated").
func TestInstallAuthOfLocalPackages(t *testing.T) {
	f := newFixture(t)
	mirror := t.TempDir()
	bar := addrs.Provider{Hostname: f.srv.Host(), Namespace: "acme", Type: "bar"}
	barDir := filepath.Join(mirror, bar.Hostname, "acme", "bar", "3.0.0", plat)
	if err := os.MkdirAll(barDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(barDir, "terraform-provider-bar_v3.0.0"), []byte("bar"), 0o755); err != nil {
		t.Fatal(err)
	}
	h1, err := install.HashDir(barDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		want install.Want
		auth string
	}{
		{"no lock entry", install.Want{Provider: bar}, "unauthenticated"},
		{"locked with its hash", install.Want{Provider: bar, Locked: "3.0.0", LockedHashes: []string{h1}, LockFile: "the plan's lock file"}, "verified checksum"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in, diags := install.NewInstaller(install.InstallerOptions{WorkingDir: t.TempDir(), Env: []string{"HOME=" + f.home}, Platform: plat, PluginDirs: []string{mirror}, HTTPClient: f.srv.Client()})
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			res, err := in.Install(context.Background(), tc.want, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Reused != "" || res.Auth != tc.auth {
				t.Errorf("auth = %q (reused %q), want %q", res.Auth, res.Reused, tc.auth)
			}
		})
	}
}
