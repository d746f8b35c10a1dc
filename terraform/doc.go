// Package terraform is plankit's core: Context.Validate, Context.Plan and
// Context.Apply. Each builds a graph, then walks it in parallel with
// dag.Walk; evaluation resolves each reference in O(1) from named-value and
// resource-value stores, so a plan costs O(V+E) in the configuration.
//
// Map of the core:
//
//   - Builders (builders.go): planBuilder, planDestroyBuilder, applyBuilder,
//     validateBuilder, each a declared list of transformers
//     (transform_*.go) over a buildInput.
//   - Nodes, one per configuration object: nodeVariable, nodeLocal,
//     nodeOutput (node_values.go), nodeModuleExpand (node_module.go),
//     nodeProvider/nodeProviderClose (node_provider.go), nodeResource
//     (node_resource.go: a resource or data block, expanding count/for_each
//     at walk time), and in apply graphs nodeDestroy (node_destroy.go: one
//     object to destroy). Resource and destroy nodes share a resourceBlock.
//     nodeCheck (node_check.go) evaluates a check block's assertions;
//     nodeVariableValidation (node_variable_validation.go) the validation
//     rules of a variable that refer to other objects.
//   - Custom conditions (conditions.go, resource_conditions.go):
//     preconditions and postconditions of resource instances (evaluated by
//     the plan and apply steps below), of outputs (nodeOutput), check
//     assertions, and the results the walk records (checks.go).
//   - The walk (walk.go): walkState is the shared evaluation state (values,
//     scopes, providers, expansion, states); its operation (walk_op.go)
//     does the work of each resource instance: validateWalk
//     (validate_walk.go), planWalk and planInstance (plan_*.go) or
//     applyWalk and applyInstance (apply_*.go, provisioner.go), on top of
//     instanceCtx, what all share (instance.go).
//   - Plan one instance: nodeResource.Execute → runInstances →
//     executeInstance → planWalk.managedInstance → planInstance.managed
//     (prior, refresh) → the mode's step, planConfigured → plan.
//   - Apply one: the same first three → applyWalk.managedInstance →
//     applyInstance.apply (planChange, applyChange, storeNew, provision).
//   - Moved blocks (refactor.go): Plan first applies them to a copy of
//     the state (package refactoring) and walks from it; a moved instance
//     of another type is converted by MoveResourceState before it is
//     planned; the plan records each previous address, and Apply tells
//     the state writer about the moves before anything else.
//   - Removed blocks (removed.go): the orphan resource nodes carry the
//     removed block naming them; planInstance.forget plans Forget
//     changes (lifecycle.destroy = false), and in apply graphs a
//     nodeForget drops each forgotten object from the state, with no
//     provider call. With destroy = true the orphan is destroyed as usual,
//     its nodeDestroy running the removed block's provisioners.
//   - Import blocks (import.go): prepareImports checks them before the
//     graph is built, a resource node resolves the blocks targeting it
//     once expanded, and planInstance.managed imports a target the state
//     lacks instead of refreshing it.
//   - Callers own persistence and providers: Apply announces changes to a
//     StateWriter (state_writer.go); providers come from a ProviderSource.
package terraform
