package operation

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	version "github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/depsfile"
	"github.com/plankit/plankit/internal/providers/builtin"
	"github.com/plankit/plankit/internal/providers/install"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/tfdiags"
)

// PluginFactory starts a provider plugin: the provider p at version,
// served by the executable (cli wires it to providers/plugin.Factory).
type PluginFactory func(p addrs.Provider, version, executable string) providers.Factory

// ProviderSource is where a run's providers come from, as plain values a
// command takes from its process: discovery (providers/install) finds
// plugins and built-ins, unless Fixed gives the factories outright.
type ProviderSource struct {
	// Env is the process environment as KEY=VALUE (HOME,
	// TF_CLI_CONFIG_FILE, TF_PLUGIN_CACHE_DIR, TF_DATA_DIR).
	Env []string
	// Fixed, when set, is the set of provider factories to use, with no
	// discovery (tests pass doubles here).
	Fixed map[addrs.Provider]providers.Factory
	// In, when set, builds the built-in providers' factories for a
	// working directory (its absolute path).
	In func(workingDir string) map[addrs.Provider]providers.Factory
	// Plugins starts the provider plugins discovery finds.
	Plugins PluginFactory
	// Prestart, when set, starts the plugin Plugins would serve for the
	// same arguments in the background (see PrestartLocked).
	Prestart func(p addrs.Provider, version, executable string)
}

// ResolvedProviders is how the providers of one run are served.
type ResolvedProviders struct {
	Factories map[addrs.Provider]providers.Factory
	// Selections are the discovery results by provider (nil when the
	// source gives fixed factories).
	Selections map[addrs.Provider]*install.Selection
	// Locks are the dependency locks the run was checked against, with
	// what plan recorded: what the archive carries.
	Locks *depsfile.Locks
	// Recorded lists the selections ("ADDRESS VERSION") plan added to
	// the working directory's lock file, for the command to report.
	Recorded []string
}

// Discovers reports whether providers are found by discovery
// (providers/install) rather than given as a fixed map (tests).
func (s *ProviderSource) Discovers() bool { return s.Fixed == nil }

// ProviderNeeds is what one run needs of providers: every provider the
// configuration and the state need, by the address it is served as
// (hosts), and the version constraints of each.
type ProviderNeeds struct {
	Providers   []addrs.Provider
	Constraints map[addrs.Provider]version.Constraints
	// hosts maps each configuration address served under another host
	// (providerHosts).
	hosts providerHosts
}

// NeedsFor returns what the configuration and state need, the
// configuration's implied registry hosts resolved against the working
// directory wd and its lock file locks (hostEvidence).
func (s *ProviderSource) NeedsFor(wd string, config *configs.Config, state *states.State, locks *depsfile.Locks) ProviderNeeds {
	abs, err := filepath.Abs(wd)
	if err != nil {
		abs = wd
	}
	hosts := resolveHosts(newHostEvidence(install.ProvidersDir(abs, s.Env), locks, state), config, state)
	return ProviderNeeds{Providers: neededProviders(config, state, hosts), Constraints: versionConstraints(config, hosts), hosts: hosts}
}

// NeededProviders returns every provider the configuration and the
// state need, sorted, by the addresses they name.
func NeededProviders(config *configs.Config, state *states.State) []addrs.Provider {
	return neededProviders(config, state, nil)
}

