// Package refactoring applies moved blocks to a state before planning, as
// Terraform's refactoring step does, and validates them against the
// configuration once the plan knows which instances it declares.
//
// A moved block's addresses are relative to the module declaring it, so
// one Statement covers every instance of that module. FindStatements
// collects the explicit statements of every module plus the implied ones
// (a resource that gained count moves its key-less instance to [0], one
// that lost count moves [0] back). ApplyMoves runs them in dependency
// order (chains: a later statement's from is an earlier one's to; nesting:
// moves of a module before moves inside it) and records, per moved
// resource instance, its original address. A move whose destination is
// already taken in the state is skipped and reported as Blocked. Validate
// reports what Terraform reports: redundant moves, sources still declared,
// ambiguous sources or destinations, cycles, and moves into or out of
// another module package.
//
// Cost: O(S² + S·I) for S statements and I resource instances in the state;
// configurations have tens of statements.
package refactoring
