package install

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	version "github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/addrs"
)

// Options say where to look for providers.
type Options struct {
	// PluginDirs are the -plugin-dir directories, in command-line order.
	PluginDirs []string
	// WorkingDir is the configuration directory (-chdir); its
	// .terraform/providers (or $TF_DATA_DIR/providers) is searched.
	WorkingDir string
	// Env is the process environment (KEY=VALUE): TF_CLI_CONFIG_FILE,
	// HOME, TF_PLUGIN_CACHE_DIR, TF_DATA_DIR, XDG_CACHE_HOME.
	Env []string
	// Builtins maps each provider plankit can serve in-process to the
	// upstream version it is compatible with ("" when it has none, as for
	// terraform.io/builtin/terraform).
	Builtins map[addrs.Provider]string
	// CacheDir is where packed packages are unpacked; "" means
	// $XDG_CACHE_HOME/plankit/providers, else ~/.cache/plankit/providers.
	CacheDir string
	// Platform is OS_ARCH; "" means this process's.
	Platform string
}

// Finder looks providers up in its Sources, in order, then in Builtins.
type Finder struct {
	// DevOverrides are the CLI configuration's dev_overrides (provider
	// to directory), which win over every source; DevOverridesFile names
	// that file.
	DevOverrides     map[addrs.Provider]string
	DevOverridesFile string
	Sources          []*Source
	Builtins         map[addrs.Provider]string
	CacheDir         string
	Platform         string
}

// NewFinder builds the source list from opts, reading the CLI
// configuration: -plugin-dir directories; the working directory's
// .terraform/providers; the CLI configuration's filesystem mirrors (or,
// without a provider_installation block, the implied
// ~/.terraform.d/plugins); TF_PLUGIN_CACHE_DIR, else plugin_cache_dir.
func NewFinder(opts Options) (*Finder, hcl.Diagnostics) {
	f := &Finder{Builtins: opts.Builtins, CacheDir: opts.CacheDir, Platform: opts.Platform}
	if f.Platform == "" {
		f.Platform = runtime.GOOS + "_" + runtime.GOARCH
	}
	if f.CacheDir == "" {
		f.CacheDir = defaultCacheDir(opts.Env)
	}
	for _, d := range opts.PluginDirs {
		f.Sources = append(f.Sources, &Source{Kind: PluginDir, Dir: d, Origin: "-plugin-dir"})
	}
	dataDir := lookupEnv(opts.Env, "TF_DATA_DIR")
	origin := ".terraform/providers"
	if dataDir == "" {
		dataDir = ".terraform"
	} else {
		origin = "TF_DATA_DIR providers"
	}
	if !filepath.IsAbs(dataDir) {
		dataDir = filepath.Join(opts.WorkingDir, dataDir)
	}
	f.Sources = append(f.Sources, &Source{Kind: WorkingDir, Dir: filepath.Join(dataDir, "providers"), Origin: origin})
	cfg, diags := LoadCLIConfig(opts.Env)
	f.DevOverrides, f.DevOverridesFile = cfg.DevOverrides, cfg.Path
	f.Sources = append(f.Sources, cfg.Mirrors...)
	if !cfg.HasInstallation {
		if home := lookupEnv(opts.Env, "HOME"); home != "" {
			f.Sources = append(f.Sources, &Source{Kind: Mirror, Dir: filepath.Join(home, ".terraform.d", "plugins"), Origin: "implied local mirror"})
		}
	}
	if d := lookupEnv(opts.Env, "TF_PLUGIN_CACHE_DIR"); d != "" {
		f.Sources = append(f.Sources, &Source{Kind: PluginCache, Dir: expandPath(d, opts.Env), Origin: "TF_PLUGIN_CACHE_DIR"})
	} else if cfg.PluginCacheDir != "" {
		f.Sources = append(f.Sources, &Source{Kind: PluginCache, Dir: cfg.PluginCacheDir, Origin: "plugin_cache_dir in " + cfg.Path})
	}
	return f, diags
}

func defaultCacheDir(env []string) string {
	if d := lookupEnv(env, "XDG_CACHE_HOME"); d != "" {
		return filepath.Join(d, "plankit", "providers")
	}
	if home := lookupEnv(env, "HOME"); home != "" {
		return filepath.Join(home, ".cache", "plankit", "providers")
	}
	return filepath.Join(os.TempDir(), "plankit-providers")
}

// Requirement is what the configuration and the lock file ask of one
// provider.
type Requirement struct {
	Provider addrs.Provider
	// Constraints are the configuration's version constraints, from every
	// module (nil: any version).
	Constraints version.Constraints
	// Locked is the lock file's version ("" when not locked) and
	// LockedHashes its trusted hashes (none: any package of that version
	// is trusted, as Terraform trusts it).
	Locked       string
	LockedHashes []string
	// LockFile names the lock file, for messages.
	LockFile string
}

func (r Requirement) constraintText() string {
	if len(r.Constraints) == 0 {
		return "any version"
	}
	return r.Constraints.String()
}

// Selection is how a provider is served.
type Selection struct {
	Provider addrs.Provider
	// Version is the selected version; for a built-in, the upstream
	// version it is compatible with ("" if none).
	Version string
	// BuiltIn is set when plankit serves the provider in-process.
	BuiltIn bool
	// Package is the plugin package (nil for a built-in), Dir its
	// unpacked directory and Executable the provider binary in it.
	Package    *Package
	Dir        string
	Executable string
	// DevOverride is set ("dev_overrides in FILE") when a development
	// override of the CLI configuration serves the provider: Executable
	// is in the directory it names, Version and Package are empty, and
	// no lock entry applies.
	DevOverride string
	// Hashes are the package's hashes: its h1:, and for a packed package
	// also its zh:.
	Hashes []string
}

