package configs

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// The nesting guard (see checkNesting) for every other HCL source plankit
// parses: variable files, -var and TF_VAR_ values, the lock file, templates
// and the source snippets of diagnostics. The same limit applies
// everywhere, so nothing the configuration loader refuses can crash
// another parser.

// MaxNestingDepth is the deepest nesting of brackets, parentheses, braces,
// strings and template sequences any HCL source may have.
const MaxNestingDepth = maxNestingDepth

// CheckNesting reports a configuration-syntax file (native, or JSON when
// isJSON) that nests deeper than MaxNestingDepth. O(len(src)).
func CheckNesting(filename string, src []byte, isJSON bool) hcl.Diagnostics {
	return checkNesting(filename, src, isJSON)
}

// CheckExprNesting is CheckNesting for a lone native expression (a -var
// value). O(len(src)).
func CheckExprNesting(filename string, src []byte) hcl.Diagnostics {
	if openerBound(src) <= maxNestingDepth {
		return nil
	}
	return CheckNesting(filename, src, false)
}

// CheckTemplateNesting is CheckNesting for a template (templatefile,
// templatestring). O(len(src)).
func CheckTemplateNesting(filename string, src []byte, start hcl.Pos) hcl.Diagnostics {
	if openerBound(src) <= maxNestingDepth {
		return nil
	}
	tokens, _ := hclsyntax.LexTemplate(src, filename, start)
	if r, ok := tokenNestingExceeded(tokens); ok {
		return nestingDiag(r)
	}
	return nil
}

// openerBound counts the bytes that can start an opening token: every
// opener ("{", "[", "(", a quote, "<<", "${", "%{") contains one of
// them, each a byte of its own, so the count bounds the nesting depth and
// most sources need no lexing. O(len(src)), no allocation.
func openerBound(src []byte) int {
	n := 0
	for _, c := range src {
		switch c {
		case '{', '[', '(', '"', '<':
			n++
		}
	}
	return n
}

// binaryProbe is how much of a file CheckText looks at, as git does to
// tell text from binary.
const binaryProbe = 8000

// CheckText refuses a file that is evidently binary (a NUL byte near its
// start) with one error, instead of one error per bad byte: random bytes
// would otherwise give a diagnostic, and a snippet, for nearly every byte.
// No HCL or JSON source has a NUL byte. O(1).
func CheckText(filename string, src []byte) hcl.Diagnostics {
	probe := src[:min(len(src), binaryProbe)]
	for i, c := range probe {
		if c == 0 {
			pos := hcl.Pos{Line: 1 + countNewlines(probe[:i]), Column: 1, Byte: i}
			return hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Binary file",
				Detail:   "This file has a NUL byte, so it is not a text file, and plankit did not parse it. Check that the right file is named here.",
				Subject:  &hcl.Range{Filename: filename, Start: pos, End: pos},
			}}
		}
	}
	return nil
}

func countNewlines(b []byte) int {
	n := 0
	for _, c := range b {
		if c == '\n' {
			n++
		}
	}
	return n
}
