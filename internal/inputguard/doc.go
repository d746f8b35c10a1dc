// Package inputguard checks HCL and JSON sources before any parser sees
// them, for input the parsers cannot survive or would take hours over:
// nesting deep enough to overflow Go's stack (a fatal error, not a
// panic), strings, heredocs and templates with so many lines or escapes
// that HCL joins them in quadratic time, numbers whose decimal exponent
// takes hours to print, and binary files that would give a diagnostic
// per byte.
//
// Every reader of HCL or JSON source in plankit runs these checks first:
// the configuration loader (configs), the lock file (depsfile), variable
// files, -var and TF_VAR_ values, backend configuration files, plan fmt,
// templatefile and jsondecode, and the source snippets of diagnostics.
// One limit applies everywhere, so nothing the loader refuses can crash
// another parser. Each check is linear in the size of its input and
// reports the first violation as one error naming file and line.
//
// CheckNesting is the check for a whole file (native or JSON syntax);
// CheckExprNesting and CheckTemplateNesting cover a lone expression and a
// template; CheckText refuses binary files; CheckJSONNumbers covers JSON
// that is not configuration.
package inputguard
