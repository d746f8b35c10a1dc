package views

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"

	"github.com/plankit/plankit/internal/inputguard"
	"github.com/plankit/plankit/internal/operation"
	"github.com/plankit/plankit/internal/safeio"
	"github.com/plankit/plankit/tfdiags"
)

// Sources finds a source file's bytes for a diagnostic snippet: first
// among Files (the configuration or its snapshot), then on disk under Dir.
type Sources struct {
	Files map[string][]byte
	Dir   string
}

func (s Sources) HCLFiles(diags hcl.Diagnostics) map[string]*hcl.File {
	out := map[string]*hcl.File{}
	for _, d := range diags {
		for _, r := range []*hcl.Range{d.Subject, d.Context} {
			if r == nil || r.Filename == "" {
				continue
			}
			if _, ok := out[r.Filename]; ok {
				continue
			}
			if src, ok := s.Files[r.Filename]; ok {
				out[r.Filename] = parseForContext(r.Filename, src)
				continue
			}
			p := r.Filename
			if !filepath.IsAbs(p) && s.Dir != "" {
				p = filepath.Join(s.Dir, p)
			}
			if src, err := safeio.ReadFile(p, safeio.ConfigFileLimit); err == nil {
				out[r.Filename] = parseForContext(r.Filename, src)
			}
		}
	}
	return out
}

// parseForContext parses a source file so that a diagnostic can name the
// block it is in ("in resource "x" "y""); a file that does not parse still
// gives its bytes for the snippet.
//
// It parses only what the configuration loader would: a file nesting
// deeper than the loader's guard allows (inputguard.CheckNesting), or that is
// binary, gives its bytes alone, because the HCL parsers recurse once per
// level and a deep enough file overflows the stack.
func parseForContext(name string, src []byte) *hcl.File {
	var f *hcl.File
	isJSON := strings.HasSuffix(name, ".json")
	parse := isJSON || strings.HasSuffix(name, ".tf") || strings.HasSuffix(name, ".tofu") || strings.HasSuffix(name, ".tfvars") || strings.HasSuffix(name, ".hcl")
	if parse && (inputguard.CheckText(name, src).HasErrors() || inputguard.CheckNesting(name, src, isJSON).HasErrors()) {
		parse = false
	}
	if len(src) > bigSnippetFile {
		// Parsing a big file again only to name the block a diagnostic is
		// in would hold a second syntax tree of it in memory (gigabytes
		// for a file of a million lines); its snippets go without.
		parse = false
	}
	switch {
	case !parse:
	case isJSON:
		f, _ = hcljson.Parse(src, name)
	default:
		f, _ = hclsyntax.ParseConfig(src, name, hcl.InitialPos)
	}
	if f == nil || f.Body == nil {
		return &hcl.File{Bytes: src}
	}
	return f
}

// WriteDiagnostics renders diags for a person: severity and summary, the
// file:line with a source snippet where there is one, then the detail.
// Attribute paths recorded with tfdiags.WithPath are named after the
// summary. Errors come after warnings, each in input order. As Terraform
// does, plain output (no colour) has each diagnostic between blank lines,
// and coloured output draws each in a box (╷ │ ╵) in the severity's
// colour. Detail paragraphs wrap at 78 columns; lines that start with a
// space are kept as they are (commands, lock info).
func WriteDiagnostics(w io.Writer, diags hcl.Diagnostics, src Sources, color bool) {
	if len(diags) == 0 {
		return
	}
	ordered := CapPerFile(diags)
	// Warnings, then errors, then the warnings about those errors.
	rank := func(d *hcl.Diagnostic) int {
		switch {
		case FollowsErrors(d):
			return 2
		case d.Severity == hcl.DiagError:
			return 1
		}
		return 0
	}
	sort.SliceStable(ordered, func(i, j int) bool { return rank(ordered[i]) < rank(ordered[j]) })
	files := src.HCLFiles(ordered)
	for _, d := range ordered {
		dd := *d
		if p := tfdiags.AttributePath(d); len(p) > 0 {
			dd.Summary = fmt.Sprintf("%s (at %s)", dd.Summary, tfdiags.FormatPath(p))
		}
		detail := strings.TrimSpace(dd.Detail)
		dd.Detail = ""
		var buf bytes.Buffer
		if f := files[subjectFile(&dd)]; f != nil && len(f.Bytes) > bigSnippetFile && dd.Expression == nil {
			writeBigFileSnippet(&buf, &dd, f, color)
		} else {
			_ = hcl.NewDiagnosticTextWriter(&buf, files, 0, color).WriteDiagnostic(&dd)
		}
		body := strings.TrimRight(buf.String(), "\n")
		width := 78
		if color {
			width = 76 // the box's "│ " takes two columns
		}
		if detail != "" {
			body += "\n\n" + wrapDetail(detail, width)
		}
		if !color {
			fmt.Fprintf(w, "\n%s\n", body)
			continue
		}
		edge := "\x1b[31m" // red for errors
		if d.Severity == hcl.DiagWarning {
			edge = "\x1b[33m"
		}
		var b strings.Builder
		b.WriteString(edge + "╷\x1b[0m\n")
		for _, line := range strings.Split(body, "\n") {
			b.WriteString(edge + "│\x1b[0m " + line + "\n")
		}
		b.WriteString(edge + "╵\x1b[0m\n")
		_, _ = io.WriteString(w, b.String())
	}
}

// subjectFile is the file d's subject is in, or "".
func subjectFile(d *hcl.Diagnostic) string {
	if d.Subject == nil {
		return ""
	}
	return d.Subject.Filename
}

