// Package lang evaluates configuration expressions: it turns the
// references an expression makes into cty values supplied by the caller
// (Data) and provides the function table (go-cty's stdlib plus the usual
// Terraform functions, in lang/funcs).
//
// It holds no state: the core implements Data over its state and plan, and
// builds a Scope per evaluation site. Building an evaluation context costs
// O(references in the expression), never O(size of the configuration).
package lang
