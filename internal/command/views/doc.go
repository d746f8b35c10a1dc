// Package views renders what plankit's commands report: diagnostics with
// their source snippets for a terminal (WriteDiagnostics) and as -json UI
// messages (JSONView), each file keeping the ordering and capping rules
// of one kind of output. It knows nothing of flags, the process or the
// operations that produce the diagnostics.
package views
