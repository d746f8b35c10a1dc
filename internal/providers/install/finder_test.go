package install

import (
	"archive/zip"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	version "github.com/hashicorp/go-version"

	"github.com/plankit/plankit/addrs"
)

const testPlatform = "linux_amd64"

var (
	provFoo  = addrs.Provider{Hostname: "registry.terraform.io", Namespace: "acme", Type: "foo"}
	provNull = addrs.NewDefaultProvider("null")
)

// writeUnpacked creates HOST/NS/TYPE/VERSION/PLATFORM/terraform-provider-TYPE_vVERSION
// below root with the given content and returns the package directory.
func writeUnpacked(t *testing.T, root string, p addrs.Provider, v, platform, content string) string {
	t.Helper()
	dir := filepath.Join(root, p.Hostname, p.Namespace, p.Type, v, platform)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "terraform-provider-"+p.Type+"_v"+v), []byte(content), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// writePacked creates HOST/NS/TYPE/terraform-provider-TYPE_VERSION_PLATFORM.zip
// holding the given files and returns its path.
func writePacked(t *testing.T, root string, p addrs.Provider, v, platform string, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(root, p.Hostname, p.Namespace, p.Type)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, fmt.Sprintf("terraform-provider-%s_%s_%s.zip", p.Type, v, platform))
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		h := &zip.FileHeader{Name: n, Method: zip.Deflate}
		h.SetMode(0o755)
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(files[n])); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// independentH1 computes the h1: hash from its definition (the Go module
// dirhash, version 1): SHA-256 over the lines "HEX(SHA-256(file))  NAME\n"
// sorted by name, base64-encoded. It shares no code with HashDir.
func independentH1(files map[string]string) string {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	var sum strings.Builder
	for _, n := range names {
		h := sha256.Sum256([]byte(files[n]))
		fmt.Fprintf(&sum, "%s  %s\n", hex.EncodeToString(h[:]), n)
	}
	all := sha256.Sum256([]byte(sum.String()))
	return "h1:" + base64.StdEncoding.EncodeToString(all[:])
}

func newTestFinder(t *testing.T, pluginDirs []string, wd string, env []string) *Finder {
	t.Helper()
	if wd == "" {
		wd = t.TempDir()
	}
	if env == nil {
		env = []string{"HOME=" + t.TempDir()}
	}
	f, diags := NewFinder(Options{
		PluginDirs: pluginDirs, WorkingDir: wd, Env: env, Platform: testPlatform,
		CacheDir: filepath.Join(t.TempDir(), "cache"),
		Builtins: map[addrs.Provider]string{provNull: "3.2.4", addrs.NewBuiltInProvider("terraform"): ""},
	})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return f
}

