// Package terraform is plankit's core: Context.Validate (validate.go),
// Context.Plan (plan.go) and Context.Apply (apply.go). Each builds a graph, then walks it in parallel with
// dag.Walk; evaluation resolves each reference in O(1) from named-value and
// resource-value stores, so a plan costs O(V+E) in the configuration.
//
// Map of the core:
//
//   - Builders (builders.go): planBuilder, planDestroyBuilder, applyBuilder,
//     validateBuilder, each a declared list of transformers
//     (transform_*.go: config, graph, references, pending, targets,
//     apply) over a buildInput.
//   - Nodes, one per configuration object: nodeVariable, nodeLocal,
//     nodeOutput (node_values.go), nodeModuleExpand (node_module.go),
//     nodeProvider/nodeProviderClose (node_provider.go), nodeResource
//     (node_resource.go: a resource or data block, expanding count/for_each
//     at walk time), and in apply graphs nodeDestroy (node_destroy.go: one
//     object to destroy). Resource and destroy nodes share a resourceBlock.
//     Ephemeral blocks are resource nodes too; ephemeral.go opens their
//     instances (plan and apply), renews them, and closes them in a
//     nodeEphemeralClose after their dependents or when the walk ends.
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
//
// Apply ordering (transform_apply.go), the rules Terraform and OpenTofu
// follow. A resource node does the creates and updates (and the create
// half of replacements) of its instances; a destroy node removes one
// object. A resource's dependencies are every resource it reaches
// through references, locals, outputs, modules and other resources
// (stateDepsTransformer); the state stores them with each object, and
// they keep steering the order after the configuration that explained
// them is gone (a removed dependent, a reference dropped). For resource
// A depending on B:
//
//   - References: B's creates and updates before A's.
//   - Own replacement: delete-then-create destroys the old object first;
//     create-before-destroy creates the new object first, and so does an
//     instance with a deposed object left over.
//   - Dependents' destroys first: a destroy of A's object comes before
//     every destroy of B (both in one module instance, when A and B are
//     in one module: instances of a module are not ordered against each
//     other), and before B's creates and updates, so B is not changed or
//     removed while the old A still uses it ("grants are revoked before
//     the role they name is renamed").
//   - Creates and updates after the destroys they depend on: A's
//     creates and updates wait for every destroy of B, including one
//     that only A's stored dependencies name.
//   - Create-before-destroy inverts the last two for its destroy: the
//     destroy of a create-before-destroy object waits for the creates
//     and updates it would otherwise precede, so dependents move to the
//     new object before the old one goes. A destroy is
//     create-before-destroy when it is the destroy half of such a
//     replacement, a deposed object, or a delete of an object whose
//     resource has create_before_destroy (or, with the resource gone
//     from the configuration, whose state records it).
//   - Forcing: a resource that a create-before-destroy resource depends
//     on, directly or not, is create-before-destroy too (unless it says
//     create_before_destroy = false), in the plan and the apply, and the
//     state records it.
//
// Resources with only no-op changes take no part. A consequence, as in
// Terraform: a plain delete of B goes before the update of a dependent A
// that stops using B; create_before_destroy on B reverses it.
package terraform
