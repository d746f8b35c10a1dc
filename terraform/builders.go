package terraform

import (
	"github.com/plankit/plankit/addrs"
)

// planBuilder is the graph of a normal or refresh-only plan: one node per
// configuration object, plus the resources only the state still has.
func planBuilder(in *buildInput) graphBuilder {
	return graphBuilder{name: "plan", steps: []Transformer{
		rootVariableTransformer{in},
		localTransformer{in},
		resourceTransformer{in, addrs.ManagedResourceMode},
		orphanResourceTransformer{in},
		resourceTransformer{in, addrs.DataResourceMode},
		outputTransformer{in},
		moduleCallTransformer{in},
		providerTransformer{in},
		referenceTransformer{},
		createBeforeDestroyTransformer{},
		targetsTransformer{in, targetPlan},
		pendingUpstreamTransformer{},
		rootTransformer{},
	}}
}

// planDestroyBuilder is the graph of a destroy plan. It has the same
// shape as the plan graph, because provider configurations may refer to
// variables, locals, data sources and resources, whose values come from
// the refreshed state; its resource nodes plan deleting every object in
// the state instead of planning the configuration. Destroy ordering is
// the apply graph's business.
func planDestroyBuilder(in *buildInput) graphBuilder {
	b := planBuilder(in)
	b.name = "destroy plan"
	for i, s := range b.steps {
		if _, ok := s.(targetsTransformer); ok {
			b.steps[i] = targetsTransformer{in, targetPlanDestroy}
		}
	}
	b.steps = append(b.steps, destroyPlanNamesTransformer{})
	return b
}

// destroyPlanNamesTransformer names the managed resource nodes of a
// destroy plan "ADDR (destroy)", as Terraform's plan-destroy graph does,
// so the graph and cycle errors say what the nodes plan. O(V).
type destroyPlanNamesTransformer struct{}

func (destroyPlanNamesTransformer) Transform(g *Graph) error {
	for _, n := range g.Vertices() {
		if r, ok := n.(*nodeResource); ok && r.addr.Resource.Mode == addrs.ManagedResourceMode {
			r.planDestroy = true
		}
	}
	return nil
}

// validateBuilder is the graph of Validate: configuration only, no state,
// no targets; count and for_each may be unknown.
func validateBuilder(in *buildInput) graphBuilder {
	return graphBuilder{name: "validate", steps: []Transformer{
		rootVariableTransformer{in},
		localTransformer{in},
		resourceTransformer{in, addrs.ManagedResourceMode},
		resourceTransformer{in, addrs.DataResourceMode},
		outputTransformer{in},
		moduleCallTransformer{in},
		providerTransformer{in},
		referenceTransformer{},
		rootTransformer{},
	}}
}
