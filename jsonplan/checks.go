package jsonplan

import (
	"strings"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/plans"
)

// checkResult is one entry of the plan's "checks": a checkable object of
// the configuration (an input variable with validation blocks, a resource
// or output with custom conditions, a check block) and the result of each
// of its instances, in the shape of Terraform's format 1.2.
type checkResult struct {
	Address   checkStaticAddr `json:"address"`
	Status    string          `json:"status"`
	Instances []checkInstance `json:"instances,omitempty"`
}

type checkStaticAddr struct {
	ToDisplay string `json:"to_display"`
	Kind      string `json:"kind"`
	Module    string `json:"module,omitempty"`
	Mode      string `json:"mode,omitempty"`
	Type      string `json:"type,omitempty"`
	Name      string `json:"name,omitempty"`
}

type checkInstance struct {
	Address  checkDynamicAddr `json:"address"`
	Status   string           `json:"status"`
	Problems []checkProblem   `json:"problems,omitempty"`
}

type checkDynamicAddr struct {
	ToDisplay   string `json:"to_display"`
	Module      string `json:"module,omitempty"`
	InstanceKey any    `json:"instance_key,omitempty"`
}

type checkProblem struct {
	Message string `json:"message"`
}

// marshalChecks converts the plan's check results. O(objects).
func marshalChecks(cs []*plans.CheckResult) []checkResult {
	var out []checkResult
	for _, c := range cs {
		r := checkResult{Address: checkStatic(c), Status: string(c.Status)}
		for _, o := range c.Objects {
			inst := checkInstance{
				Address: checkDynamicAddr{ToDisplay: o.Addr, Module: o.Module},
				Status:  string(o.Status),
			}
			if o.Addr == "" {
				inst.Address.ToDisplay = joinDisplay(o.Module, c.Kind+"."+c.Name)
			}
			if c.Kind == "resource" {
				inst.Address.InstanceKey = instanceKey(o.Addr)
			}
			for _, m := range o.FailureMessages {
				inst.Problems = append(inst.Problems, checkProblem{Message: m})
			}
			r.Instances = append(r.Instances, inst)
		}
		out = append(out, r)
	}
	return out
}

// checkStatic is the configuration address of a checkable object, as
// Terraform writes it: kinds "var", "resource" (with mode, type and
// name), "output_value" and "check".
func checkStatic(c *plans.CheckResult) checkStaticAddr {
	switch c.Kind {
	case "resource":
		a := checkStaticAddr{ToDisplay: joinDisplay(c.Module, c.Name), Kind: "resource", Module: c.Module, Mode: "managed"}
		name := c.Name
		if rest, ok := strings.CutPrefix(name, "data."); ok {
			a.Mode, name = "data", rest
		}
		a.Type, a.Name, _ = strings.Cut(name, ".")
		return a
	case "output":
		return checkStaticAddr{ToDisplay: joinDisplay(c.Module, "output."+c.Name), Kind: "output_value", Module: c.Module, Name: c.Name}
	}
	return checkStaticAddr{ToDisplay: joinDisplay(c.Module, c.Kind+"."+c.Name), Kind: c.Kind, Module: c.Module, Name: c.Name}
}

// instanceKey is the instance key of resource instance address addr: a
// number for count, a string for for_each, nil without either.
func instanceKey(addr string) any {
	a, diags := addrs.ParseAbsResourceInstanceStr(addr)
	if diags.HasErrors() {
		return nil
	}
	return InstanceKey(a.Resource.Key)
}

func joinDisplay(module, local string) string {
	if module == "" {
		return local
	}
	return module + "." + local
}
