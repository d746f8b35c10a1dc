// Package dag is plankit's generic dependency graph: a typed directed
// graph Graph[K comparable], the checks Terraform runs on it, the orders
// and traversals built on it, and the parallel walker that executes it.
//
// Direction: g.Connect(a, b) means "a depends on b"; b happens before a.
// A vertex's down edges are its dependencies, its up edges its dependents;
// Ancestors are everything a vertex (transitively) depends on, Descendants
// everything that depends on it.
//
// Determinism: vertices keep insertion order; TopologicalOrder breaks ties
// by insertion order; String and Dot sort by name (Graph.Name, default
// fmt.Sprint); cycle errors list every cycle as a path, "Cycle: a, b, a".
//
// Cost: vertices live under dense int32 ids with slice adjacency, so
// Validate, StronglyConnected (Tarjan, iterative), the walks and Walk are
// O(V+E); TopologicalOrder is O((V+E) log V); TransitiveReduction is
// O(V+E) on chains and layered graphs and bounded by bitset blocks
// otherwise (see its doc). Nothing recurses, so a chain of a million
// vertices is fine.
//
// Walk runs a callback per vertex with bounded parallelism, a ready queue
// fed by pending-dependency counts and a fixed pool of workers under one
// mutex; failures skip exactly the vertices downstream, cancellation
// through context stops dispatching. It snapshots the graph and holds no
// global state, so walks nest.
//
// The package knows nothing of Terraform concepts: vertices are whatever
// the caller puts in.
package dag