// Where describes the selection's origin for messages and `plan
// providers`: "built in" or "-plugin-dir /p: /p/.../terraform-provider-x_v1.0.0".
func (s *Selection) Where() string {
	if s.BuiltIn {
		return "built in"
	}
	if s.DevOverride != "" {
		return s.DevOverride + ": " + s.Executable
	}
	return s.Package.Source.String() + ": " + s.Package.Location()
}

// Find selects the package serving req.Provider. A development override
// (dev_overrides) of the provider wins over everything, with no version or
// lock check. Otherwise every source is scanned
// in order; the first one with a version meeting the constraints (and
// equal to the locked one) wins, with its newest such version. The
// package is checked against the locked hashes (a packed package is
// unpacked into the cache first) before its executable is returned. A
// provider no source has any package of for this platform is served by
// the built-in provider of that address, if any, when its version meets
// the constraints. Errors are *Error. O(packages of the provider, plus
// hashing the selected one).
func (f *Finder) Find(req Requirement) (*Selection, error) {
	p := req.Provider
	if dir, ok := f.DevOverrides[p]; ok {
		return findDevOverride(p, dir, f.DevOverridesFile)
	}
	var searched []string
	anyPlugin := false
	for _, src := range f.Sources {
		if !src.Serves(p) {
			searched = append(searched, src.String()+": not used for this provider (include/exclude)")
			continue
		}
		pkgs, found := src.scan(p, f.Platform)
		if len(found) == 0 {
			found = []string{"nothing"}
		}
		searched = append(searched, src.String()+": "+strings.Join(found, "; "))
		if len(pkgs) > 0 {
			anyPlugin = true
		}
		for _, pkg := range pkgs {
			if !req.Constraints.Check(pkg.Version) {
				continue
			}
			if req.Locked != "" && !sameVersion(pkg.Version, req.Locked) {
				continue
			}
			return f.verify(req, pkg)
		}
	}
	if bv, ok := f.Builtins[p]; ok && !anyPlugin {
		if req.Locked != "" && bv != "" && !sameVersionText(req.Locked, bv) {
			// The lock names a package; a built-in of another version
			// would serve something the lock never vouched for.
			return nil, &Error{Kind: LockedVersionMissing, Provider: p,
				Summary: "Locked provider version is not installed",
				Detail: fmt.Sprintf("%s locks %s at %s, but no package of it is installed, and plankit's built-in %s is compatible with %s, not %s.\n\nSearched:\n%s",
					req.LockFile, p.ForDisplay(), req.Locked, p.ForDisplay(), bv, req.Locked, bullets(searched))}
		}
		if bv != "" && len(req.Constraints) > 0 {
			v, err := version.NewVersion(bv)
			if err == nil && !req.Constraints.Check(v) {
				return nil, &Error{Kind: BuiltinVersion, Provider: p,
					Summary: "Built-in provider version does not meet the constraints",
					Detail: fmt.Sprintf("The configuration requires %s %s, but no plugin package for it is installed and plankit's built-in %s is version %s. Change the version constraint to allow %s, or install a plugin package that meets it.\n\nSearched:\n%s",
						p.ForDisplay(), req.constraintText(), p.ForDisplay(), bv, bv, bullets(searched))}
			}
		}
		return &Selection{Provider: p, Version: bv, BuiltIn: true}, nil
	}
	return nil, f.notFound(req, searched, anyPlugin)
}

func (f *Finder) notFound(req Requirement, searched []string, anyPlugin bool) error {
	p := req.Provider
	if len(searched) == 0 {
		searched = []string{"no plugin directory is configured"}
	}
	want := req.constraintText()
	if req.Locked != "" {
		want += fmt.Sprintf(", locked to %s in %s", req.Locked, req.LockFile)
	}
	// What to do depends on the command (plan init in a working
	// directory, apply -install for a plan file): its caller says it.
	detail := fmt.Sprintf("plankit needs provider %s (%s) for %s, but found no package for it.\n\nSearched:\n%s",
		p.String(), want, f.Platform, bullets(searched))
	switch {
	case req.Locked != "" && anyPlugin:
		return &Error{Kind: LockedVersionMissing, Provider: p, Summary: "Locked provider version is not installed", Detail: detail}
	case anyPlugin:
		return &Error{Kind: NoMatchingVersion, Provider: p, Summary: "No installed provider version meets the constraints", Detail: detail}
	}
	return &Error{Kind: NotFound, Provider: p, Summary: "Provider not found", Detail: detail}
}

func sameVersion(v *version.Version, s string) bool {
	o, err := version.NewVersion(s)
	return err == nil && v.Equal(o) && v.Prerelease() == o.Prerelease()
}

func sameVersionText(a, b string) bool {
	v, err := version.NewVersion(a)
	return err == nil && sameVersion(v, b)
}

func bullets(lines []string) string {
	return "  - " + strings.Join(lines, "\n  - ")
}

// Kind classifies an *Error.
type Kind int

const (
	// NotFound: no source has any package of the provider.
	NotFound Kind = iota + 1
	// NoMatchingVersion: packages exist, none meets the constraints.
	NoMatchingVersion
	// LockedVersionMissing: the locked version is not installed.
	LockedVersionMissing
	// HashMismatch: the package matches none of the locked hashes.
	HashMismatch
	// BuiltinVersion: only the built-in exists and its version does not
	// meet the constraints.
	BuiltinVersion
	// BadPackage: the package is unreadable, has no executable, or its
	// archive is unsafe.
	BadPackage
)

// Error is a provider that cannot be served, with a message for users.
type Error struct {
	Kind     Kind
	Provider addrs.Provider
	Summary  string
	Detail   string
}

func (e *Error) Error() string { return e.Summary + ": " + e.Detail }
