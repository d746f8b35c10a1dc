package command

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/tfdiags"
)

// replaceWarnings warns, as Terraform does, about each -replace address
// without an instance key that names a resource whose instances all have
// keys (count or for_each): it matches none of them, so nothing is
// replaced. The warning lists the instance addresses to use instead.
// O(instances in the plan and its prior state).
func replaceWarnings(p *plans.Plan, replace []addrs.AbsResourceInstance) hcl.Diagnostics {
	if p == nil || len(replace) == 0 {
		return nil
	}
	keyed := map[string]map[string]bool{} // resource address -> instance addresses with keys
	add := func(a addrs.AbsResourceInstance) {
		if a.Resource.Key == addrs.NoKey {
			return
		}
		r := a.ContainingResource().String()
		if keyed[r] == nil {
			keyed[r] = map[string]bool{}
		}
		keyed[r][a.String()] = true
	}
	if p.Changes != nil {
		for _, rc := range p.Changes.Resources {
			add(rc.Addr)
		}
	}
	if p.PriorState != nil {
		for _, a := range p.PriorState.AllResourceInstances() {
			add(a)
		}
	}
	var diags hcl.Diagnostics
	for _, a := range replace {
		if a.Resource.Key != addrs.NoKey {
			continue
		}
		insts := keyed[a.ContainingResource().String()]
		if len(insts) == 0 {
			continue
		}
		names := make([]string, 0, len(insts))
		for n := range insts {
			names = append(names, "  -replace="+shellQuote(n))
		}
		sort.Strings(names)
		diags = append(diags, tfdiags.Warning("Incompletely-matched force-replace resource instance", fmt.Sprintf(
			"The -replace=%s option matches no resource instance: this resource has instance keys (count or for_each), so nothing is replaced. To replace particular instances, use one or more of these options instead:\n%s",
			a, strings.Join(names, "\n"))))
	}
	return diags
}
