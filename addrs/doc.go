// Package addrs holds the address types of plankit: module instances,
// resources and their instances, provider source addresses and provider
// configurations, and the references that expressions make to all of these.
//
// Addresses print and parse exactly as Terraform prints them, e.g.
// module.a["x"].aws_instance.b[0] or provider["registry.terraform.io/hashicorp/null"].alias,
// so that state files, plan output and -target arguments move between
// plankit and Terraform/OpenTofu unchanged.
//
// Slice-based addresses (ModuleInstance, Module) are not comparable; use
// their String() forms, or UniqueKey where offered, as map keys.
package addrs
