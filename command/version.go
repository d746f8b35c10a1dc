package command

import (
	"encoding/json"
	"fmt"
	"runtime"

	"github.com/plankit/plankit/plans"
)

const versionUsage = `Usage: plan version [-json]

  Prints plankit's version, the plan archive format version it writes
  (it reads every minor version of the same major) and the Go version it
  was built with. "plan -version" is the same.

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
	if *jsonOut {
		b, _ := json.MarshalIndent(map[string]any{
			"plankit_version":     Version,
			"plan_format_version": format,
			"go_version":          runtime.Version(),
			"platform":            platform,
		}, "", "  ")
		fmt.Fprintln(m.Stdout, string(b))
		return ExitOK
	}
	fmt.Fprintf(m.Stdout, "plankit v%s\nplan format %s\non %s, built with %s\n", Version, format, platform, runtime.Version())
	return ExitOK
}