// neededProviders returns every provider the configuration and the state
// need, sorted, the configuration's by the address hosts serves them as.
func neededProviders(config *configs.Config, state *states.State, hosts providerHosts) []addrs.Provider {
	seen := map[addrs.Provider]bool{}
	if config != nil {
		for _, p := range config.ProviderTypes() {
			seen[hosts.of(p)] = true
		}
	}
	for _, p := range StateProviders(state) {
		seen[hosts.of(p)] = true
	}
	out := make([]addrs.Provider, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// StateProviders returns the providers the state's resources name, sorted.
func StateProviders(state *states.State) []addrs.Provider {
	if state == nil {
		return nil
	}
	seen := map[addrs.Provider]bool{}
	for _, m := range state.Modules {
		for _, r := range m.Resources {
			if !r.ProviderConfig.Provider.IsZero() {
				seen[r.ProviderConfig.Provider] = true
			}
		}
	}
	out := make([]addrs.Provider, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// versionConstraints merges the version constraints every module of the
// configuration gives each provider.
func versionConstraints(config *configs.Config, hosts providerHosts) map[addrs.Provider]version.Constraints {
	out := map[addrs.Provider]version.Constraints{}
	if config == nil {
		return out
	}
	config.DeepEach(func(c *configs.Config) {
		names := make([]string, 0, len(c.Module.ProviderRequirements))
		for name := range c.Module.ProviderRequirements {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			rp := c.Module.ProviderRequirements[name]
			p := hosts.of(rp.Type)
			out[p] = append(out[p], rp.Requirement.Required...)
		}
	})
	return out
}

// NewFinder builds the discovery for working directory wd.
func (s *ProviderSource) NewFinder(wd string, pluginDirs []string) (*install.Finder, hcl.Diagnostics) {
	abs, err := filepath.Abs(wd)
	if err != nil {
		abs = wd
	}
	dirs := make([]string, len(pluginDirs))
	for i, d := range pluginDirs {
		dirs[i] = Resolve(wd, d)
	}
	builtins := map[addrs.Provider]string{}
	if s.In != nil {
		served := s.In(abs)
		for p, v := range builtin.Versions() {
			if _, ok := served[builtin.Canonical(p)]; ok {
				builtins[p] = v
			}
		}
	}
	return install.NewFinder(install.Options{PluginDirs: dirs, WorkingDir: abs, Env: s.Env, Builtins: builtins})
}

// factoryFor returns the factory serving a selection.
func (s *ProviderSource) factoryFor(sel *install.Selection, builtins map[addrs.Provider]providers.Factory) providers.Factory {
	if sel.BuiltIn {
		return builtins[builtin.Canonical(sel.Provider)]
	}
	if s.Plugins == nil {
		return nil
	}
	return s.Plugins(sel.Provider, sel.Version, sel.Executable)
}

func (s *ProviderSource) builtinFactories(wd string) map[addrs.Provider]providers.Factory {
	if s.In == nil {
		return nil
	}
	abs, err := filepath.Abs(wd)
	if err != nil {
		abs = wd
	}
	return s.In(abs)
}

// SelectProviders runs discovery for every needed provider, holding
// each locked one to its lock entry (lockFile names the lock for
// messages; fix says how to install a provider not found). The selections of the providers that failed are missing and
// their errors are in the diagnostics.
func SelectProviders(finder *install.Finder, needs ProviderNeeds, locks *depsfile.Locks, lockFile string, fix ProviderFix) (map[addrs.Provider]*install.Selection, hcl.Diagnostics) {
	constraints := needs.Constraints
	out := map[addrs.Provider]*install.Selection{}
	var diags hcl.Diagnostics
	var overridden []string
	for _, p := range needs.Providers {
		req := install.Requirement{Provider: p, Constraints: constraints[p], LockFile: lockFile}
		if _, dev := finder.DevOverrides[p]; dev {
			// A development override ignores constraints and locks.
			sel, err := finder.Find(req)
			if err != nil {
				diags = append(diags, installDiag(err, fix))
				continue
			}
			out[p] = sel
			overridden = append(overridden, fmt.Sprintf("%s in %s", p.ForDisplay(), sel.Dir))
			continue
		}
		if lock := locks.Provider(p); lock != nil {
			req.Locked, req.LockedHashes = lock.Version(), lock.Hashes()
			if d := lockOutsideConstraints(p, lock, req.Constraints, lockFile); d != nil && !builtinOnly(finder, p) {
				diags = append(diags, d)
				continue
			}
		}
		sel, err := finder.Find(req)
		if err != nil {
			diags = append(diags, installDiag(err, fix))
			continue
		}
		out[p] = sel
	}
	if len(overridden) > 0 {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Provider development overrides are in effect",
			Detail: fmt.Sprintf("The CLI configuration %s overrides these providers with development builds (dev_overrides):\n  - %s\n\nTheir version constraints and the dependency lock file are not checked for them, and nothing is recorded for them in the lock file. They may behave unlike any released version, and applying with them may leave state that released versions cannot read.",
				finder.DevOverridesFile, strings.Join(overridden, "\n  - "))})
	}
	return out, diags
}

// ResolvePlanProviders finds every provider the configuration and state
// need, checked against the working directory's lock file. Providers
// served by a plugin that the lock file lacks are recorded in it (with
// their hashes) and the file is written, listed in Recorded for the
// command to report; entries already there are never rewritten.
// Built-ins are never recorded.
func (s *ProviderSource) ResolvePlanProviders(wd string, pluginDirs []string, config *configs.Config, state *states.State) (*ResolvedProviders, hcl.Diagnostics) {
	lockPath := filepath.Join(wd, depsfile.LockFilePath)
	locks, diags := depsfile.LoadLocksFromFile(lockPath)
	if diags.HasErrors() {
		return nil, diags
	}
	if !s.Discovers() {
		return &ResolvedProviders{Factories: s.Fixed, Locks: legacyLocks(locks, config, s.Fixed)}, diags
	}
	finder, ds := s.NewFinder(wd, pluginDirs)
	diags = append(diags, ds...)
	if ds.HasErrors() {
		return nil, diags
	}
	needs := s.NeedsFor(wd, config, state, locks)
	sels, ds := SelectProviders(finder, needs, locks, depsfile.LockFilePath, InitFix)
	diags = append(diags, ds...)
	if diags.HasErrors() {
		return nil, diags
	}
	res := &ResolvedProviders{Factories: map[addrs.Provider]providers.Factory{}, Selections: sels}
	builtins := s.builtinFactories(wd)
	constraints := needs.Constraints
	archive := locks.DeepCopy()
	var added []string
	for _, p := range sortedProviders(sels) {
		sel := sels[p]
		res.Factories[p] = s.factoryFor(sel, builtins)
		if sel.BuiltIn || sel.DevOverride != "" {
			continue // never locked
		}
		if locks.Provider(p) == nil {
			locks.SetProvider(p, sel.Version, constraintString(constraints[p]), sel.Hashes)
			added = append(added, fmt.Sprintf("%s %s", p.String(), sel.Version))
		}
		// The archive's copy trusts the package plan used, so apply can
		// check an unpacked copy of a package verified here by zh:.
		l := locks.Provider(p)
		archive.SetProvider(p, l.Version(), l.VersionConstraints(), append(l.Hashes(), sel.Hashes...))
	}
	if len(added) > 0 {
		if err := depsfile.UpdateLockFile(locks, lockPath); err != nil {
			return nil, append(diags, tfdiags.Errorf("Cannot record the provider selections", "%s", err))
		}
		res.Recorded = added
	}
	res.Locks = archive
	needs.hosts.alias(res.Factories)
	s.prestartSelected(sels)
	return res, diags
}

func sortedProviders[V any](m map[addrs.Provider]V) []addrs.Provider {
	out := make([]addrs.Provider, 0, len(m))
	for p := range m {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// builtinOnly reports whether p would be served by a built-in (no plugin
// package of it is installed): a lock entry then does not bind it.
func builtinOnly(f *install.Finder, p addrs.Provider) bool {
	if _, ok := f.Builtins[p]; !ok {
		return false
	}
	sel, err := f.Find(install.Requirement{Provider: p})
	return err == nil && sel.BuiltIn
}

// lockOutsideConstraints is the error for a lock entry whose version the
// configuration's constraints no longer allow.
func lockOutsideConstraints(p addrs.Provider, lock *depsfile.ProviderLock, c version.Constraints, lockFile string) *hcl.Diagnostic {
	v, err := version.NewVersion(lock.Version())
	if err != nil || len(c) == 0 || c.Check(v) {
		return nil
	}
	return tfdiags.Errorf("Locked provider version does not meet the constraints",
		"%s locks %s at %s, but the configuration requires %s.\n\nTo move to a version that meets the constraints, run plan init -upgrade (terraform init -upgrade and tofu init -upgrade do the same), or remove the block provider %q from %s and plan again with a matching version installed.",
		lockFile, p.ForDisplay(), lock.Version(), c.String(), p.String(), lockFile)
}

// constraintString is the lock file's constraints argument: Terraform's
// canonical form of every module's constraints.
func constraintString(c version.Constraints) string { return depsfile.ConstraintsString(c) }

func installDiag(err error, fix ProviderFix) *hcl.Diagnostic {
	if e, ok := err.(*install.Error); ok {
		if f := fix(e.Kind); f != "" {
			return tfdiags.Error(e.Summary, e.Detail+"\n\n"+f)
		}
		return tfdiags.Error(e.Summary, e.Detail)
	}
	return tfdiags.Error("Cannot find provider", err.Error())
}

// ResolveApplyProviders finds the providers a saved plan needs and checks
// each installed package against the archive's lock file, before any
// provider is started. Lock entries for providers the plan does not need
// are ignored; a provider served by a plugin must be locked.
func (s *ProviderSource) ResolveApplyProviders(wd, planFile string, pluginDirs []string, config *configs.Config, state *states.State, locks *depsfile.Locks) (map[addrs.Provider]providers.Factory, hcl.Diagnostics) {
	if locks == nil {
		locks = depsfile.NewLocks()
	}
	if !s.Discovers() {
		return s.Fixed, providerMismatch(locks, config, s.Fixed)
	}
	finder, diags := s.NewFinder(wd, pluginDirs)
	if diags.HasErrors() {
		return nil, diags
	}
	needs := s.NeedsFor(wd, config, state, locks)
	sels, diags := SelectProviders(finder, needs, locks, "the plan's lock file", ApplyFix(planFile))
	builtins := s.builtinFactories(wd)
	factories := map[addrs.Provider]providers.Factory{}
	for _, p := range sortedProviders(sels) {
		sel := sels[p]
		if !sel.BuiltIn && sel.DevOverride == "" && locks.Provider(p) == nil {
			diags = append(diags, tfdiags.Errorf("Provider missing from the plan's lock file",
				"The plan needs provider %s, found at %s, but the plan's dependency lock file does not record it, so the package cannot be checked. Plan again to record it.", p.ForDisplay(), sel.Where()))
			continue
		}
		factories[p] = s.factoryFor(sel, builtins)
	}
	if diags.HasErrors() {
		return nil, diags
	}
	needs.hosts.alias(factories)
	return factories, diags
}

// DiscoveredFactories serves the providers a read-only command (graph)
// needs, found by discovery and checked against locks, or the source's
// fixed map.
func (s *ProviderSource) DiscoveredFactories(wd string, pluginDirs []string, config *configs.Config, state *states.State, locks *depsfile.Locks, lockFile string, fix ProviderFix) (map[addrs.Provider]providers.Factory, hcl.Diagnostics) {
	if !s.Discovers() {
		return s.Fixed, nil
	}
	finder, diags := s.NewFinder(wd, pluginDirs)
	if diags.HasErrors() {
		return nil, diags
	}
	needs := s.NeedsFor(wd, config, state, locks)
	sels, ds := SelectProviders(finder, needs, locks, lockFile, fix)
	diags = append(diags, ds...)
	builtins := s.builtinFactories(wd)
	factories := map[addrs.Provider]providers.Factory{}
	for p, sel := range sels {
		factories[p] = s.factoryFor(sel, builtins)
	}
	needs.hosts.alias(factories)
	return factories, diags
}

// legacyLocks is planLocks for a fixed provider map (tests): the lock
// file plus every non-built-in provider of the map at plankit's version.
func legacyLocks(locks *depsfile.Locks, config *configs.Config, factories map[addrs.Provider]providers.Factory) *depsfile.Locks {
	builtins := builtin.Versions()
	for _, p := range config.ProviderTypes() {
		if _, ok := builtins[p]; ok || p.IsBuiltIn() {
			continue
		}
		if _, ok := factories[p]; !ok {
			continue
		}
		constraints := ""
		if l := locks.Provider(p); l != nil {
			constraints = l.VersionConstraints()
		}
		locks.SetProvider(p, Version, constraints, nil)
	}
	return locks
}

// ValidateFactories serves plan validate: the configuration's providers,
// found as plan finds them and checked against the working directory's
// lock file, without recording anything.
func (s *ProviderSource) ValidateFactories(wd string, config *configs.Config) (map[addrs.Provider]providers.Factory, hcl.Diagnostics) {
	locks, diags := depsfile.LoadLocksFromFile(filepath.Join(wd, depsfile.LockFilePath))
	if diags.HasErrors() {
		return nil, diags
	}
	f, ds := s.DiscoveredFactories(wd, nil, config, nil, locks, depsfile.LockFilePath, InitFix)
	return f, append(diags, ds...)
}

// providerMismatch is apply's provider check when the source gives a fixed
// provider map (tests): every provider the configuration needs, except
// those a built-in serves, must be locked, available here and locked at
// plankit's Version (the version legacyLocks records). Lock entries the
// configuration does not need are ignored. O(providers).
func providerMismatch(locks *depsfile.Locks, config *configs.Config, factories map[addrs.Provider]providers.Factory) hcl.Diagnostics {
	if locks == nil {
		locks = depsfile.NewLocks()
	}
	var diags hcl.Diagnostics
	if config == nil {
		return nil
	}
	builtins := builtin.Versions()
	for _, p := range config.ProviderTypes() {
		if _, ok := builtins[p]; ok || p.IsBuiltIn() {
			continue
		}
		lock := locks.Provider(p)
		if lock == nil {
			diags = append(diags, tfdiags.Errorf("Provider missing from the plan's lock file",
				"The configuration in the plan needs provider %s, but the plan's dependency lock file does not record it, so the plan cannot say which version it was made with. Plan again to record it.", p.ForDisplay()))
			continue
		}
		if _, ok := factories[p]; !ok {
			diags = append(diags, tfdiags.Errorf("Provider not available",
				"The plan was made with provider %s %s, which is not available here. Apply with the same providers the plan was made with, or plan again.", p.ForDisplay(), lock.Version()))
			continue
		}
		if lock.Version() != Version {
			diags = append(diags, tfdiags.Errorf("Provider version does not match the plan",
				"The plan was made with provider %s %s, but the one here is version %s. Apply with the same providers the plan was made with, or plan again.", p.ForDisplay(), lock.Version(), Version))
		}
	}
	return diags
}
