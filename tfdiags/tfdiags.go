// Package tfdiags holds the conventions plankit uses around its single
// diagnostics type, hcl.Diagnostics.
//
// Every package reports problems as hcl.Diagnostics: severity, summary,
// detail, and a source range (Subject) when the problem has a place in a
// file. Diagnostics that concern an attribute of a provider value (a
// resource argument the provider rejected, say) carry the cty.Path in
// Extra, via WithPath, so the renderer can point at the argument.
package tfdiags

import (
	"errors"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// Error returns a sourceless error diagnostic.
func Error(summary, detail string) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail}
}

// Errorf returns a sourceless error diagnostic whose detail is formatted.
func Errorf(summary, format string, args ...any) *hcl.Diagnostic {
	return Error(summary, fmt.Sprintf(format, args...))
}

// Warning returns a sourceless warning diagnostic.
func Warning(summary, detail string) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: summary, Detail: detail}
}

// FromError turns a Go error into diagnostics. A nil error gives nil;
// an error that already wraps hcl.Diagnostics is returned as those.
func FromError(summary string, err error) hcl.Diagnostics {
	if err == nil {
		return nil
	}
	var ds hcl.Diagnostics
	if errors.As(err, &ds) {
		return ds
	}
	return hcl.Diagnostics{Error(summary, err.Error())}
}

// pathExtra is what WithPath stores in hcl.Diagnostic.Extra.
type pathExtra struct {
	path  cty.Path
	inner any
}

// UnwrapDiagnosticExtra lets hcl.DiagnosticExtra find extras stored beneath.
func (p pathExtra) UnwrapDiagnosticExtra() any { return p.inner }

// WithPath records an attribute path on d (for provider diagnostics) and
// returns d.
func WithPath(d *hcl.Diagnostic, path cty.Path) *hcl.Diagnostic {
	d.Extra = pathExtra{path: path.Copy(), inner: d.Extra}
	return d
}

// AttributePath returns the attribute path recorded by WithPath, or nil.
func AttributePath(d *hcl.Diagnostic) cty.Path {
	if p, ok := hcl.DiagnosticExtra[pathExtra](d); ok {
		return p.path
	}
	return nil
}

// Err returns the diagnostics as an error if any is an error, else nil.
func Err(ds hcl.Diagnostics) error {
	if ds.HasErrors() {
		return ds
	}
	return nil
}
