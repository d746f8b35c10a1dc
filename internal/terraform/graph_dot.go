package terraform

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/dag"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/tfdiags"
)

// GraphDOT renders the graph of kind for `plan graph` in Graphviz DOT,
// deterministically (sorted by node name). The apply graph needs plan; the
// plan graphs use state (nil for none).
func (c *Context) GraphDOT(config *configs.Config, state *states.State, plan *plans.Plan, kind GraphKind) (string, hcl.Diagnostics) {
	if state == nil {
		state = states.NewState()
	}
	if kind == GraphKindApply && plan != nil && plan.PriorState != nil {
		state = plan.PriorState
	}
	defer c.closeSpares()
	schemas, diags := c.schemasFor(neededProviders(config, state))
	if diags.HasErrors() {
		return "", diags
	}
	in := &buildInput{config: config, schemas: schemas, state: state}
	var b graphBuilder
	switch kind {
	case GraphKindPlan:
		b = planBuilder(in)
	case GraphKindPlanDestroy:
		b = planDestroyBuilder(in)
	case GraphKindApply:
		if plan == nil || plan.Changes == nil {
			return "", hcl.Diagnostics{tfdiags.Error("No plan", "The apply graph is built from a plan; give one.")}
		}
		in.targets = plan.TargetAddrs
		b = applyBuilder(in, plan)
	default:
		return "", hcl.Diagnostics{tfdiags.Errorf("Unsupported graph kind", "Graph kind %d is not supported.", kind)}
	}
	g, d := b.Build()
	diags = append(diags, d...)
	if d.HasErrors() {
		return "", diags
	}
	return g.Dot(dag.DotOptions[Node]{}), diags
}
