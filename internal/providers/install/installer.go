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
	cands, err := in.candidates(ctx, p)
	if err != nil {
		return nil, err
	}
	chosen, from, err := in.chooseVersion(w, cands, locked)
	if err != nil {
		return nil, err
	}
	res, err := in.installVersion(ctx, w, chosen, from, locked, progress)
	if err != nil {
		return nil, err
	}
	return res, nil
}

// candidates lists the versions of p that the installation methods
// offer, newest first, one entry per method and version. A provider no
// method offers is an error listing what each method said.
func (in *Installer) candidates(ctx context.Context, p addrs.Provider) ([]candidate, error) {
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
	return cands, nil
}

// chooseVersion picks the version to install among cands (newest first):
// the locked one when locked, else the newest that meets w's constraints
// (a release, when there are none) and has a package for this platform.
// It returns the version and the candidates that offer it; an error says
// whether the lock, the platform or the constraints rule everything out.
func (in *Installer) chooseVersion(w Want, cands []candidate, locked bool) (*version.Version, []candidate, error) {
	p := w.Provider
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
			return nil, nil, fmt.Errorf("%s locks %s at the invalid version %q", w.LockFile, p.ForDisplay(), w.Locked)
		}
		if len(w.Constraints) > 0 && !w.Constraints.Check(lv) {
			return nil, nil, &Error{Kind: LockedVersionMissing, Provider: p, Summary: "Locked provider version does not meet the constraints",
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
	if chosen != nil && len(from) > 0 {
		return chosen, from, nil
	}
	if locked {
		return nil, nil, &Error{Kind: LockedVersionMissing, Provider: p, Summary: "Locked provider version is not available",
			Detail: fmt.Sprintf("%s locks %s at %s, but no installation source offers that version any more (available: %s).\n\nRun plan init -upgrade to select another version, or restore %s on the source.", w.LockFile, p.ForDisplay(), w.Locked, strings.Join(all, ", "), w.Locked)}
	}
	// Is it the platform or the constraints?
	for _, c := range cands {
		if len(w.Constraints) == 0 || w.Constraints.Check(c.v) {
			return nil, nil, &Error{Kind: NoPlatform, Provider: p, Summary: "Incompatible provider version",
				Detail: fmt.Sprintf("Provider %s %s (and every other version meeting %s) has no package for your current platform, %s. Available versions: %s.", p.ForDisplay(), c.v, constraintOrAny(w.Constraints), in.platform, strings.Join(all, ", "))}
		}
	}
	return nil, nil, &Error{Kind: NoMatchingVersion, Provider: p, Summary: "Failed to query available provider packages",
		Detail: fmt.Sprintf("Could not retrieve the list of available versions for provider %s: no available releases match the given constraints %s.\n\nAvailable versions: %s.", p.ForDisplay(), constraintOrAny(w.Constraints), strings.Join(all, ", "))}
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

// versionInstall is the installation of one chosen version of a provider
// into the target directory.
type versionInstall struct {
	in         *Installer
	w          Want
	v          *version.Version
	lockHashes []string // a package must match one of them (none: any package)
	rel        string   // the package's directory below the target and the cache
	target     string
}

func (in *Installer) installVersion(ctx context.Context, w Want, v *version.Version, from []candidate, locked bool, progress func(string)) (*Result, error) {
	p := w.Provider
	vi := &versionInstall{in: in, w: w, v: v}
	if locked || (w.Locked != "" && sameVersion(v, w.Locked)) {
		vi.lockHashes = w.LockedHashes
	}
	vi.rel = filepath.Join(p.Hostname, p.Namespace, p.Type, v.String(), in.platform)
	vi.target = filepath.Join(in.target, vi.rel)
	if res, err := vi.reuse(progress); res != nil || err != nil {
		return res, err
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
	// Each source is tried in turn until one yields a package: a source
	// that cannot deliver one (unreachable, no package, not a zip) passes
	// to the next, a package that fails the lock stops the installation.
	var lastErr error
	for _, c := range from {
		res, next, err := vi.installFrom(ctx, c, tmpDir)
		if !next {
			return res, err
		}
		lastErr = err
	}
	return nil, lastErr
}

func (vi *versionInstall) result() *Result {
	return &Result{Version: vi.v.String(), Dir: vi.target}
}

func (vi *versionInstall) mismatch(where string, have []string) error {
	p := vi.w.Provider
	return &Error{Kind: HashMismatch, Provider: p, Summary: "Provider package does not match the lock file",
		Detail: fmt.Sprintf("The package of %s %s from %s has hashes %s, none of which %s records for it:\n%s\n\nThe package was changed since the lock file was written. If you trust the new package, run plan init -upgrade.", p.ForDisplay(), vi.v, where, strings.Join(have, ", "), vi.w.LockFile, bullets(vi.lockHashes))}
}

// reuse returns the result of reusing a package already installed, or
// copied from the plugin cache; nil when there is none to reuse.
func (vi *versionInstall) reuse(progress func(string)) (*Result, error) {
	p, lockHashes, target := vi.w.Provider, vi.lockHashes, vi.target
	// Already installed? Only a locked package is reused: an unlocked one
	// is fetched again so that it is authenticated and its source's
	// checksums are recorded. The cache is used the same way, as
	// Terraform uses it without plugin_cache_may_break_dependency_lock_file.
	if h1, err := HashDir(target); err == nil && len(lockHashes) > 0 && accepts(lockHashes, []string{h1}) {
		if _, err := executable(target, p.Type); err == nil {
			res := vi.result()
			res.Hashes = merge(lockHashes, []string{h1})
			res.Reused = "previously-installed"
			return res, nil
		}
	}
	// The plugin cache?
	if vi.in.cache != "" {
		cached := filepath.Join(vi.in.cache, vi.rel)
		if h1, err := HashDir(cached); err == nil && len(lockHashes) > 0 && accepts(lockHashes, []string{h1}) {
			progress(fmt.Sprintf("Using %s v%s from the shared cache directory", p.ForDisplay(), vi.v))
			if err := placeDir(vi.in.target, target, func(tmp string) error { return copyDir(cached, tmp) }, h1); err != nil {
				return nil, err
			}
			res := vi.result()
			res.Hashes = merge(lockHashes, []string{h1})
			res.Reused = "cache"
			return res, nil
		}
	}
	return nil, nil
}

// obtained is a package as a source delivered it: a zip archive or an
// unpacked directory, with the hashes the source vouches for and how it
// authenticated them ("" when it did not).
type obtained struct {
	zip, dir string
	vouched  []string
	auth     string
}

// installFrom installs the package candidate c offers. next reports that
// c could not deliver a package and the next candidate may: err says why.
func (vi *versionInstall) installFrom(ctx context.Context, c candidate, tmpDir string) (res *Result, next bool, err error) {
	p, v := vi.w.Provider, vi.v
	where := c.method.String()
	var f obtained
	if c.local != nil {
		f.zip, f.dir = c.local[0].Zip, c.local[0].Dir
	} else {
		rf, err := vi.in.remoteFor(c.method).fetch(ctx, p, v, vi.in.platform, tmpDir)
		if err != nil {
			kind := AuthFailed
			switch {
			case strings.Contains(err.Error(), "no package of"):
				kind = NoPlatform
			case strings.Contains(err.Error(), "cannot reach"):
				kind = Unreachable
			}
			return nil, true, &Error{Kind: kind, Provider: p, Summary: "Failed to install provider",
				Detail: fmt.Sprintf("Error while installing %s v%s from %s: %s.\n\nNothing was installed.", p.ForDisplay(), v, where, err)}
		}
		f.zip, f.vouched, f.auth = rf.Zip, rf.Hashes, rf.Auth
	}
	h1, fill, next, err := vi.verify(where, c.local != nil, &f)
	if err != nil {
		return nil, next, err
	}
	if err := placeDir(vi.in.target, vi.target, fill, h1); err != nil {
		return nil, false, &Error{Kind: BadPackage, Provider: p, Summary: "Failed to install provider",
			Detail: fmt.Sprintf("Installing %s v%s from %s failed: %s.\n\nNothing was installed.", p.ForDisplay(), v, where, err)}
	}
	if _, err := executable(vi.target, p.Type); err != nil {
		os.RemoveAll(vi.target)
		return nil, false, &Error{Kind: BadPackage, Provider: p, Summary: "Failed to install provider",
			Detail: fmt.Sprintf("The package of %s v%s from %s is not a provider: %s.", p.ForDisplay(), v, where, err)}
	}
	if vi.in.cache != "" {
		cached := filepath.Join(vi.in.cache, vi.rel)
		if _, err := os.Stat(cached); err != nil {
			// Filling the cache is best effort, as in Terraform.
			_ = placeDir(vi.in.cache, cached, func(tmp string) error { return copyDir(vi.target, tmp) }, h1)
		}
	}
	res = vi.result()
	res.Hashes = merge(vi.lockHashes, append([]string{h1}, f.vouched...))
	if f.auth == "" {
		// A local package, or a mirror that lists no hashes: only the
		// lock file can vouch for it, as OpenTofu reports it.
		f.auth = "unauthenticated"
		if len(vi.lockHashes) > 0 {
			f.auth = "verified checksum"
		}
	}
	res.Auth = f.auth
	return res, false, nil
}

// verify hashes the package f and checks it against the lock, returning
// its h1 hash and what fills a directory with it. A local zip vouches for
// its own zip hash. next reports a package that is no zip archive (the
// next candidate may do); a hash the lock does not know stops there.
func (vi *versionInstall) verify(where string, local bool, f *obtained) (h1 string, fill func(tmp string) error, next bool, err error) {
	p, v := vi.w.Provider, vi.v
	if f.zip == "" {
		if h1, err = HashDir(f.dir); err != nil {
			return "", nil, false, err
		}
		if !accepts(vi.lockHashes, []string{h1}) {
			return "", nil, false, vi.mismatch(where, []string{h1})
		}
		sd := f.dir
		return h1, func(tmp string) error { return copyDir(sd, tmp) }, false, nil
	}
	zh, err := HashZipFile(f.zip)
	if err != nil {
		return "", nil, false, err
	}
	if h1, err = HashZip(f.zip); err != nil {
		return "", nil, true, &Error{Kind: BadPackage, Provider: p, Summary: "Failed to install provider",
			Detail: fmt.Sprintf("The package of %s v%s from %s is not a valid zip archive: %s.", p.ForDisplay(), v, where, err)}
	}
	if !accepts(vi.lockHashes, []string{h1, zh}) {
		return "", nil, false, vi.mismatch(where, []string{h1, zh})
	}
	if local {
		f.vouched = []string{zh}
	}
	zp := f.zip
	return h1, func(tmp string) error { return extract(zp, tmp) }, false, nil
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
