package operation

import (
	"sync"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/depsfile"
	"github.com/plankit/plankit/internal/terraform"
	"github.com/plankit/plankit/jsonplan"
	"github.com/plankit/plankit/planfile"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
)

// ShowSections makes the archive's show -json members
// (planfile.EntryShowJSON) while the plan is made, so that plan -out
// drops the configuration after the walk as a plain plan does: the core
// calls the func Start returns once the provider schemas are loaded,
// and the configuration member is written into a compressed entry on a
// goroutine of its own, beside the graph build and the walk; Finish,
// right after the walk, adds relevant_attributes from the plan's changes
// (it reads the configuration), and Entry returns the entry. The
// references of each change are followed on that goroutine as the walk
// reports the change (PostDiff, through Hook), so Finish is left little.
type ShowSections struct {
	done     chan struct{}
	feed     feedQueue
	buf      *planfile.EntryBuffer
	pending  *jsonplan.PendingSections
	err      error
	crashed  any
	finished bool
	// hosts is jsonplan.Options.Hosts of the plan's lock file.
	hosts map[addrs.Provider]addrs.Provider
}

// NewShowSections is the ShowSections of a plan whose providers the
// lock file locks records.
func NewShowSections(locks *depsfile.Locks) *ShowSections {
	s := &ShowSections{hosts: jsonplan.HostsFromLocks(locks)}
	s.feed.cond.L = &s.feed.mu
	return s
}

// Start returns the core's PlanOpts.SchemasLoaded for config.
func (s *ShowSections) Start(config *configs.Config) func(map[addrs.Provider]*providers.GetProviderSchemaResponse) {
	return func(schemas map[addrs.Provider]*providers.GetProviderSchemaResponse) {
		s.done = make(chan struct{})
		go func() {
			defer close(s.done)
			defer func() { s.crashed = recover() }()
			s.buf = planfile.NewEntryBuffer()
			s.pending, s.err = jsonplan.StartSections(s.buf, config, schemas, s.hosts)
			for {
				batch, open := s.feed.next()
				if s.err == nil {
					for _, addr := range batch {
						s.pending.Feed(addr)
					}
				}
				if !open {
					return
				}
			}
		}()
	}
}

// Finish waits until the configuration member is written, then writes
// relevant_attributes of plan p, after which nothing of the
// configuration is referenced from s: runPlan calls it before it drops
// the configuration after the walk (the configuration member has
// usually been written long before, beside the walk). The member cannot
// be interrupted (it is short next to the walk).
// A panic while writing it is raised again here.
func (s *ShowSections) Finish(p *plans.Plan) {
	if s == nil || s.done == nil || s.finished {
		return
	}
	s.feed.close()
	<-s.done
	if s.crashed != nil {
		panic(s.crashed)
	}
	s.finished = true
	if s.err == nil {
		s.err = s.pending.Finish(p)
		s.pending = nil
	}
}

// Hook is the walk's hook that reports each change to s (nil s: a hook
// that does nothing).
func (s *ShowSections) Hook() terraform.Hook {
	if s == nil {
		return terraform.NilHook{}
	}
	return sectionsHook{s: s}
}

type sectionsHook struct {
	terraform.NilHook
	s *ShowSections
}

func (h sectionsHook) PostDiff(addr addrs.AbsResourceInstance, _ addrs.DeposedKey, action plans.Action, _, _ cty.Value) (terraform.HookAction, error) {
	if action != plans.NoOp {
		h.s.feed.push(addr)
	}
	return terraform.HookActionContinue, nil
}

// feedQueue hands the walk's changes to the sections' goroutine without
// making the walk wait for it.
type feedQueue struct {
	mu     sync.Mutex
	cond   sync.Cond // L is &mu
	queue  []addrs.AbsResourceInstance
	closed bool
}

func (q *feedQueue) push(addr addrs.AbsResourceInstance) {
	q.mu.Lock()
	if !q.closed {
		q.queue = append(q.queue, addr)
		q.cond.Signal()
	}
	q.mu.Unlock()
}

// next waits for changes or the end, and returns what was queued and
// whether more may come.
func (q *feedQueue) next() ([]addrs.AbsResourceInstance, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.queue) == 0 && !q.closed {
		q.cond.Wait()
	}
	batch := q.queue
	q.queue = nil
	return batch, !q.closed
}

func (q *feedQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.cond.Signal()
	q.mu.Unlock()
}

// Entry returns the finished entry for plan p, or nil when the core never
// loaded the schemas or making the entry failed: the archive is then
// written without it, and show -json makes the members from the
// configuration snapshot. A panic while making it is raised again here.
func (s *ShowSections) Entry(p *plans.Plan) *planfile.EntryBuffer {
	if s == nil || s.done == nil {
		return nil
	}
	s.Finish(p)
	if s.err != nil || s.buf.Close() != nil {
		return nil
	}
	return s.buf
}
