package views

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// maxDiagsPerFile is how many diagnostics of one severity are shown for one
// source file. A binary or badly broken file gives an error for nearly
// every byte, and each one's snippet costs a pass over the file: beyond a
// few dozen they only hide the first, which is the one to fix.
const maxDiagsPerFile = 20

// CapPerFile returns a copy of diags keeping, for each file and severity,
// the first maxDiagsPerFile diagnostics, and after them one more saying
// how many were left out ("and N more"). Diagnostics without a file are
// all kept. O(len(diags)).
func CapPerFile(diags hcl.Diagnostics) hcl.Diagnostics {
	type key struct {
		file string
		sev  hcl.DiagnosticSeverity
	}
	counts := map[key]int{}
	var order []key
	out := make(hcl.Diagnostics, 0, min(len(diags), 64))
	for _, d := range diags {
		d = WithoutStackTrace(d)
		if d.Subject == nil || d.Subject.Filename == "" {
			out = append(out, d)
			continue
		}
		k := key{d.Subject.Filename, d.Severity}
		if counts[k] == 0 {
			order = append(order, k)
		}
		counts[k]++
		if counts[k] <= maxDiagsPerFile {
			out = append(out, d)
		}
	}
	for _, k := range order {
		if n := counts[k] - maxDiagsPerFile; n > 0 {
			kind := "errors"
			if k.sev == hcl.DiagWarning {
				kind = "warnings"
			}
			out = append(out, &hcl.Diagnostic{
				Severity: k.sev,
				Summary:  fmt.Sprintf("And %d more %s in %s", n, kind, k.file),
				Detail:   fmt.Sprintf("Only the first %d %s in %s are shown. Fix those and run again to see the rest.", maxDiagsPerFile, kind, k.file),
			})
		}
	}
	return out
}

// PathErrCause is err without the operation and path an *fs.PathError
// repeats: "permission denied".
func PathErrCause(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// panicMarker is how go-cty's function.PanicError starts: a function that
// panicked. Its message carries a Go stack trace, which is no message for
// a user.
const panicMarker = "panic in function implementation: "

// WithoutStackTrace returns d, or a copy whose detail keeps the panic's
// one-line cause and drops the stack trace after it. Functions are fixed
// not to panic on bad arguments; this is the net for any that still do.
func WithoutStackTrace(d *hcl.Diagnostic) *hcl.Diagnostic {
	i := strings.Index(d.Detail, panicMarker)
	if i < 0 {
		return d
	}
	cause, _, _ := strings.Cut(d.Detail[i+len(panicMarker):], "\ngoroutine ")
	c := *d
	c.Detail = d.Detail[:i] + "plankit could not evaluate it with these arguments (" + strings.TrimSpace(cause) +
		"). Check the arguments; if they are valid, this is a bug in plankit: please report the call."
	return &c
}
