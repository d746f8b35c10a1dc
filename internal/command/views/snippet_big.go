package views

import (
	"bytes"
	"fmt"
	"io"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcled"
)

// bigSnippetFile is the file size from which diagnostics get their source
// snippet from writeBigFileSnippet. HCL's own writer scans the whole file,
// grapheme by grapheme, for every diagnostic: on a file of millions of
// lines that is minutes and gigabytes for a handful of warnings.
const bigSnippetFile = 1 << 20

// writeBigFileSnippet writes what hcl's DiagnosticTextWriter writes for d
// (summary, "on FILE line N, in CONTEXT:", the numbered source lines with
// the subject highlighted) with the cost of the lines shown, using the
// ranges' byte offsets instead of scanning f from its start.
func writeBigFileSnippet(w io.Writer, d *hcl.Diagnostic, f *hcl.File, color bool) {
	sev, colorCode, highlight, reset := "Error", "", "", ""
	if d.Severity == hcl.DiagWarning {
		sev = "Warning"
	}
	if color {
		colorCode, highlight, reset = "\x1b[31m", "\x1b[1;4m", "\x1b[0m"
		if d.Severity == hcl.DiagWarning {
			colorCode = "\x1b[33m"
		}
	}
	fmt.Fprintf(w, "%s%s%s: %s\n\n", colorCode, sev, reset, d.Summary)
	subj := *d.Subject
	src := f.Bytes
	ctx := ""
	if f.Body != nil {
		if c := hcled.ContextString(f, subj.Start.Byte); c != "" {
			ctx = ", in " + c
		}
	}
	fmt.Fprintf(w, "  on %s line %d%s:\n", subj.Filename, subj.Start.Line, ctx)
	snip := subj
	if d.Context != nil {
		snip = hcl.RangeOver(snip, *d.Context)
	}
	start := clampByte(snip.Start.Byte, src)
	end := max(clampByte(snip.End.Byte, src), start)
	// Widen to whole lines.
	start = bytes.LastIndexByte(src[:start], '\n') + 1
	if i := bytes.IndexByte(src[end:], '\n'); i >= 0 {
		end += i
	} else {
		end = len(src)
	}
	hs, he := clampByte(subj.Start.Byte, src), clampByte(subj.End.Byte, src)
	line := snip.Start.Line
	for off := start; off <= end && off < len(src); line++ {
		eol := bytes.IndexByte(src[off:end], '\n')
		if eol < 0 {
			eol = end - off
		}
		text := src[off : off+eol]
		a, b := min(max(hs-off, 0), len(text)), min(max(he-off, 0), len(text))
		if b > a {
			fmt.Fprintf(w, "%4d: %s%s%s%s%s\n", line, text[:a], highlight, text[a:b], reset, text[b:])
		} else {
			fmt.Fprintf(w, "%4d: %s\n", line, text)
		}
		off += eol + 1
	}
	fmt.Fprintln(w)
}

func clampByte(b int, src []byte) int { return min(max(b, 0), len(src)) }
