package install

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"

	version "github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/addrs"
)

// Kinds of installation errors (see Error).
const (
	// Unreachable: a registry or mirror could not be asked.
	Unreachable Kind = 100 + iota
	// NoPlatform: the selected version has no package for this platform.
	NoPlatform
	// AuthFailed: a checksum or signature does not verify.
	AuthFailed
)

// InstallerOptions configure an Installer.
type InstallerOptions struct {
	// WorkingDir is the configuration directory; packages are installed
	// into its .terraform/providers (or $TF_DATA_DIR/providers).
	WorkingDir string
	// Env is the process environment (KEY=VALUE): TF_CLI_CONFIG_FILE,
	// HOME, TF_PLUGIN_CACHE_DIR, TF_DATA_DIR.
	Env []string
	// PluginDirs are -plugin-dir directories: when given, they are the
	// only sources, as with terraform init -plugin-dir.
	PluginDirs []string
	// Platform is OS_ARCH; "" means this process's.
	Platform string
	// HTTPClient talks to registries and mirrors; nil means one with
	// the default transport (proxy settings, SSL_CERT_FILE).
	HTTPClient *http.Client
	// ProgressBar, when set (a terminal), shows each download's progress.
	ProgressBar io.Writer
	// TargetDir, when set, replaces WorkingDir's providers directory (apply
	// -install installs into a cache).
	TargetDir string
}

// Installer installs provider packages into a working directory, from
// the sources the CLI configuration's provider_installation block lists
// (or Terraform's implied ones), through the plugin cache.
type Installer struct {
	target   string
	platform string
	cache    string
	methods  []*Method
	implied  bool
	client   *http.Client
	bar      io.Writer
	registry *registrySource
	// devOverrides are the CLI configuration's dev_overrides: init
	// installs nothing for them.
	devOverrides     map[addrs.Provider]string
	devOverridesFile string
}

// DevOverride returns the dev_overrides directory of p in the CLI
// configuration, if any: such a provider is neither installed nor locked.
func (in *Installer) DevOverride(p addrs.Provider) (dir, file string, ok bool) {
	dir, ok = in.devOverrides[p]
	return dir, in.devOverridesFile, ok
}

// NewInstaller reads the CLI configuration and returns an installer.
func NewInstaller(opts InstallerOptions) (*Installer, hcl.Diagnostics) {
	in := &Installer{platform: opts.Platform, client: opts.HTTPClient}
	if in.platform == "" {
		in.platform = runtime.GOOS + "_" + runtime.GOARCH
	}
	if in.client == nil {
		in.client = &http.Client{Transport: http.DefaultTransport}
	}
	in.bar = opts.ProgressBar
	in.registry = &registrySource{client: in.client, bar: in.bar}
	in.target = opts.TargetDir
	if in.target == "" {
		dataDir := lookupEnv(opts.Env, "TF_DATA_DIR")
		if dataDir == "" {
			dataDir = ".terraform"
		}
		if !filepath.IsAbs(dataDir) {
			dataDir = filepath.Join(opts.WorkingDir, dataDir)
		}
		in.target = filepath.Join(dataDir, "providers")
	}
	cfg, diags := LoadCLIConfig(opts.Env)
	in.devOverrides, in.devOverridesFile = cfg.DevOverrides, cfg.Path
	if d := lookupEnv(opts.Env, "TF_PLUGIN_CACHE_DIR"); d != "" {
		in.cache = expandPath(d, opts.Env)
	} else {
		in.cache = cfg.PluginCacheDir
	}
	if len(opts.PluginDirs) > 0 {
		for _, d := range opts.PluginDirs {
			in.methods = append(in.methods, &Method{Kind: FilesystemMirror, Dir: d})
		}
		return in, diags
	}
	methods, ds := LoadMethods(opts.Env)
	diags = append(diags, ds...)
	if methods == nil {
		in.implied = true
		if home := lookupEnv(opts.Env, "HOME"); home != "" {
			in.methods = append(in.methods, &Method{Kind: FilesystemMirror, Dir: filepath.Join(home, ".terraform.d", "plugins")})
		}
		in.methods = append(in.methods, &Method{Kind: Direct})
	} else {
		in.methods = methods
	}
	return in, diags
}

