package configs

import (
	"fmt"

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
//
// It also reports a string, heredoc or template with more than
// MaxLiteralRun lines in a row (see checkLiteralRuns), which HCL's parser
// would take quadratic time over.
func CheckNesting(filename string, src []byte, isJSON bool) hcl.Diagnostics {
	if diags := checkNesting(filename, src, isJSON); diags.HasErrors() || isJSON {
		return diags
	}
	return checkConfigLiteralRuns(src, func() hclsyntax.Tokens {
		tokens, _ := hclsyntax.LexConfig(src, filename, hcl.InitialPos)
		return tokens
	})
}

// CheckExprNesting is CheckNesting for a lone native expression (a -var
// value). O(len(src)).
func CheckExprNesting(filename string, src []byte) hcl.Diagnostics {
	return CheckNesting(filename, src, false)
}

// CheckTemplateNesting is CheckNesting for a template (templatefile,
// templatestring). O(len(src)).
func CheckTemplateNesting(filename string, src []byte, start hcl.Pos) hcl.Diagnostics {
	var tokens hclsyntax.Tokens
	lex := func() hclsyntax.Tokens {
		if tokens == nil {
			tokens, _ = hclsyntax.LexTemplate(src, filename, start)
		}
		return tokens
	}
	if openerBound(src) > maxNestingDepth {
		if r, ok := tokenNestingExceeded(lex()); ok {
			return nestingDiag(r)
		}
	}
	return checkLiteralRuns(src, lex)
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

// MaxLiteralRun is the most literal pieces one string, heredoc or template
// may have in a row. The lexer makes a piece of each line of a heredoc or
// template, and of each "$${" or "%%{" escape, and HCL's parser joins
// consecutive pieces in time quadratic in their number: a heredoc of a
// million lines would take hours. Ten thousand lines parse in well under a
// second; longer text belongs in a file read with file().
const MaxLiteralRun = 10000

// checkLiteralRuns reports a string, heredoc or template of more than
// MaxLiteralRun pieces in a row, naming where it starts. lex lexes src
// (LexConfig or LexTemplate). A source with fewer newlines, "$" and "%"
// bytes than the limit cannot have such a run and is not lexed.
// O(len(src)).
func checkLiteralRuns(src []byte, lex func() hclsyntax.Tokens) hcl.Diagnostics {
	bound := 0
	for _, c := range src {
		if c == '\n' || c == '$' || c == '%' {
			bound++
		}
	}
	if bound <= MaxLiteralRun {
		return nil
	}
	return literalRunDiag(lex())
}

// literalRunDiag is checkLiteralRuns on tokens already lexed. O(tokens).
func literalRunDiag(tokens hclsyntax.Tokens) hcl.Diagnostics {
	run := 0
	var start hcl.Range
	for _, tok := range tokens {
		if tok.Type != hclsyntax.TokenStringLit && tok.Type != hclsyntax.TokenQuotedLit {
			run = 0
			continue
		}
		if run == 0 {
			start = tok.Range
		}
		if run++; run > MaxLiteralRun {
			return hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "String too long to parse",
				Detail: fmt.Sprintf("This string, heredoc or template has more than %d lines (or escape sequences), so plankit did not parse this file. "+
					"Keep long text in a file of its own and read it with file().", MaxLiteralRun),
				Subject: start.Ptr(),
			}}
		}
	}
	return nil
}
