package command

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	version "github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/depsfile"
	"github.com/plankit/plankit/internal/backend/s3"
	"github.com/plankit/plankit/internal/command/views"
	"github.com/plankit/plankit/internal/initwd"
	"github.com/plankit/plankit/internal/operation"
	"github.com/plankit/plankit/internal/providers/builtin"
	"github.com/plankit/plankit/internal/providers/install"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/tfdiags"
)

const initUsage = `Usage: plan init [-upgrade] [-plugin-dir=DIR] [-lockfile=readonly] [-backend-config=KEY=VALUE|FILE] [-no-color] [-json]

  Installs the providers the configuration needs into .terraform/providers
  (Terraform's layout, so terraform, tofu and plankit share one initialised
  directory) and records the selections in .terraform.lock.hcl.

  Providers come from the sources of the CLI configuration's
  provider_installation block (direct, network_mirror, filesystem_mirror,
  with include/exclude), or by default from ~/.terraform.d/plugins and the
  provider's origin registry. Registry packages are checked against the
  registry's SHA256SUMS and its GPG signature. plugin_cache_dir or
  TF_PLUGIN_CACHE_DIR is used and filled. A version recorded in the lock
  file is kept. A provider plankit has built in is installed like any other
  when a source offers it; the built-in serves it only where none does.

Options:
  -upgrade            Select the newest versions the constraints allow,
                      ignoring the lock file's versions.
  -plugin-dir=DIR     Install only from this filesystem mirror
                      (repeatable); no registry is contacted.
  -lockfile=readonly  Fail instead of changing the lock file.
  -backend-config=KEY=VALUE|FILE
                      Backend setting, or a file of them (repeatable). init
                      connects to a "pg" backend, creating its schema and
                      tables unless the skip_* settings say not to; with an
                      "s3" backend's use_lockfile, it checks that the
                      server refuses a second conditional PUT.
  -no-color           No colour.
  -json               Machine-readable progress.
`

// Init runs `plan init`.
func Init(m *Meta, chdir string, args []string) int {
	fs := newFlagSetT("plan init", m.Stderr, initUsage)
	fs.StringVar(&chdir, "chdir", chdir, "switch to this working directory before anything else")
	var pluginDirs multiFlag
	fs.Var(&pluginDirs, "plugin-dir", "install only from this filesystem mirror (repeatable)")
	upgrade := fs.Bool("upgrade", false, "select the newest allowed versions")
	lockfile := fs.String("lockfile", "", "readonly: never change the lock file")
	noColor := fs.Bool("no-color", false, "no colour")
	jsonOut := fs.Bool("json", false, "machine-readable output")
	var backendConfig multiFlag
	fs.Var(&backendConfig, "backend-config", "backend setting KEY=VALUE, or a file of them (repeatable)")
	if code, ok := fs.parse(m, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return usageError(m, "plan init takes no positional arguments; the configuration directory is the working directory, or -chdir=DIR")
	}
	if *lockfile == "readonly" && *upgrade {
		return usageError(m, "-upgrade changes the lock file, which -lockfile=readonly forbids")
	}
	if *lockfile != "" && *lockfile != "readonly" {
		return usageError(m, fmt.Sprintf("-lockfile must be \"readonly\" (got %q)", *lockfile))
	}
	wd := m.workDir(chdir)
	u := newUI(m.Streams, *jsonOut, *noColor)
	ctx, cancel := context.WithCancel(m.ctx())
	defer cancel()
	stop := watchInterrupts(m, u, cancel, nil)
	defer stop()
	if ds := installModules(ctx, m, u, wd, *upgrade); ds.HasErrors() {
		u.diags(ds, views.Sources{Dir: wd})
		return ExitError
	}
	config, diags := configs.LoadConfigDir(wd)
	src := views.Sources{Dir: wd}
	if config != nil {
		src.Files = config.SourceFiles()
	}
	if diags.HasErrors() {
		u.diags(diags, src)
		return ExitError
	}
	if ds := initBackend(ctx, m, u, wd, config, backendConfig); ds.HasErrors() {
		u.diags(ds, src)
		return ExitError
	}
	// The state's providers are installed too; a state that cannot be read
	// (a backend not reachable yet) only means the configuration's.
	state, _, ds := readStateForCommand(m, wd, "", backendConfig)
	if ds.HasErrors() {
		state = nil
	}
	u.line("\n" + u.col.Bold("Initializing provider plugins..."))
	// Ctrl-C stops the downloads; what was not verified and renamed into
	// place is removed.
	created, ds := installProviders(ctx, m, u, providerInstallRequest{wd: wd, pluginDirs: pluginDirs, config: config, state: state, upgrade: *upgrade, readonly: *lockfile == "readonly"})
	diags = append(diags, ds...)
	if diags.HasErrors() {
		u.diags(diags, src)
		return ExitError
	}
	if created {
		u.line(fmt.Sprintf("\nplankit has created a lock file %s to record the provider\nselections it made above. Include this file in your version control repository\nso that plankit, Terraform and OpenTofu make the same selections by default\nwhen you run them in the future.", depsfile.LockFilePath))
	}
	u.diags(diags, src)
	u.line("\n" + u.col.Bold(u.col.Green("plankit has been successfully initialized!")) + "\n")
	return ExitOK
}