// Want is what one provider's installation must satisfy.
type Want struct {
	Provider    addrs.Provider
	Constraints version.Constraints
	// Locked and LockedHashes are the lock file's entry ("" when none).
	Locked       string
	LockedHashes []string
	// Upgrade ignores the locked version (not its absence of hashes).
	Upgrade bool
	// LockFile names the lock file for messages.
	LockFile string
}

// Result is one installed provider.
type Result struct {
	Version string
	// Dir is the installed package directory.
	Dir string
	// Hashes are the hashes to lock: the package's h1:, the hashes the
	// source vouches for, and the locked ones when the version is kept.
	Hashes []string
	// Auth says how a downloaded or copied package was authenticated, for
	// the parentheses of "- Installed": its signer ("signed by HashiCorp",
	// "self-signed, key ID ..."), "verified checksum" (a mirror's or the
	// lock file's hashes match it) or "unauthenticated" (nothing vouched
	// for it). "" when nothing was installed (Reused).
	Auth string
	// Reused is "previously-installed" or "cache" when nothing was
	// downloaded.
	Reused string
}

type candidate struct {
	v      *version.Version
	method *Method
	local  []*Package      // filesystem packages for this platform
	remote []remoteVersion // as the remote listed it
}

func (in *Installer) remoteFor(m *Method) remote {
	if m.Kind == NetworkMirror {
		u, _ := url.Parse(m.URL)
		return &mirrorSource{client: in.client, base: u, bar: in.bar}
	}
	return in.registry
}

