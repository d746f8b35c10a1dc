// Package configs loads Terraform/OpenTofu configuration: a module is a
// directory of *.tf (native syntax) and *.tf.json (JSON syntax) files, and
// OpenTofu's *.tofu and *.tofu.json (a .tofu file replaces the .tf file of
// the same stem, as in OpenTofu); a configuration is the tree of modules
// reached from the root through module blocks with local sources.
//
// Loading is static: expressions are kept as hcl.Expression for the core to
// evaluate; only the arguments that must be constant (required_version,
// required_providers, type constraints, variable defaults, lifecycle flags)
// are evaluated here. Every problem is reported as hcl.Diagnostics with a
// Subject range whose filename is relative to the root module directory
// ("main.tf", "modules/net/main.tf"), so a configuration loaded from disk and
// one loaded from a plan's Snapshot are identical and render the same way.
package configs
