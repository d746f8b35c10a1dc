package jsonplan

import "github.com/plankit/plankit/plans"

// checkResult is one entry of the plan's "checks": a checkable object of
// the configuration (an input variable with validation blocks) and the
// result of each of its instances, as Terraform writes it.
type checkResult struct {
	Address   checkStaticAddr `json:"address"`
	Status    string          `json:"status"`
	Instances []checkInstance `json:"instances,omitempty"`
}

type checkStaticAddr struct {
	ToDisplay string `json:"to_display"`
	Kind      string `json:"kind"`
	Module    string `json:"module,omitempty"`
	Name      string `json:"name,omitempty"`
}

type checkInstance struct {
	Address checkDynamicAddr `json:"address"`
	Status  string           `json:"status"`
}

type checkDynamicAddr struct {
	ToDisplay string `json:"to_display"`
	Module    string `json:"module,omitempty"`
}

// marshalChecks converts the plan's check results. O(objects).
func marshalChecks(cs []*plans.CheckResult) []checkResult {
	var out []checkResult
	for _, c := range cs {
		r := checkResult{
			Address: checkStaticAddr{ToDisplay: joinDisplay(c.Module, c.Kind+"."+c.Name), Kind: c.Kind, Module: c.Module, Name: c.Name},
			Status:  string(c.Status),
		}
		for _, o := range c.Objects {
			r.Instances = append(r.Instances, checkInstance{
				Address: checkDynamicAddr{ToDisplay: joinDisplay(o.Module, c.Kind+"."+c.Name), Module: o.Module},
				Status:  string(o.Status),
			})
		}
		out = append(out, r)
	}
	return out
}

func joinDisplay(module, local string) string {
	if module == "" {
		return local
	}
	return module + "." + local
}
