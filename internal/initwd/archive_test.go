package initwd

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/providers/install/registrytest"
)

type entry struct {
	name, body string
	link       bool
}

func makeZip(t testing.TB, entries []entry) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name}
		if e.link {
			h.SetMode(os.ModeSymlink | 0o777)
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(e.body))
	}
	zw.Close()
	return buf.Bytes()
}

func makeTarGz(t testing.TB, entries []entry) []byte {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, e := range entries {
		h := &tar.Header{Name: e.name, Mode: 0o644, Size: int64(len(e.body)), Typeflag: tar.TypeReg}
		if e.link {
			h = &tar.Header{Name: e.name, Linkname: e.body, Typeflag: tar.TypeSymlink}
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if !e.link {
			tw.Write([]byte(e.body))
		}
	}
	tw.Close()
	gz.Close()
	return buf.Bytes()
}

func TestInstallArchiveModules(t *testing.T) {
	good := []entry{{"mod/main.tf", "output \"v\" { value = 1 }\n", false}}
	files := map[string][]byte{
		"/good.zip":         makeZip(t, good),
		"/good.tar.gz":      makeTarGz(t, good),
		"/evil.zip":         makeZip(t, []entry{{"../../evil.tf", "x", false}}),
		"/evil.tar.gz":      makeTarGz(t, []entry{{"mod/../../evil.tf", "x", false}}),
		"/abs.tar.gz":       makeTarGz(t, []entry{{"/etc/evil.tf", "x", false}}),
		"/link.tar.gz":      makeTarGz(t, []entry{{"mod/main.tf", "/etc/passwd", true}}),
		"/link.zip":         makeZip(t, []entry{{"mod/main.tf", "/etc/passwd", true}}),
		"/notanarchive.zip": []byte("plain text"),
	}
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write(b)
	}))
	defer srv.Close()
	// A registry whose download location is a relative archive URL.
	reg := registrytest.New(t)
	reg.Modules = map[string]map[string]string{"acme/m/aws": {"1.0.0": "/archives/m.tar.gz"}}
	reg.Files = map[string][]byte{"/archives/m.tar.gz": makeTarGz(t, good)}
	regRoot := t.TempDir()
	os.WriteFile(filepath.Join(regRoot, "main.tf"), []byte("module \"m\" {\n  source = \""+reg.Host()+"/acme/m/aws//mod\"\n}\n"), 0o644)
	if diags := InstallModules(context.Background(), regRoot, Options{HTTPClient: reg.Client()}); diags.HasErrors() {
		t.Fatalf("relative X-Terraform-Get: %v", diags)
	}
	if _, err := os.Stat(filepath.Join(regRoot, ".terraform/modules/m/mod/main.tf")); err != nil {
		t.Error(err)
	}
	for _, name := range []string{"good.zip", "good.tar.gz"} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			src := srv.URL + "/" + name + "//mod"
			os.WriteFile(filepath.Join(root, "main.tf"), []byte("module \"m\" {\n  source = \""+src+"\"\n}\n"), 0o644)
			if diags := InstallModules(context.Background(), root, Options{HTTPClient: srv.Client()}); diags.HasErrors() {
				t.Fatal(diags)
			}
			cfg, diags := configs.LoadConfigDir(root)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			if d := cfg.Children["m"].Module.SourceDir; d != ".terraform/modules/m/mod" {
				t.Errorf("dir %q", d)
			}
		})
	}
	for _, name := range []string{"evil.zip", "evil.tar.gz", "abs.tar.gz", "link.tar.gz", "link.zip", "notanarchive.zip", "missing.zip"} {
		t.Run(name, func(t *testing.T) {
			base := t.TempDir()
			root := filepath.Join(base, "a", "b")
			os.MkdirAll(root, 0o755)
			os.WriteFile(filepath.Join(root, "main.tf"), []byte("module \"m\" {\n  source = \""+srv.URL+"/"+name+"\"\n}\n"), 0o644)
			diags := InstallModules(context.Background(), root, Options{HTTPClient: srv.Client()})
			if !diags.HasErrors() {
				t.Fatal("accepted")
			}
			if strings.HasPrefix(name, "evil") || strings.HasPrefix(name, "abs") {
				if !strings.Contains(diags.Error(), "outside its root") {
					t.Errorf("diags %v", diags)
				}
			}
			var left []string
			filepath.Walk(base, func(p string, info os.FileInfo, err error) error {
				if err == nil && !info.IsDir() && filepath.Base(p) != "main.tf" {
					left = append(left, p)
				}
				return nil
			})
			if len(left) > 0 {
				t.Errorf("left behind: %q", left)
			}
		})
	}
}