// Install selects and installs w.Provider, calling progress with
// Terraform's progress lines' subjects ("Finding ...", "Installing ...").
// Nothing is left in the target directory unless it verified.
func (in *Installer) Install(ctx context.Context, w Want, progress func(string)) (*Result, error) {
	p := w.Provider
	if progress == nil {
		progress = func(string) {}
	}
	locked := w.Locked != "" && !w.Upgrade
	if locked {
		progress(fmt.Sprintf("Reusing previous version of %s from the dependency lock file", p.ForDisplay()))
	} else if len(w.Constraints) > 0 {
		progress(fmt.Sprintf("Finding %s versions matching %q...", p.ForDisplay(), w.Constraints.String()))
	} else {
		progress(fmt.Sprintf("Finding latest version of %s...", p.ForDisplay()))
	}
	var cands []candidate
	var problems []string
	usedImpliedLocal := false
	for _, m := range in.methods {
		if !m.Serves(p) {
			continue
		}
		if m.Kind == FilesystemMirror {
			src := &Source{Kind: Mirror, Dir: m.Dir, Origin: "filesystem mirror"}
			pkgs, found := src.scan(p, in.platform)
			if len(found) > 0 {
				problems = append(problems, fmt.Sprintf("%s: %s", m, strings.Join(found, "; ")))
			}
			for _, pkg := range pkgs {
				cands = append(cands, candidate{v: pkg.Version, method: m, local: []*Package{pkg}})
			}
			if len(pkgs) > 0 && in.implied {
				usedImpliedLocal = true
			}
			continue
		}
		if usedImpliedLocal {
			break // Terraform: providers in the implied local mirror are not fetched
		}
		vs, err := in.remoteFor(m).versions(ctx, p)
		if err != nil {
			if errors.Is(err, errNoProvider) {
				problems = append(problems, fmt.Sprintf("%s: no provider %s", in.remoteFor(m), p.ForDisplay()))
				continue
			}
			return nil, &Error{Kind: Unreachable, Provider: p, Summary: "Failed to query available provider packages",
				Detail: fmt.Sprintf("Could not retrieve the list of available versions for provider %s from %s: %s.\n\nCheck the network and the CLI configuration's provider_installation block, or install from a mirror with -plugin-dir=DIR.", p.ForDisplay(), in.remoteFor(m), err)}
		}
		if len(vs) == 0 {
			problems = append(problems, fmt.Sprintf("%s: no versions", in.remoteFor(m)))
		}
		for _, rv := range vs {
			cands = append(cands, candidate{v: rv.Version, method: m, remote: []remoteVersion{rv}})
		}
	}
	if len(cands) == 0 {
		if len(problems) == 0 {
			problems = []string{"no installation method of the CLI configuration serves this provider"}
		}
		return nil, &Error{Kind: NotFound, Provider: p, Summary: "Failed to query available provider packages",
			Detail: fmt.Sprintf("Provider %s was not found:\n%s\n\nCheck the provider's source address in required_providers (a typo, or a provider that moved namespace).", p.ForDisplay(), bullets(problems))}
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].v.GreaterThan(cands[j].v) })

	var chosen *version.Version
	var all []string
	hasPlatform := func(c candidate) bool {
		if c.local != nil {
			return true
		}
		rv := c.remote[0]
		return rv.Platforms == nil || slices.Contains(rv.Platforms, in.platform)
	}
	if locked {
		lv, err := version.NewVersion(w.Locked)
		if err != nil {
			return nil, fmt.Errorf("%s locks %s at the invalid version %q", w.LockFile, p.ForDisplay(), w.Locked)
		}
		if len(w.Constraints) > 0 && !w.Constraints.Check(lv) {
			return nil, &Error{Kind: LockedVersionMissing, Provider: p, Summary: "Locked provider version does not meet the constraints",
				Detail: fmt.Sprintf("%s locks %s at %s, but the configuration requires %s.\n\nRun plan init -upgrade to select a version that meets the constraints.", w.LockFile, p.ForDisplay(), w.Locked, w.Constraints)}
		}
		chosen = lv
	}
	for _, c := range cands {
		all = append(all, c.v.String())
		if chosen != nil && locked {
			continue
		}
		if chosen == nil && (len(w.Constraints) == 0 && c.v.Prerelease() == "" || len(w.Constraints) > 0 && w.Constraints.Check(c.v)) && hasPlatform(c) {
			chosen = c.v
		}
	}
	all = slices.Compact(all)
	var from []candidate
	for _, c := range cands {
		if chosen != nil && c.v.Equal(chosen) && c.v.Prerelease() == chosen.Prerelease() {
			from = append(from, c)
		}
	}
	if chosen == nil || len(from) == 0 {
		if locked {
			return nil, &Error{Kind: LockedVersionMissing, Provider: p, Summary: "Locked provider version is not available",
				Detail: fmt.Sprintf("%s locks %s at %s, but no installation source offers that version any more (available: %s).\n\nRun plan init -upgrade to select another version, or restore %s on the source.", w.LockFile, p.ForDisplay(), w.Locked, strings.Join(all, ", "), w.Locked)}
		}
		// Is it the platform or the constraints?
		for _, c := range cands {
			if len(w.Constraints) == 0 || w.Constraints.Check(c.v) {
				return nil, &Error{Kind: NoPlatform, Provider: p, Summary: "Incompatible provider version",
					Detail: fmt.Sprintf("Provider %s %s (and every other version meeting %s) has no package for your current platform, %s. Available versions: %s.", p.ForDisplay(), c.v, constraintOrAny(w.Constraints), in.platform, strings.Join(all, ", "))}
			}
		}
		return nil, &Error{Kind: NoMatchingVersion, Provider: p, Summary: "Failed to query available provider packages",
			Detail: fmt.Sprintf("Could not retrieve the list of available versions for provider %s: no available releases match the given constraints %s.\n\nAvailable versions: %s.", p.ForDisplay(), constraintOrAny(w.Constraints), strings.Join(all, ", "))}
	}
	res, err := in.installVersion(ctx, w, chosen, from, locked, progress)
	if err != nil {
		return nil, err
	}
	return res, nil
}

func constraintOrAny(c version.Constraints) string {
	if len(c) == 0 {
		return "(any version)"
	}
	return c.String()
}

