package main

import (
	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/states/statemgr"
	"github.com/plankit/plankit/internal/terraform"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/states"
)

// filePersister is the driver's terraform.StateWriter for -state: the
// local state file with its journal, driven by a BackgroundPersister, as
// the apply command persists (so -state measures the real persistence).
type filePersister struct {
	mgr     *statemgr.Filesystem
	journal bool
	p       *statemgr.BackgroundPersister
}

var _ terraform.StateWriter = (*filePersister)(nil)

func (f *filePersister) Start(live *states.SyncState) {
	opts := statemgr.PersisterOptions{Source: live}
	if f.journal {
		if j, err := f.mgr.Journal(); err == nil {
			opts.Journal = j
		}
	}
	f.p = statemgr.NewBackgroundPersister(f.mgr, opts)
}

func (f *filePersister) Begin(addr addrs.AbsResourceInstance, _ addrs.DeposedKey, a plans.Action) error {
	return f.p.Begin(addr, a.String())
}

func (f *filePersister) Changed(addr addrs.AbsResourceInstance) { _ = f.p.Record(addr) }
func (f *filePersister) End(addr addrs.AbsResourceInstance)     { _ = f.p.End(addr) }

func (f *filePersister) Close() error {
	f.p.MarkDirty()
	return f.p.Close()
}
