package terraform

import (
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/plans"
)

// checkCollector gathers the results of checkable objects during a plan
// or apply, as Terraform reports them in the plan's "checks": the input
// variables with validation blocks (one object per instance of the
// declaring module), and the resources, outputs and check blocks with
// custom conditions (one object per instance; see conditions.go). Safe
// for concurrent use.
type checkCollector struct {
	mu sync.Mutex
	m  map[string]*plans.CheckResult // by module path and name
	// idx finds an object of m by its result's key and address
	// (conditions.go).
	idx map[string]int
	// unexpanded are the results of configuration objects the walk never
	// reached, whose instances are unknown (conditions.go: complete).
	unexpanded map[string]bool
}

// variable records the validation outcome of variable v of the module at
// path in module instance mi: fail when the validations reported errors,
// unknown when the value is not wholly known yet (conditions on it are
// skipped), else pass. Variables without validations are not checkable.
func (cc *checkCollector) variable(path addrs.Module, mi addrs.ModuleInstance, v *configs.Variable, val cty.Value, diags hcl.Diagnostics) {
	if len(v.Validations) == 0 {
		return
	}
	st := plans.CheckPass
	switch {
	case diags.HasErrors():
		st = plans.CheckFail
	case !val.IsWhollyKnown():
		st = plans.CheckUnknown
	}
	cc.mu.Lock()
	defer cc.mu.Unlock()
	c, _, _ := cc.resultLocked("var", path.String(), v.Name)
	c.Objects = append(c.Objects, plans.CheckObject{Module: mi.String(), Status: st})
}

// resultLocked returns the result of object name of kind in the module at
// path, and its key in m, creating an empty one (created) when there is
// none. cc.mu must be held.
func (cc *checkCollector) resultLocked(kind, path, name string) (c *plans.CheckResult, key string, created bool) {
	key = path + "|" + kind + "|" + name
	if c = cc.m[key]; c != nil {
		return c, key, false
	}
	if cc.m == nil {
		cc.m = map[string]*plans.CheckResult{}
	}
	c = &plans.CheckResult{Kind: kind, Module: path, Name: name}
	cc.m[key] = c
	return c, key, true
}

// results returns the collected results, sorted, with their statuses
// summed up; nil when there are none.
func (cc *checkCollector) results() []*plans.CheckResult {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	if len(cc.m) == 0 {
		return nil
	}
	out := make([]*plans.CheckResult, 0, len(cc.m))
	for key, c := range cc.m {
		for i := range c.Objects {
			if c.Objects[i].Status == "" { // expanded, never evaluated
				c.Objects[i].Status = plans.CheckUnknown
			}
		}
		c.Status = plans.AggregateStatus(c.Objects)
		if cc.unexpanded[key] {
			c.Status = plans.CheckUnknown
		}
		out = append(out, c)
	}
	plans.SortChecks(out)
	return out
}