// wrapDetail word-wraps each paragraph of a diagnostic's detail at width
// columns. Lines that start with a space or a tab are preformatted and
// kept whole, so a command to copy never breaks.
func wrapDetail(s string, width int) string {
	var b strings.Builder
	for i, line := range strings.Split(s, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		if line == "" || line[0] == ' ' || line[0] == '\t' {
			b.WriteString(strings.TrimRight(line, " "))
			continue
		}
		col := 0
		for j, word := range strings.Fields(line) {
			switch {
			case j == 0:
			case col+1+len(word) > width:
				b.WriteByte('\n')
				col = 0
			default:
				b.WriteByte(' ')
				col++
			}
			b.WriteString(word)
			col += len(word)
		}
	}
	return b.String()
}

// DiagJSON is a diagnostic in the machine-readable UI's shape.
type DiagJSON struct {
	Severity string     `json:"severity"`
	Summary  string     `json:"summary"`
	Detail   string     `json:"detail"`
	Address  string     `json:"address,omitempty"`
	Range    *rangeJSON `json:"range,omitempty"`
	Snippet  *snippet   `json:"snippet,omitempty"`
}

type posJSON struct {
	Line   int `json:"line"`
	Column int `json:"column"`
	Byte   int `json:"byte"`
}

type rangeJSON struct {
	Filename string  `json:"filename"`
	Start    posJSON `json:"start"`
	End      posJSON `json:"end"`
}

type snippet struct {
	Context              *string `json:"context"`
	Code                 string  `json:"code"`
	StartLine            int     `json:"start_line"`
	HighlightStartOffset int     `json:"highlight_start_offset"`
	HighlightEndOffset   int     `json:"highlight_end_offset"`
	Values               []any   `json:"values"`
}

func ToDiagJSON(d *hcl.Diagnostic, files map[string]*hcl.File) DiagJSON {
	out := DiagJSON{Severity: "error", Summary: d.Summary, Detail: d.Detail}
	if d.Severity == hcl.DiagWarning {
		out.Severity = "warning"
	}
	if p := tfdiags.AttributePath(d); len(p) > 0 {
		out.Address = tfdiags.FormatPath(p)
	}
	if r := d.Subject; r != nil {
		out.Range = &rangeJSON{Filename: r.Filename,
			Start: posJSON{r.Start.Line, r.Start.Column, r.Start.Byte},
			End:   posJSON{r.End.Line, r.End.Column, r.End.Byte}}
		if f := files[r.Filename]; f != nil && r.Start.Line >= 1 && r.Start.Byte >= 0 && r.Start.Byte <= len(f.Bytes) {
			// The line is found from the range's byte offset: O(line),
			// not O(file) per diagnostic.
			src := f.Bytes
			lineStart := bytes.LastIndexByte(src[:r.Start.Byte], '\n') + 1
			lineEnd := len(src)
			if i := bytes.IndexByte(src[r.Start.Byte:], '\n'); i >= 0 {
				lineEnd = r.Start.Byte + i
			}
			code := string(src[lineStart:lineEnd])
			hs := min(max(r.Start.Byte-lineStart, 0), len(code))
			he := min(max(r.End.Byte-lineStart, hs), len(code))
			out.Snippet = &snippet{Code: code, StartLine: r.Start.Line, HighlightStartOffset: hs, HighlightEndOffset: he, Values: []any{}}
		}
	}
	return out
}

// JSONView writes the machine-readable UI: one JSON object per line with
// @level, @message, @module, @timestamp and type, as `terraform plan
// -json` does. Safe for use from one goroutine at a time; the apply hook
// serialises its calls.
type JSONView struct {
	W   io.Writer
	Now func() time.Time
}

// Emit writes one message. fields are merged into the object.
func (v *JSONView) Emit(level, typ, message string, fields map[string]any) {
	now := time.Now
	if v.Now != nil {
		now = v.Now
	}
	obj := map[string]any{
		"@level": level, "@message": message, "@module": "terraform.ui",
		"@timestamp": now().UTC().Format("2006-01-02T15:04:05.000000Z07:00"), "type": typ,
	}
	for k, val := range fields {
		obj[k] = val
	}
	b, err := json.Marshal(obj)
	if err != nil {
		return
	}
	b = append(b, '\n')
	_, _ = v.W.Write(b)
}

// Version emits the version message that opens every -json stream.
func (v *JSONView) Version() {
	v.Emit("info", "version", "plankit "+operation.Version, map[string]any{"terraform": operation.Version, "ui": "1.2"})
}

// Diagnostics emits one diagnostic message each.
func (v *JSONView) Diagnostics(diags hcl.Diagnostics, src Sources) {
	diags = CapPerFile(diags)
	files := src.HCLFiles(diags)
	for _, d := range diags {
		dj := ToDiagJSON(d, files)
		prefix := "Error: "
		if dj.Severity == "warning" {
			prefix = "Warning: "
		}
		v.Emit(dj.Severity, "diagnostic", prefix+d.Summary, map[string]any{"diagnostic": dj})
	}
}

// FollowsErrors reports whether a warning refers to the errors reported
// with it ("the errors reported above"), so it is written after them.
func FollowsErrors(d *hcl.Diagnostic) bool {
	return d.Severity == hcl.DiagWarning && d.Summary == SkippedSummary
}

// SkippedSummary is the summary of the core's warning for what a failure
// kept from running; its detail names resource blocks (the core never
// expanded them), so the command restates it with instance addresses.
const SkippedSummary = "Objects skipped after errors"
