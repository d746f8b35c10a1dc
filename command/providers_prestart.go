package command

import (
	"path/filepath"
	"sync"

	"github.com/plankit/plankit/depsfile"
	"github.com/plankit/plankit/providers/install"
)

// prestartLocked starts, in the background, the plugin providers the
// lock file records, so that their processes launch, shake hands and
// answer GetProviderSchema while the command loads the configuration,
// the state or the plan archive; the core's first start of each then
// takes the process already running (providers/plugin.Prestart). locks
// nil reads the working directory's lock file.
//
// Only a package that Find verifies against its lock entry (version and
// hashes) is started, as the command's own resolution would; nothing is
// reported here: that resolution finds the same packages again (the
// hashes are remembered) and reports every problem. A provider the
// command turns out not to need, or a command that fails first, leaves
// a process that providers/plugin stops (CleanupClients, deferred by
// every command).
//
// It returns a function that waits until every start has been handed to
// providers/plugin, which the caller defers: after it returns nothing
// more is started.
func prestartLocked(m *Meta, wd string, pluginDirs []string, locks *depsfile.Locks) (wait func()) {
	if m.PrestartPlugin == nil || m.Plugins == nil || !m.discovers() {
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
		finder, ds := m.newFinder(wd, pluginDirs)
		if ds.HasErrors() {
			return
		}
		for p, lock := range all {
			if _, dev := finder.DevOverrides[p]; dev {
				continue // not what the lock entry describes
			}
			sel, err := finder.Find(install.Requirement{Provider: p, Locked: lock.Version(), LockedHashes: lock.Hashes(), LockFile: depsfile.LockFilePath})
			if err != nil || sel.BuiltIn || sel.Executable == "" {
				continue
			}
			m.PrestartPlugin(sel.Provider, sel.Version, sel.Executable)
		}
	})
	return wg.Wait
}
