package views

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/plankit/plankit/depsfile"
)

// Versions is what plan version reports.
type Versions struct {
	// Plankit, Format, Go and Platform are plankit's version, the plan
	// format version it writes, the Go version it was built with and
	// GOOS_GOARCH.
	Plankit, Format, Go, Platform string
	// Locks are the working directory's provider selections.
	Locks *depsfile.Locks
}

// VersionView is where plan version prints.
type VersionView struct{ Out io.Writer }

// Show prints the versions and the selected providers: lines, or one JSON
// object with asJSON.
func (v VersionView) Show(ver Versions, asJSON bool) {
	selected := ver.Locks.SortedProviders()
	if asJSON {
		sel := map[string]string{}
		for _, p := range selected {
			sel[p.String()] = ver.Locks.Provider(p).Version()
		}
		b, _ := json.MarshalIndent(map[string]any{
			"plankit_version":     ver.Plankit,
			"plan_format_version": ver.Format,
			"go_version":          ver.Go,
			"platform":            ver.Platform,
			"provider_selections": sel,
		}, "", "  ")
		fmt.Fprintln(v.Out, string(b))
		return
	}
	fmt.Fprintf(v.Out, "plankit v%s\nplan format %s\non %s, built with %s\n", ver.Plankit, ver.Format, ver.Platform, ver.Go)
	for _, p := range selected {
		fmt.Fprintf(v.Out, "+ provider %s v%s\n", p, ver.Locks.Provider(p).Version())
	}
}