// accepts reports whether a package with hashes have is trusted by the
// lock (no locked hashes: trusted).
func accepts(lockedHashes, have []string) bool {
	if len(lockedHashes) == 0 {
		return true
	}
	for _, h := range have {
		if slices.Contains(lockedHashes, h) {
			return true
		}
	}
	return false
}

func (in *Installer) installVersion(ctx context.Context, w Want, v *version.Version, from []candidate, locked bool, progress func(string)) (*Result, error) {
	p := w.Provider
	var lockHashes []string
	if locked || (w.Locked != "" && sameVersion(v, w.Locked)) {
		lockHashes = w.LockedHashes
	}
	rel := filepath.Join(p.Hostname, p.Namespace, p.Type, v.String(), in.platform)
	target := filepath.Join(in.target, rel)
	res := &Result{Version: v.String(), Dir: target}
	mismatch := func(where string, have []string) error {
		return &Error{Kind: HashMismatch, Provider: p, Summary: "Provider package does not match the lock file",
			Detail: fmt.Sprintf("The package of %s %s from %s has hashes %s, none of which %s records for it:\n%s\n\nThe package was changed since the lock file was written. If you trust the new package, run plan init -upgrade.", p.ForDisplay(), v, where, strings.Join(have, ", "), w.LockFile, bullets(lockHashes))}
	}
	// Already installed? Only a locked package is reused: an unlocked one
	// is fetched again so that it is authenticated and its source's
	// checksums are recorded. The cache is used the same way, as
	// Terraform uses it without plugin_cache_may_break_dependency_lock_file.
	if h1, err := HashDir(target); err == nil && len(lockHashes) > 0 && accepts(lockHashes, []string{h1}) {
		if _, err := executable(target, p.Type); err == nil {
			res.Hashes = merge(lockHashes, []string{h1})
			res.Reused = "previously-installed"
			return res, nil
		}
	}
	// The plugin cache?
	if in.cache != "" {
		cached := filepath.Join(in.cache, rel)
		if h1, err := HashDir(cached); err == nil && len(lockHashes) > 0 && accepts(lockHashes, []string{h1}) {
			progress(fmt.Sprintf("Using %s v%s from the shared cache directory", p.ForDisplay(), v))
			if err := placeDir(in.target, target, func(tmp string) error { return copyDir(cached, tmp) }, h1); err != nil {
				return nil, err
			}
			res.Hashes = merge(lockHashes, []string{h1})
			res.Reused = "cache"
			return res, nil
		}
	}
	progress(fmt.Sprintf("Installing %s v%s...", p.ForDisplay(), v))
	if err := os.MkdirAll(in.target, 0o755); err != nil {
		return nil, fmt.Errorf("creating %s: %w", in.target, err)
	}
	tmpDir, err := os.MkdirTemp(in.target, ".download-")
	if err != nil {
		return nil, fmt.Errorf("creating a temporary directory in %s: %w", in.target, err)
	}
	defer os.RemoveAll(tmpDir)
	var lastErr error
	for _, c := range from {
		var zipPath, srcDir string
		var vouched []string
		auth := ""
		where := c.method.String()
		switch {
		case c.local != nil:
			pkg := c.local[0]
			zipPath, srcDir = pkg.Zip, pkg.Dir
		default:
			f, err := in.remoteFor(c.method).fetch(ctx, p, v, in.platform, tmpDir)
			if err != nil {
				kind := AuthFailed
				switch {
				case strings.Contains(err.Error(), "no package of"):
					kind = NoPlatform
				case strings.Contains(err.Error(), "cannot reach"):
					kind = Unreachable
				}
				lastErr = &Error{Kind: kind, Provider: p, Summary: "Failed to install provider",
					Detail: fmt.Sprintf("Error while installing %s v%s from %s: %s.\n\nNothing was installed.", p.ForDisplay(), v, where, err)}
				continue
			}
			zipPath, vouched, auth = f.Zip, f.Hashes, f.Auth
		}
		var h1 string
		var fill func(tmp string) error
		if zipPath != "" {
			zh, err := HashZipFile(zipPath)
			if err != nil {
				return nil, err
			}
			if h1, err = HashZip(zipPath); err != nil {
				lastErr = &Error{Kind: BadPackage, Provider: p, Summary: "Failed to install provider",
					Detail: fmt.Sprintf("The package of %s v%s from %s is not a valid zip archive: %s.", p.ForDisplay(), v, where, err)}
				continue
			}
			if !accepts(lockHashes, []string{h1, zh}) {
				return nil, mismatch(where, []string{h1, zh})
			}
			if c.local != nil {
				vouched = []string{zh}
			}
			zp := zipPath
			fill = func(tmp string) error { return extract(zp, tmp) }
		} else {
			if h1, err = HashDir(srcDir); err != nil {
				return nil, err
			}
			if !accepts(lockHashes, []string{h1}) {
				return nil, mismatch(where, []string{h1})
			}
			sd := srcDir
			fill = func(tmp string) error { return copyDir(sd, tmp) }
		}
		if err := placeDir(in.target, target, fill, h1); err != nil {
			return nil, &Error{Kind: BadPackage, Provider: p, Summary: "Failed to install provider",
				Detail: fmt.Sprintf("Installing %s v%s from %s failed: %s.\n\nNothing was installed.", p.ForDisplay(), v, where, err)}
		}
		if _, err := executable(target, p.Type); err != nil {
			os.RemoveAll(target)
			return nil, &Error{Kind: BadPackage, Provider: p, Summary: "Failed to install provider",
				Detail: fmt.Sprintf("The package of %s v%s from %s is not a provider: %s.", p.ForDisplay(), v, where, err)}
		}
		if in.cache != "" {
			cached := filepath.Join(in.cache, rel)
			if _, err := os.Stat(cached); err != nil {
				// Filling the cache is best effort, as in Terraform.
				_ = placeDir(in.cache, cached, func(tmp string) error { return copyDir(target, tmp) }, h1)
			}
		}
		res.Hashes = merge(lockHashes, append([]string{h1}, vouched...))
		if auth == "" {
			// A local package, or a mirror that lists no hashes: only the
			// lock file can vouch for it, as OpenTofu reports it.
			auth = "unauthenticated"
			if len(lockHashes) > 0 {
				auth = "verified checksum"
			}
		}
		res.Auth = auth
		return res, nil
	}
	return nil, lastErr
}

