// Package plugintest builds the test providers of the testdata/providers
// module (terraform-provider-fwtest on terraform-plugin-framework, protocol
// 6; terraform-provider-sdktest on terraform-plugin-sdk/v2, protocol 5;
// terraform-provider-rawtest on terraform-plugin-go alone, protocol 6) for
// tests that drive real provider binaries over the real protocol.
//
// Binaries are built once per test process and cached across packages and
// processes under os.TempDir()/plankit-plugintest/KEY, where KEY hashes the
// module's sources, the Go version and the target platform; a cache
// directory is only ever created complete (built beside it, then renamed),
// so concurrent test processes never see half-written binaries.
package plugintest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
)

// Binary names and provider addresses of the test providers.
const (
	FWName     = "terraform-provider-fwtest"
	SDKName    = "terraform-provider-sdktest"
	RawName    = "terraform-provider-rawtest"
	FWAddress  = "registry.terraform.io/plankit/fwtest"
	SDKAddress = "registry.terraform.io/plankit/sdktest"
	RawAddress = "registry.terraform.io/plankit/rawtest"
)

// Binaries are the absolute paths of the built test providers.
type Binaries struct {
	// FW is terraform-provider-fwtest (framework, protocol 6 only).
	FW string
	// SDK is terraform-provider-sdktest (SDK v2, protocol 5 only).
	SDK string
	// Raw is terraform-provider-rawtest (terraform-plugin-go alone,
	// protocol 6 only; for benchmarks).
	Raw string
}

var (
	once     sync.Once
	built    Binaries
	buildErr error
)

// Build returns the test provider binaries, building them if no cached
// build of the current sources exists. A failed build fails the test: the
// providers are part of the test suite, never optional.
func Build(t testing.TB) Binaries {
	t.Helper()
	once.Do(func() { built, buildErr = build() })
	if buildErr != nil {
		t.Fatalf("building the test providers: %v", buildErr)
	}
	return built
}

// ModuleDir returns the directory of the testdata/providers module.
func ModuleDir() (string, error) {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", errors.New("cannot locate the plugintest source file")
	}
	// file is .../internal/providers/plugin/plugintest/plugintest.go
	root := filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(file)))))
	dir := filepath.Join(root, "testdata", "providers")
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		return "", fmt.Errorf("test provider module not found: %w", err)
	}
	return dir, nil
}

func build() (Binaries, error) {
	mod, err := ModuleDir()
	if err != nil {
		return Binaries{}, err
	}
	goBin := goCommand()
	key, err := sourceKey(mod)
	if err != nil {
		return Binaries{}, err
	}
	cacheRoot := filepath.Join(os.TempDir(), "plankit-plugintest")
	final := filepath.Join(cacheRoot, key)
	bins := Binaries{
		FW:  filepath.Join(final, FWName+exeSuffix()),
		SDK: filepath.Join(final, SDKName+exeSuffix()),
		Raw: filepath.Join(final, RawName+exeSuffix()),
	}
	if complete(bins) {
		return bins, nil
	}
	if err := os.MkdirAll(cacheRoot, 0o755); err != nil {
		return Binaries{}, err
	}
	tmp, err := os.MkdirTemp(cacheRoot, key+".tmp-")
	if err != nil {
		return Binaries{}, err
	}
	defer os.RemoveAll(tmp)
	for name, pkg := range map[string]string{FWName: "./fwtest", SDKName: "./sdktest", RawName: "./rawtest"} {
		cmd := exec.Command(goBin, "build", "-trimpath", "-o", filepath.Join(tmp, name+exeSuffix()), pkg)
		cmd.Dir = mod
		cmd.Env = append(os.Environ(), "GOWORK=off", "CGO_ENABLED=0", "GOFLAGS=-buildvcs=false")
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			return Binaries{}, fmt.Errorf("go build %s in %s: %v\n%s", pkg, mod, err, out.String())
		}
	}
	if err := os.Rename(tmp, final); err != nil {
		// Another process may have finished the same build first.
		if complete(bins) {
			return bins, nil
		}
		return Binaries{}, err
	}
	return bins, nil
}

func complete(b Binaries) bool {
	for _, p := range []string{b.FW, b.SDK, b.Raw} {
		if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() {
			return false
		}
	}
	return true
}

// goCommand returns the go command of the toolchain running the test, so
// the cache key's Go version is the one that builds.
func goCommand() string {
	p := filepath.Join(runtime.GOROOT(), "bin", "go"+exeSuffix())
	if _, err := os.Stat(p); err == nil {
		return p
	}
	return "go"
}

func exeSuffix() string {
	if runtime.GOOS == "windows" {
		return ".exe"
	}
	return ""
}

// sourceKey hashes every source file of the module (path and content), the
// Go version and the platform.
func sourceKey(mod string) (string, error) {
	var files []string
	err := filepath.WalkDir(mod, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		if n := d.Name(); strings.HasSuffix(n, ".go") || n == "go.mod" || n == "go.sum" {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	sort.Strings(files)
	h := sha256.New()
	fmt.Fprintf(h, "%s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		rel, _ := filepath.Rel(mod, f)
		fmt.Fprintf(h, "%s %d\n", filepath.ToSlash(rel), len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:24], nil
}
