package command

import (
	"encoding/json"
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/command/views"
	"github.com/plankit/plankit/internal/terraform"
)

const validateUsage = `Usage: plan validate [-json] [-no-color]

  Checks that the configuration in the working directory is valid: syntax,
  references, types and the providers' schemas. It reads no state and no
  variable values, and calls no remote API. Exit code 0 when valid, 1 when
  not.

Options:
  -json       Print the result as one JSON object, as terraform validate
              -json does: format_version, valid, error_count,
              warning_count, diagnostics.
  -no-color   No colour.
`

// Validate is `plan validate [-json] [-no-color]`: the configuration's
// static checks, as `terraform validate`.
func Validate(m *Meta, chdir string, args []string) int {
	fs := newSubFlagSet("plan validate", validateUsage, chdir)
	jsonOut := fs.Bool("json", false, "machine-readable result")
	noColor := fs.Bool("no-color", false, "disable colour")
	if code, ok := fs.parse(m, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return usageError(m, fmt.Sprintf("plan validate takes no positional arguments (got %q); use -chdir=DIR for another directory", fs.Arg(0)))
	}
	wd := m.workDir(fs.chdir)
	src := views.Sources{Dir: wd}
	diags := refuseEmptyConfig(wd, &planFlags{})
	if !diags.HasErrors() {
		var config *configs.Config
		config, diags = configs.LoadConfigDir(wd)
		if config != nil {
			src.Files = config.SourceFiles()
		}
		if !diags.HasErrors() {
			// Provider schemas come from the providers plan would use
			// (plugins found by discovery, checked against the lock file).
			factories, ds := m.ProviderSource().ValidateFactories(wd, config)
			diags = append(diags, ds...)
			var core *terraform.Context
			if !ds.HasErrors() {
				core, ds = terraform.NewContext(&terraform.ContextOpts{ProviderSource: terraform.ProviderFactories(factories), WorkingDir: wd})
				diags = append(diags, ds...)
			}
			if core != nil && !ds.HasErrors() {
				diags = append(diags, core.Validate(config)...)
			}
		}
	}
	if *jsonOut {
		return validateJSON(m, diags, src)
	}
	u := &ui{out: m.Stdout, errw: m.Stderr}
	u.col.Enabled = !*noColor && m.StdoutTTY
	u.errColor = !*noColor && m.StderrTTY
	u.diags(diags, src)
	if diags.HasErrors() {
		return ExitError
	}
	fmt.Fprintln(m.Stdout, u.col.Green(u.col.Bold("Success!"))+" The configuration is valid.")
	return ExitOK
}

// validateJSON prints terraform validate -json's object.
func validateJSON(m *Meta, diags hcl.Diagnostics, src views.Sources) int {
	files := src.HCLFiles(diags)
	out := struct {
		FormatVersion string           `json:"format_version"`
		Valid         bool             `json:"valid"`
		ErrorCount    int              `json:"error_count"`
		WarningCount  int              `json:"warning_count"`
		Diagnostics   []views.DiagJSON `json:"diagnostics"`
	}{FormatVersion: "1.0", Diagnostics: []views.DiagJSON{}}
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			out.ErrorCount++
		} else {
			out.WarningCount++
		}
		out.Diagnostics = append(out.Diagnostics, views.ToDiagJSON(d, files))
	}
	out.Valid = out.ErrorCount == 0
	b, _ := json.MarshalIndent(out, "", "  ")
	fmt.Fprintln(m.Stdout, string(b))
	if !out.Valid {
		return ExitError
	}
	return ExitOK
}
