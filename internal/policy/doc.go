// Package policy checks a plan's `show -json` document against Rego
// policies, with OPA's engine (Rego v1) and conftest's conventions, so
// that policy repositories written for `conftest test plan.json` work
// unchanged.
//
// # Policies
//
// Load reads every .rego file under each policy directory, recursively
// (as conftest does; files in directories whose name starts with "." are
// skipped). In each evaluated namespace (a Rego package: "main" unless
// Options.Namespaces or Options.AllNamespaces say otherwise), the rules
// named deny, violation or warn, or starting with deny_, violation_ or
// warn_, are evaluated with input = the show -json document. deny and
// violation rules are failures, warn rules warnings. A rule's value is a
// set (or array) of messages: strings, or objects with a string "msg"
// (their other members are kept as the message's details). A rule whose
// value is true (`deny if { ... }`) is a failure with an empty message:
// conftest ignores such rules, which would let a policy pass silently.
//
// data is the union of the data files (JSON or YAML) given to Load:
// a file's top-level object is merged into data at the path of the
// directories under the data directory it was found in (a file named
// on its own goes to the root), as OPA's loader does.
//
// # The plankit library
//
// Every bundle also holds the Rego package data.plankit.plan (lib/plan.rego
// in this package, documented in docs/policy.md): the resource changes
// grouped by action, the attributes a change modifies, and module
// membership, so that common policies are a few lines.
//
// # Digest
//
// Bundle.Digest is "sha256:" and the SHA-256 of a listing, sorted, of
// one line per file: its kind (policy, data or the built-in library), the
// SHA-256 of its content and its path relative to the directory given
// (a data file named on its own: its base name). It does not depend on
// where the directories are nor on the order they are given in, so a
// plan checked in one job and applied in another can compare bundles.
//
// # Limits
//
// An evaluation is stopped when it takes longer than Options.Timeout or
// when the process's Go heap grows by more than Options.MemoryLimit
// while it runs. The memory guard is a watchdog: it reads the runtime's
// count of bytes in heap objects (runtime/metrics
// "/memory/classes/heap/objects:bytes") every few milliseconds and
// cancels the evaluation when it exceeds the count at the start by the
// limit. OPA checks for cancellation before every expression it
// evaluates, so a policy that builds ever larger values, or recurses or
// iterates without end, is stopped within a few expressions of the
// limit; a single builtin call is not interrupted (OPA's builtins
// allocate at most in proportion to their operands, and numbers.range
// checks for cancellation itself). Other allocations of the process
// count too. Builtins that reach the network (http.send,
// net.lookup_ip_addr) are refused at compile time: a recorded result
// must depend only on the plan and the bundle.
package policy
