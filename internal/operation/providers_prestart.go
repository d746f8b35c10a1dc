package operation

import (
	"path/filepath"
	"sync"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/depsfile"
	"github.com/plankit/plankit/internal/providers/install"
)

// PrestartLocked starts, in the background, the plugin providers a lock
// file records, so that their processes launch, shake hands and answer
// GetProviderSchema while the command loads the configuration, the state
// or the plan archive; the core's first start of each then takes the
// process already running (providers/plugin.Prestart). locks nil reads
// the working directory's lock file.
//
// It starts nothing unless every entry of the lock file verifies (Find
// with the entry's version and hashes: the package is installed and
// matches) and, when needed is given, every provider in needed is either
// locked or served by a built-in: so a command that is going to refuse a
// package, or a provider missing from the lock file, refuses it before
// any process starts, as it does without prestarting. The
// configuration's version constraints are not checked (plan calls it
// before reading the configuration): a lock entry outside them is refused
// after its verified package started, which is then stopped with the
// rest. Nothing is
// reported here: the command's own resolution finds the same packages
// again (the hashes are remembered) and reports every problem. A command
// that fails for another reason after its providers started, or that
// turns out not to need one, leaves processes that providers/plugin
// stops (CleanupClients, deferred by every command).
//
// It returns a function that waits until every start has been handed to
// providers/plugin, which the caller defers: after it returns nothing
// more is started.
func (s *ProviderSource) PrestartLocked(wd string, pluginDirs []string, locks *depsfile.Locks, needed []addrs.Provider) (wait func()) {
	if s.Prestart == nil || s.Plugins == nil || !s.Discovers() {
		return func() {}
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		if locks == nil {
			l, ds := depsfile.LoadLocksFromFile(filepath.Join(wd, depsfile.LockFilePath))
			if ds.HasErrors() {
				return
			}
			locks = l
		}
		all := locks.AllProviders()
		if len(all) == 0 {
			return
		}
		finder, ds := s.NewFinder(wd, pluginDirs)
		if ds.HasErrors() {
			return
		}
		var start []*install.Selection
		for _, p := range sortedProviders(all) {
			if _, dev := finder.DevOverrides[p]; dev {
				continue // served from the override, whatever the lock says
			}
			lock := all[p]
			sel, err := finder.Find(install.Requirement{Provider: p, Locked: lock.Version(), LockedHashes: lock.Hashes(), LockFile: depsfile.LockFilePath})
			if err != nil {
				return
			}
			if !sel.BuiltIn && sel.Executable != "" {
				start = append(start, sel)
			}
		}
		for _, p := range needed {
			if _, locked := all[p]; locked {
				continue
			}
			if _, dev := finder.DevOverrides[p]; dev {
				continue
			}
			if sel, err := finder.Find(install.Requirement{Provider: p}); err != nil || !sel.BuiltIn {
				return // to be refused (or recorded) by the command
			}
		}
		for _, sel := range start {
			s.Prestart(sel.Provider, sel.Version, sel.Executable)
		}
	})
	return wg.Wait
}

// prestartSelected starts every plugin provider of sels (verified by
// resolution) in the background, so that a run needing several providers
// starts them all at once rather than one after another as the core
// fetches their schemas. One PrestartLocked already started is not
// started again (providers/plugin.Prestart).
func (s *ProviderSource) prestartSelected(sels map[addrs.Provider]*install.Selection) {
	if s.Prestart == nil || s.Plugins == nil {
		return
	}
	for _, p := range sortedProviders(sels) {
		if sel := sels[p]; !sel.BuiltIn && sel.Executable != "" {
			s.Prestart(sel.Provider, sel.Version, sel.Executable)
		}
	}
}
