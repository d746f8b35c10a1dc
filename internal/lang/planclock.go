package lang

import (
	"sync"
	"sync/atomic"
	"time"
)

// PlanClock is plantimestamp's time source for one plan (or apply). The
// clock is read once, on the first call of plantimestamp, and that time is
// returned ever after, so every expression of the operation sees the same
// value. Used tells afterwards whether any expression asked: a plan records
// its timestamp only then, keeping archives of configurations that never
// call plantimestamp free of wall-clock time. Safe for concurrent use;
// O(1) per call.
type PlanClock struct {
	now  func() time.Time
	once sync.Once
	t    time.Time
	used atomic.Bool
}

// NewPlanClock returns a PlanClock reading now (time.Now when nil) on
// first use. A now returning the zero time makes plantimestamp unknown.
func NewPlanClock(now func() time.Time) *PlanClock {
	if now == nil {
		now = time.Now
	}
	return &PlanClock{now: now}
}

// Time returns the plan's time, reading the clock on the first call, and
// marks the clock used.
func (c *PlanClock) Time() time.Time {
	c.once.Do(func() {
		c.t = c.now().UTC()
		c.used.Store(true)
	})
	return c.t
}

// Used reports whether Time has been called.
func (c *PlanClock) Used() bool { return c.used.Load() }