func constraints(t *testing.T, s string) version.Constraints {
	t.Helper()
	if s == "" {
		return nil
	}
	c, err := version.NewConstraint(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestHashDirMatchesDefinition(t *testing.T) {
	files := map[string]string{
		"terraform-provider-foo_v1.2.3": "#!/bin/sh\necho provider\n",
		"LICENSE":                       "MIT\n",
		"docs/README.md":                "# foo\n",
	}
	dir := t.TempDir()
	for n, c := range files {
		p := filepath.Join(dir, filepath.FromSlash(n))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := HashDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := independentH1(files); got != want {
		t.Errorf("HashDir = %s, want %s", got, want)
	}
	// A symlink to the package (as terraform init leaves one when the
	// plugin cache is on) hashes as its target.
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	if viaLink, err := HashDir(link); err != nil || viaLink != got {
		t.Errorf("HashDir(symlink) = %s, %v; want %s", viaLink, err, got)
	}
	// A pinned value: a change in the algorithm breaks every lock file.
	one := t.TempDir()
	if err := os.WriteFile(filepath.Join(one, "terraform-provider-x_v1.0.0"), []byte("hello\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	pinned, _ := HashDir(one)
	if want := "h1:" + pinnedOne(); pinned != want {
		t.Errorf("HashDir(one file) = %s, want %s", pinned, want)
	}
}

// pinnedOne is the h1: value of a directory holding only
// terraform-provider-x_v1.0.0 = "hello\n", computed with sha256sum and
// base64 from the shell:
//
//	printf '%s  %s\n' $(printf 'hello\n' | sha256sum | cut -c1-64) terraform-provider-x_v1.0.0 | sha256sum | cut -c1-64 | xxd -r -p | base64
func pinnedOne() string { return "TH2UijXm21NIPW4/f5wiuw73s8o6ut6DIWdH/wElwqY=" }

func TestZipHashes(t *testing.T) {
	files := map[string]string{"terraform-provider-foo_v1.0.0": "binary\x00data"}
	zipPath := writePacked(t, t.TempDir(), provFoo, "1.0.0", testPlatform, files)
	raw, err := os.ReadFile(zipPath)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(raw)
	zh, err := HashZipFile(zipPath)
	if err != nil {
		t.Fatal(err)
	}
	if want := "zh:" + hex.EncodeToString(sum[:]); zh != want {
		t.Errorf("HashZipFile = %s, want %s", zh, want)
	}
	h1, err := HashZip(zipPath)
	if err != nil {
		t.Fatal(err)
	}
	if want := independentH1(files); h1 != want {
		t.Errorf("HashZip = %s, want %s (the h1: of the unpacked directory)", h1, want)
	}
}

func TestFindLayoutsAndPrecedence(t *testing.T) {
	pluginA, pluginB := t.TempDir(), t.TempDir()
	wd := t.TempDir()
	writeUnpacked(t, filepath.Join(wd, ".terraform", "providers"), provFoo, "2.0.0", testPlatform, "wd")
	writeUnpacked(t, pluginA, provFoo, "1.0.0", testPlatform, "a1")
	writeUnpacked(t, pluginA, provFoo, "1.1.0", testPlatform, "a11")
	writeUnpacked(t, pluginA, provFoo, "9.0.0", "darwin_arm64", "other")
	writePacked(t, pluginB, provFoo, "1.5.0", testPlatform, map[string]string{"terraform-provider-foo_v1.5.0": "b15"})

	tests := []struct {
		name        string
		dirs        []string
		constraints string
		wantVersion string
		wantOrigin  string
		wantContent string
	}{
		{"plugin dir first, newest in it", []string{pluginA, pluginB}, "", "1.1.0", "-plugin-dir", "a11"},
		{"constraints pick an older one", []string{pluginA, pluginB}, "< 1.1", "1.0.0", "-plugin-dir", "a1"},
		{"later plugin dir when the first has none matching", []string{pluginA, pluginB}, ">= 1.2, < 2", "1.5.0", "-plugin-dir", "b15"},
		{"packed layout", []string{pluginB}, "", "1.5.0", "-plugin-dir", "b15"},
		{".terraform/providers after plugin dirs", []string{pluginA}, ">= 2", "2.0.0", ".terraform/providers", "wd"},
		{".terraform/providers alone", nil, "", "2.0.0", ".terraform/providers", "wd"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newTestFinder(t, tc.dirs, wd, nil)
			sel, err := f.Find(Requirement{Provider: provFoo, Constraints: constraints(t, tc.constraints)})
			if err != nil {
				t.Fatal(err)
			}
			got := []string{sel.Version, sel.Package.Source.Origin}
			if diff := cmp.Diff([]string{tc.wantVersion, tc.wantOrigin}, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
			content, err := os.ReadFile(sel.Executable)
			if err != nil {
				t.Fatal(err)
			}
			if string(content) != tc.wantContent {
				t.Errorf("executable %s has %q, want %q", sel.Executable, content, tc.wantContent)
			}
			if st, _ := os.Stat(sel.Executable); st.Mode().Perm()&0o100 == 0 {
				t.Errorf("executable %s is not executable: %s", sel.Executable, st.Mode())
			}
		})
	}
}

func TestFindCLIConfig(t *testing.T) {
	home := t.TempDir()
	mirrorAll, mirrorAcme, cache, envCache := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	writeUnpacked(t, mirrorAll, provFoo, "1.0.0", testPlatform, "all")
	writeUnpacked(t, mirrorAcme, provFoo, "1.1.0", testPlatform, "acme")
	writeUnpacked(t, cache, provFoo, "3.0.0", testPlatform, "cache")
	writeUnpacked(t, envCache, provFoo, "4.0.0", testPlatform, "envcache")
	rc := filepath.Join(home, ".terraformrc")
	src := fmt.Sprintf(`
plugin_cache_dir = "$HOME/cache"
disable_checkpoint = true
provider_installation {
  filesystem_mirror {
    path    = %q
    include = ["example.com/*/*"]
  }
  filesystem_mirror {
    path    = %q
    exclude = ["acme/*"]
  }
  filesystem_mirror {
    path    = %q
    include = ["registry.terraform.io/acme/foo"]
  }
  direct {
    exclude = ["acme/*"]
  }
}
`, mirrorAll, mirrorAll, mirrorAcme)
	if err := os.WriteFile(rc, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(cache, filepath.Join(home, "cache")); err != nil {
		t.Fatal(err)
	}

	find := func(env []string, c string) (*Selection, error) {
		f := newTestFinder(t, nil, "", env)
		return f.Find(Requirement{Provider: provFoo, Constraints: constraints(t, c)})
	}
	sel, err := find([]string{"HOME=" + home}, "")
	if err != nil {
		t.Fatal(err)
	}
	if sel.Version != "1.1.0" || !strings.Contains(sel.Package.Source.Origin, "filesystem_mirror in "+rc) {
		t.Errorf("got %s from %s; want 1.1.0 from the third mirror (the first two do not serve acme/foo)", sel.Version, sel.Where())
	}
	sel, err = find([]string{"HOME=" + home}, ">= 3")
	if err != nil {
		t.Fatal(err)
	}
	if sel.Version != "3.0.0" || sel.Package.Source.Kind != PluginCache {
		t.Errorf("got %s from %s; want 3.0.0 from plugin_cache_dir", sel.Version, sel.Where())
	}
	// TF_PLUGIN_CACHE_DIR replaces plugin_cache_dir.
	sel, err = find([]string{"HOME=" + home, "TF_PLUGIN_CACHE_DIR=" + envCache}, ">= 3")
	if err != nil {
		t.Fatal(err)
	}
	if sel.Version != "4.0.0" || sel.Package.Source.Origin != "TF_PLUGIN_CACHE_DIR" {
		t.Errorf("got %s from %s; want 4.0.0 from TF_PLUGIN_CACHE_DIR", sel.Version, sel.Where())
	}
	// TF_CLI_CONFIG_FILE replaces ~/.terraformrc; without a
	// provider_installation block ~/.terraform.d/plugins is searched.
	other := filepath.Join(t.TempDir(), "cli.tfrc")
	if err := os.WriteFile(other, []byte("disable_checkpoint = true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	writeUnpacked(t, filepath.Join(home, ".terraform.d", "plugins"), provFoo, "0.5.0", testPlatform, "implied")
	sel, err = find([]string{"HOME=" + home, "TF_CLI_CONFIG_FILE=" + other}, "")
	if err != nil {
		t.Fatal(err)
	}
	if sel.Version != "0.5.0" || sel.Package.Source.Origin != "implied local mirror" {
		t.Errorf("got %s from %s; want 0.5.0 from ~/.terraform.d/plugins", sel.Version, sel.Where())
	}
}

func TestFindDataDirAndConfigErrors(t *testing.T) {
	wd := t.TempDir()
	writeUnpacked(t, filepath.Join(wd, "custom-data", "providers"), provFoo, "1.3.0", testPlatform, "data")
	f := newTestFinder(t, nil, wd, []string{"HOME=" + t.TempDir(), "TF_DATA_DIR=custom-data"})
	sel, err := f.Find(Requirement{Provider: provFoo})
	if err != nil || sel.Version != "1.3.0" || sel.Package.Source.Origin != "TF_DATA_DIR providers" {
		t.Fatalf("got %+v, %v; want 1.3.0 from $TF_DATA_DIR/providers", sel, err)
	}

	rc := filepath.Join(t.TempDir(), "bad.tfrc")
	if err := os.WriteFile(rc, []byte("provider_installation {\n  filesystem_mirror {\n    path    = \"/m\"\n    include = [\"toomany/a/b/c\"]\n  }\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, diags := NewFinder(Options{Env: []string{"TF_CLI_CONFIG_FILE=" + rc}})
	if !diags.HasErrors() || !strings.Contains(diags.Error(), rc+":4") || !strings.Contains(diags.Error(), "toomany/a/b/c") {
		t.Errorf("got %v; want an error at %s:4 naming the pattern", diags, rc)
	}
}