// initBackend checks the backend's settings and, for a remote backend,
// connects to it (pg creates its schema, tables and index unless told not
// to), as terraform init does; the local backend needs nothing.
func initBackend(ctx context.Context, m *Meta, u *ui, wd string, config *configs.Config, backendConfig []string) hcl.Diagnostics {
	settings, diags := operation.ResolveBackend(m.Env, wd, config, "", backendConfig, nil)
	if diags.HasErrors() || !settings.Remote() {
		return diags
	}
	u.line("\n" + u.col.Bold("Initializing the backend..."))
	be, err := settings.Open(ctx)
	if err != nil {
		return append(diags, tfdiags.Errorf("Failed to open the state backend", "%s", err))
	}
	be.Close()
	if settings.Type() == "s3" {
		diags = append(diags, s3InitNotes(u, settings.S3Config())...)
	}
	u.line(u.col.Green(fmt.Sprintf("Successfully configured the backend %q!", settings.Type())))
	return diags
}

// line prints a progress line: stdout, or a -json "log" message.
func (u *ui) line(msg string) {
	if u.json != nil {
		u.json.Emit("info", "log", strings.TrimSpace(msg), nil)
		return
	}
	fmt.Fprintln(u.out, msg)
}

// providerInstall installs the providers plan init needs, one at a time,
// recording each one's lock entry in newLocks.
type providerInstall struct {
	ctx         context.Context
	u           *ui
	inst        *install.Installer
	locks       *depsfile.Locks // the lock file as it was
	newLocks    *depsfile.Locks
	constraints map[addrs.Provider]version.Constraints
	builtins    map[addrs.Provider]string
	upgrade     bool
}

// install installs p, or takes it from a development override or, when no
// source offers it, from the built-ins. stop is set when the context
// ended: nothing more is installed.
func (pi *providerInstall) install(p addrs.Provider) (diag *hcl.Diagnostic, stop bool) {
	ctx, u, inst, locks, newLocks, constraints, builtins, upgrade := pi.ctx, pi.u, pi.inst, pi.locks, pi.newLocks, pi.constraints, pi.builtins, pi.upgrade
	lock := locks.Provider(p)
	if dir, file, ok := inst.DevOverride(p); ok {
		// Served from the override by plan and apply: nothing to
		// install, nothing to lock (a lock entry already there stays).
		u.line(fmt.Sprintf("- Skipped %s: dev_overrides in %s serves it from %s", p.ForDisplay(), file, dir))
		if lock != nil {
			newLocks.SetProvider(p, lock.Version(), lock.VersionConstraints(), lock.Hashes())
		}
		return nil, false
	}
	w := install.Want{Provider: p, Constraints: constraints[p], Upgrade: upgrade, LockFile: depsfile.LockFilePath}
	if lock != nil {
		w.Locked, w.LockedHashes = lock.Version(), lock.Hashes()
	}
	res, err := inst.Install(ctx, w, func(s string) { u.line("- " + s) })
	if bv, ok := builtins[p]; ok && err != nil && ctx.Err() == nil {
		// The configured sources come first, as for tofu init; the
		// built-in serves only a provider none of them offers.
		if why, none := noSourceOffers(err); none {
			d := useBuiltin(u, p, bv, why, lock, upgrade)
			if d == nil && lock != nil && (bv == "" || sameVersionString(lock.Version(), bv)) {
				newLocks.SetProvider(p, lock.Version(), lock.VersionConstraints(), lock.Hashes())
			}
			return d, false
		}
	}
	if err != nil {
		return initDiag(err), ctx.Err() != nil
	}
	switch res.Reused {
	case "previously-installed":
		u.line(fmt.Sprintf("- Using previously-installed %s v%s", p.ForDisplay(), res.Version))
	case "cache":
	default:
		u.line(installedLine(p, res))
	}
	newLocks.SetProvider(p, res.Version, depsfile.ConstraintsString(constraints[p]), res.Hashes)
	return nil, false
}

