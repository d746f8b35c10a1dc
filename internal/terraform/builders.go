package terraform

import (
	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/plans"
)

// The builders: each graph is a declared, ordered list of transformers.
// Every step adds nodes (each built whole) or edges; the walk reads
// nothing else from the build (the root outputs a targeted graph kept
// are its remaining output nodes, keptRootOutputs).

// planBuilder is the graph of a normal or refresh-only plan: one node per
// configuration object, plus the resources only the state still has.
func planBuilder(in *buildInput) graphBuilder {
	return graphBuilder{name: "plan", steps: []Transformer{
		rootVariableTransformer{in},
		localTransformer{in},
		resourceTransformer{in, addrs.ManagedResourceMode, false},
		orphanResourceTransformer{in, false},
		resourceTransformer{in, addrs.DataResourceMode, false},
		resourceTransformer{in, addrs.EphemeralResourceMode, false},
		outputTransformer{in},
		checkTransformer{in},
		variableValidationTransformer{in},
		moduleCallTransformer{in},
		providerTransformer{in},
		referenceTransformer{},
		createBeforeDestroyTransformer{},
		planDepsTransformer{},
		targetsTransformer{in, targetPlan},
		pendingUpstreamTransformer{},
		ephemeralCloseTransformer{},
		rootTransformer{},
	}}
}

// planDestroyBuilder is the graph of a destroy plan. It has the plan
// graph's shape, because provider configurations may refer to variables,
// locals, data sources and resources, whose values come from the
// refreshed state; its managed resource nodes, named "ADDR (destroy)",
// plan deleting every object in the state instead of planning the
// configuration. Destroy ordering is the apply graph's business.
func planDestroyBuilder(in *buildInput) graphBuilder {
	return graphBuilder{name: "destroy plan", steps: []Transformer{
		rootVariableTransformer{in},
		localTransformer{in},
		resourceTransformer{in, addrs.ManagedResourceMode, true},
		orphanResourceTransformer{in, true},
		resourceTransformer{in, addrs.DataResourceMode, true},
		resourceTransformer{in, addrs.EphemeralResourceMode, true},
		outputTransformer{in},
		variableValidationTransformer{in},
		moduleCallTransformer{in},
		providerTransformer{in},
		referenceTransformer{},
		createBeforeDestroyTransformer{},
		targetsTransformer{in, targetPlanDestroy},
		pendingUpstreamTransformer{},
		ephemeralCloseTransformer{},
		rootTransformer{},
	}}
}

// applyBuilder is the graph of an apply: the configuration's nodes (the
// resource nodes apply the creates, updates and reads of their
// instances), one destroy node per deletion (orphans, destroy mode, the
// destroy half of replacements, deposed objects), providers, references,
// the plan's targets, the dependencies each object records, then destroy
// ordering.
func applyBuilder(in *buildInput, plan *plans.Plan) graphBuilder {
	return graphBuilder{name: "apply", steps: []Transformer{
		rootVariableTransformer{in},
		localTransformer{in},
		resourceTransformer{in, addrs.ManagedResourceMode, false},
		resourceTransformer{in, addrs.DataResourceMode, false},
		resourceTransformer{in, addrs.EphemeralResourceMode, false},
		outputTransformer{in},
		checkTransformer{in},
		variableValidationTransformer{in},
		moduleCallTransformer{in},
		destroyTransformer{in, plan},
		forgetTransformer{in, plan},
		providerTransformer{in},
		referenceTransformer{},
		createBeforeDestroyTransformer{},
		targetsTransformer{in, targetApply},
		stateDepsTransformer{},
		destroyEdgeTransformer{in, plan},
		ephemeralCloseTransformer{},
		rootTransformer{},
	}}
}

// validateBuilder is the graph of Validate: configuration only, no state,
// no targets; count and for_each may be unknown.
func validateBuilder(in *buildInput) graphBuilder {
	return graphBuilder{name: "validate", steps: []Transformer{
		rootVariableTransformer{in},
		localTransformer{in},
		resourceTransformer{in, addrs.ManagedResourceMode, false},
		resourceTransformer{in, addrs.DataResourceMode, false},
		resourceTransformer{in, addrs.EphemeralResourceMode, false},
		outputTransformer{in},
		checkTransformer{in},
		variableValidationTransformer{in},
		moduleCallTransformer{in},
		providerTransformer{in},
		referenceTransformer{},
		rootTransformer{},
	}}
}
