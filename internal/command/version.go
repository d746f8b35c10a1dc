package command

import (
	"fmt"
	"path/filepath"
	"runtime"

	"github.com/plankit/plankit/depsfile"
	"github.com/plankit/plankit/internal/command/views"
	"github.com/plankit/plankit/plans"
)

const versionUsage = `Usage: plan version [-json]

  Prints plankit's version, the plan archive format version it writes
  (it reads every minor version of the same major), the Go version it
  was built with and, as terraform version does, the providers the
  working directory's .terraform.lock.hcl selects. "plan -version" is the
  same.

Options:
  -json   Print the versions as one JSON object.
`

// VersionCmd is `plan version [-json]` (also `plan -version`, `plan -v`).
func VersionCmd(m *Meta, chdir string, args []string) int {
	fs := newSubFlagSet("plan version", versionUsage, chdir)
	jsonOut := fs.Bool("json", false, "print the versions as JSON")
	if code, ok := fs.parse(m, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return usageError(m, fmt.Sprintf("plan version takes no arguments (got %q)", fs.Arg(0)))
	}
	format := fmt.Sprintf("%d.%d", plans.FormatVersionMajor, plans.FormatVersionMinor)
	platform := runtime.GOOS + "_" + runtime.GOARCH
	// The providers in use are those the lock file selects, as in
	// Terraform and OpenTofu: best effort, so a missing or unreadable lock
	// file lists none (version must work anywhere).
	locks, ds := depsfile.LoadLocksFromFile(filepath.Join(m.workDir(fs.chdir), depsfile.LockFilePath))
	if ds.HasErrors() {
		locks = depsfile.NewLocks()
	}
	views.VersionView{Out: m.Stdout}.Show(views.Versions{Plankit: Version, Format: format, Go: runtime.Version(), Platform: platform, Locks: locks}, *jsonOut)
	return ExitOK
}