func merge(a, b []string) []string {
	out := append(slices.Clone(a), b...)
	slices.Sort(out)
	return slices.Compact(out)
}

// placeDir fills a temporary directory beside dest's tree (below root,
// so on the same filesystem), checks its h1: hash and renames it to dest,
// replacing what was there: dest is either the old or the complete new
// package, never a partial one.
func placeDir(root, dest string, fill func(tmp string) error, h1 string) error {
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(root, ".install-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	pkg := filepath.Join(tmp, "pkg")
	if err := os.Mkdir(pkg, 0o755); err != nil {
		return err
	}
	if err := fill(pkg); err != nil {
		return err
	}
	if err := VerifyPackage(pkg, h1); err != nil {
		return fmt.Errorf("the unpacked package does not match its archive: %w", err)
	}
	if _, err := os.Lstat(dest); err == nil {
		old := filepath.Join(tmp, "old")
		if err := os.Rename(dest, old); err != nil {
			return fmt.Errorf("replacing %s: %w", dest, err)
		}
	}
	return os.Rename(pkg, dest)
}

// copyDir copies the regular files below src (following a symlinked
// src) into dst, keeping their permission bits.
func copyDir(src, dst string) error {
	real, err := filepath.EvalSymlinks(src)
	if err != nil {
		return err
	}
	return filepath.WalkDir(real, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(real, path)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		st, err := os.Stat(path)
		if err != nil || !st.Mode().IsRegular() {
			return err
		}
		in, err := os.Open(path)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_EXCL, st.Mode().Perm())
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, in); err != nil {
			out.Close()
			return err
		}
		return out.Close()
	})
}
