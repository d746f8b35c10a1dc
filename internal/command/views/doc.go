// Package views renders what plankit's commands report: diagnostics with
// their source snippets for a terminal (WriteDiagnostics) and as -json UI
// messages (JSONView); a plan (plan.go: PlanView) and an apply's result
// (apply.go: ApplyView); and the progress the core reports while it
// works: refreshes and data source reads during plan (refreshlog.go,
// importlog.go, ProgressHook) and each operation of an apply
// (applyhook.go), batched onto the output (batchout.go), and the apply
// warning naming the planned changes that never started (skipped.go). Values print as
// Terraform prints outputs (value.go). Per-command views: plan output
// (output.go), plan show (show.go), plan version (version.go) and plan
// force-unlock (unlock.go). It knows nothing of flags, the
// process or the operations that produce what it renders.
package views