// servedBuiltins are the built-in providers (and their versions) that
// m's in-process factories serve in the directory abs.
func servedBuiltins(m *Meta, abs string) map[addrs.Provider]string {
	builtins := map[addrs.Provider]string{}
	if m.ProvidersIn != nil {
		served := m.ProvidersIn(abs)
		for p, v := range builtin.Versions() {
			if _, ok := served[builtin.Canonical(p)]; ok {
				builtins[p] = v
			}
		}
	}
	return builtins
}

// unlockedProviders refuses, for -lockfile=readonly, the needed providers
// the lock file does not record (other than development overrides and
// the built-ins); nil when it records them all.
func unlockedProviders(inst *install.Installer, needed []addrs.Provider, builtins map[addrs.Provider]string, locks *depsfile.Locks) *hcl.Diagnostic {
	var missing []string
	for _, p := range needed {
		if _, _, dev := inst.DevOverride(p); dev {
			continue
		}
		if _, ok := builtins[p]; !ok && !p.IsBuiltIn() && locks.Provider(p) == nil {
			missing = append(missing, p.ForDisplay())
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return tfdiags.Errorf("Provider dependency changes detected",
		"-lockfile=readonly forbids changing %s, but it does not record: %s.\n\nRun plan init without -lockfile=readonly to record them, and commit the lock file.", depsfile.LockFilePath, strings.Join(missing, ", "))
}

// lockChanges refuses, for -lockfile=readonly, selections that differ
// from the lock file's, naming the providers whose entries differ.
func lockChanges(locks, newLocks *depsfile.Locks) *hcl.Diagnostic {
	var changed []string
	for _, p := range newLocks.SortedProviders() {
		if !newLocks.Provider(p).Equal(locks.Provider(p)) {
			changed = append(changed, p.ForDisplay())
		}
	}
	for _, p := range locks.SortedProviders() {
		if newLocks.Provider(p) == nil && !slices.Contains(changed, p.ForDisplay()) {
			changed = append(changed, p.ForDisplay())
		}
	}
	return tfdiags.Errorf("Provider dependency changes detected",
		"-lockfile=readonly forbids changing %s, but the selections differ for: %s.\n\nRun plan init without -lockfile=readonly to record them, and commit the lock file.", depsfile.LockFilePath, strings.Join(changed, ", "))
}

// providerInstallRequest is what installProviders installs for: the
// providers the configuration and state of wd need, from the -plugin-dir
// mirrors first; upgrade and readonly are -upgrade and
// -lockfile=readonly.
type providerInstallRequest struct {
	wd                string
	pluginDirs        []string
	config            *configs.Config
	state             *states.State
	upgrade, readonly bool
}

// installProviders installs every provider the configuration and the
// state need and updates the lock file (a provider plankit has built in
// is installed when a source offers it, else served built in); created reports whether the lock file is new. With readonly,
// a lock file that would change is an error and is not written.
func installProviders(ctx context.Context, m *Meta, u *ui, req providerInstallRequest) (created bool, diags hcl.Diagnostics) {
	wd, pluginDirs, upgrade, readonly, config, state := req.wd, req.pluginDirs, req.upgrade, req.readonly, req.config, req.state
	abs, err := filepath.Abs(wd)
	if err != nil {
		abs = wd
	}
	dirs := make([]string, len(pluginDirs))
	for i, d := range pluginDirs {
		dirs[i] = operation.Resolve(wd, d)
	}
	lockPath := filepath.Join(wd, depsfile.LockFilePath)
	locks, diags := depsfile.LoadLocksFromFile(lockPath)
	if diags.HasErrors() {
		return false, diags
	}
	inst, ds := install.NewInstaller(install.InstallerOptions{WorkingDir: abs, Env: m.Env, PluginDirs: dirs, HTTPClient: m.HTTPClient, ProgressBar: u.bar(m)})
	diags = append(diags, ds...)
	if ds.HasErrors() {
		return false, diags
	}
	builtins := servedBuiltins(m, abs)
	needs := m.ProviderSource().NeedsFor(wd, config, state, locks)
	constraints := needs.Constraints
	newLocks := depsfile.NewLocks()
	needed := needs.Providers
	if readonly {
		// Refused before anything is installed.
		if d := unlockedProviders(inst, needed, builtins, locks); d != nil {
			return false, append(diags, d)
		}
	}
	pi := &providerInstall{ctx: ctx, u: u, inst: inst, locks: locks, newLocks: newLocks, constraints: constraints, builtins: builtins, upgrade: upgrade}
	for _, p := range needed {
		if p.IsBuiltIn() {
			continue
		}
		d, stop := pi.install(p)
		if d != nil {
			diags = append(diags, d)
		}
		if stop {
			return false, diags
		}
	}
	if diags.HasErrors() {
		return false, diags
	}
	if newLocks.Equal(locks) {
		return false, diags
	}
	if readonly {
		return false, append(diags, lockChanges(locks, newLocks))
	}
	created = locks.Empty()
	if newLocks.Empty() {
		return false, diags
	}
	if err := depsfile.UpdateLockFile(newLocks, lockPath); err != nil {
		return false, append(diags, tfdiags.Errorf("Cannot write the lock file", "%s", err))
	}
	return created, diags
}

// noSourceOffers reports whether an installation error means that no
// configured source offers the provider at all (none lists it, or the
// only ones that might cannot be reached), and says which for the user.
func noSourceOffers(err error) (why string, ok bool) {
	e, isErr := err.(*install.Error)
	if !isErr {
		return "", false
	}
	switch e.Kind {
	case install.NotFound:
		return "no installation source offers it", true
	case install.Unreachable:
		return "its installation source could not be reached", true
	}
	return "", false
}

// useBuiltin says, once, that plankit's built-in serves p (compatible
// with version bv) because why. A lock entry of another version cannot
// be served by it: that is an error, unless -upgrade drops the entry.
func useBuiltin(u *ui, p addrs.Provider, bv, why string, lock *depsfile.ProviderLock, upgrade bool) *hcl.Diagnostic {
	if lock != nil && !upgrade && bv != "" && !sameVersionString(lock.Version(), bv) {
		return tfdiags.Errorf("Locked provider version is not available",
			"%s locks %s at %s, but %s, and plankit's built-in %s is compatible with %s, not %s.\n\nMake version %s available to plan init (a filesystem_mirror, network_mirror or -plugin-dir), or run plan init -upgrade to use the built-in and drop the lock entry.",
			depsfile.LockFilePath, p.ForDisplay(), lock.Version(), why, p.ForDisplay(), bv, lock.Version(), lock.Version())
	}
	msg := fmt.Sprintf("- Using %s built into plankit", p.ForDisplay())
	if bv != "" {
		msg += fmt.Sprintf(" (compatible with v%s)", bv)
	}
	u.line(msg + ": " + why)
	return nil
}

// sameVersionString reports whether a and b are the same version ("3.2"
// and "3.2.0" are).
func sameVersionString(a, b string) bool {
	va, err1 := version.NewVersion(a)
	vb, err2 := version.NewVersion(b)
	if err1 != nil || err2 != nil {
		return a == b
	}
	return va.Equal(vb) && va.Prerelease() == vb.Prerelease()
}

func initDiag(err error) *hcl.Diagnostic {
	if e, ok := err.(*install.Error); ok {
		return tfdiags.Error(e.Summary, e.Detail)
	}
	return tfdiags.Error("Failed to install provider", err.Error())
}

// installLocked is apply -install FILE: every provider the archive's
// configuration and state need is installed at exactly the archive's
// locked version, and only a package matching one of the archive's
// recorded hashes is accepted. Nothing is written to the lock file.
func installLocked(m *Meta, u *ui, wd string, pluginDirs []string, config *configs.Config, state *states.State, locks *depsfile.Locks) hcl.Diagnostics {
	abs, err := filepath.Abs(wd)
	if err != nil {
		abs = wd
	}
	dirs := make([]string, len(pluginDirs))
	for i, d := range pluginDirs {
		dirs[i] = operation.Resolve(wd, d)
	}
	inst, diags := install.NewInstaller(install.InstallerOptions{WorkingDir: abs, Env: m.Env, PluginDirs: dirs, HTTPClient: m.HTTPClient, ProgressBar: u.bar(m)})
	if diags.HasErrors() {
		return diags
	}
	builtins := builtin.Versions()
	for _, p := range m.ProviderSource().NeedsFor(wd, config, state, locks).Providers {
		if p.IsBuiltIn() {
			continue
		}
		lock := locks.Provider(p)
		if _, _, ok := inst.DevOverride(p); ok {
			continue // served from dev_overrides: nothing to install
		}
		if lock == nil {
			if _, ok := builtins[p]; ok {
				continue // served built in when plan did
			}
			diags = append(diags, tfdiags.Errorf("Provider missing from the plan's lock file",
				"The plan needs provider %s, but the plan's dependency lock file does not record it, so apply -install cannot know which package to trust. Plan again to record it.", p.ForDisplay()))
			continue
		}
		if len(lock.Hashes()) == 0 {
			diags = append(diags, tfdiags.Errorf("No hashes recorded for provider",
				"The plan's lock file records %s v%s without package hashes, so apply -install cannot check a downloaded package. Install it yourself (plan init) or plan again with it installed.", p.ForDisplay(), lock.Version()))
			continue
		}
		w := install.Want{Provider: p, Locked: lock.Version(), LockedHashes: lock.Hashes(), LockFile: "the plan's lock file"}
		res, err := inst.Install(m.ctx(), w, func(s string) { u.line("- " + s) })
		if err != nil {
			diags = append(diags, initDiag(err))
			continue
		}
		if res.Reused == "" {
			u.line(installedLine(p, res))
		}
	}
	return diags
}

// installedLine is the "- Installed" line: the package's signer, or what
// else vouched for it, in parentheses, and no parentheses when nothing
// was said.
func installedLine(p addrs.Provider, res *install.Result) string {
	line := fmt.Sprintf("- Installed %s v%s", p.ForDisplay(), res.Version)
	if res.Auth != "" {
		line += " (" + res.Auth + ")"
	}
	return line
}

// bar is where download progress bars go: stdout when it is a terminal
// and the output is for people.
func (u *ui) bar(m *Meta) io.Writer {
	if u.json != nil || !m.StdoutTTY {
		return nil
	}
	return m.Stdout
}

// installModules installs the modules the configuration at wd calls
// (initwd), printing the "Initializing modules..." section (with
// -upgrade "Upgrading modules...", as tofu init says) when there are any,
// that is when .terraform/modules/modules.json is written.
func installModules(ctx context.Context, m *Meta, u *ui, wd string, upgrade bool) hcl.Diagnostics {
	started := false
	header := "Initializing modules..."
	if upgrade {
		header = "Upgrading modules..."
	}
	return initwd.InstallModules(ctx, wd, initwd.Options{HTTPClient: m.HTTPClient, Upgrade: upgrade, Progress: func(s string) {
		if !started {
			u.line(u.col.Bold(header))
			started = true
		}
		u.line(s)
	}})
}

// s3InitNotes says what `plan init` checked of an s3 backend, and warns
// when nothing locks its state.
func s3InitNotes(u *ui, cfg s3.Config) hcl.Diagnostics {
	if cfg.UseLockfile {
		u.line(fmt.Sprintf("The S3 server refused a second conditional PUT (If-None-Match: *) of an object in bucket %q: use_lockfile locks the state.", cfg.Bucket))
		return nil
	}
	return hcl.Diagnostics{{Severity: hcl.DiagWarning, Summary: "The s3 backend's state is not locked",
		Detail: "The s3 backend has no use_lockfile, so nothing keeps two runs from writing the state at once. Set use_lockfile = true (the lock object Terraform 1.10+ and OpenTofu 1.10+ share); plankit does not lock with DynamoDB."}}
}
