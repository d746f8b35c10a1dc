package inputguard

import (
	"fmt"
	"strings"

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
	if isJSON {
		if diags := checkNesting(filename, src, true); diags.HasErrors() {
			return diags
		}
		return checkJSONNumbers(filename, src)
	}
	// The source is lexed at most once, and only when a cheap scan cannot
	// vouch for it.
	var tokens hclsyntax.Tokens
	lex := func() hclsyntax.Tokens {
		if tokens == nil {
			tokens, _ = hclsyntax.LexConfig(src, filename, hcl.InitialPos)
		}
		return tokens
	}
	if bound, ok := scanNestingBound(src, maxNestingDepth); !ok || bound > maxNestingDepth {
		if r, ok := tokenNestingExceeded(lex()); ok {
			return nestingDiag(r)
		}
	}
	if diags := checkConfigLiteralRuns(src, lex); diags.HasErrors() {
		return diags
	}
	return checkNumberLiterals(src, lex)
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
	if diags := checkLiteralRuns(src, lex); diags.HasErrors() {
		return diags
	}
	return checkNumberLiterals(src, lex)
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

// MaxNumberExponent bounds the decimal exponent of a number literal. A
// number is kept as a binary float, so 1e600000000 costs nothing to hold,
// but parsing it, and writing it in decimal for a plan, a state or the
// screen (600 million digits), takes hours. Numbers of up to a hundred
// thousand digits still work.
const MaxNumberExponent = 100000

// exponentDigits is how many digits an exponent needs to pass
// MaxNumberExponent.
const exponentDigits = 6

// hugeExponentAt returns the index of the first "e" or "E" in src followed
// by an optional sign and at least exponentDigits digits (whatever the
// context: a string or a comment too), or -1. O(len(src)).
func hugeExponentAt(src []byte) int {
	for i := 0; i < len(src); i++ {
		if src[i] != 'e' && src[i] != 'E' {
			continue
		}
		j := i + 1
		if j < len(src) && (src[j] == '+' || src[j] == '-') {
			j++
		}
		k := j
		for k < len(src) && src[k] >= '0' && src[k] <= '9' {
			k++
		}
		if k-j >= exponentDigits && exponentTooLarge(src[j:k]) {
			return i
		}
	}
	return -1
}

// exponentTooLarge reports whether the decimal digits ds exceed
// MaxNumberExponent.
func exponentTooLarge(ds []byte) bool {
	n := 0
	for _, d := range ds {
		if n = n*10 + int(d-'0'); n > MaxNumberExponent {
			return true
		}
	}
	return false
}

// checkNumberLiterals reports a number literal whose exponent is beyond
// MaxNumberExponent. Sources without such a digit pattern anywhere are not
// lexed. O(len(src)).
func checkNumberLiterals(src []byte, lex func() hclsyntax.Tokens) hcl.Diagnostics {
	if hugeExponentAt(src) < 0 {
		return nil
	}
	for _, tok := range lex() {
		if tok.Type == hclsyntax.TokenNumberLit && hugeExponentAt(tok.Bytes) >= 0 {
			return numberDiag(string(tok.Bytes), tok.Range)
		}
	}
	return nil
}

// checkJSONNumbers is checkNumberLiterals for JSON: a huge exponent
// outside a string. O(len(src)).
func checkJSONNumbers(filename string, src []byte) hcl.Diagnostics {
	if hugeExponentAt(src) < 0 {
		return nil
	}
	line := 1
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case c == '\n':
			line++
		case c == '"':
			for i++; i < len(src) && src[i] != '"' && src[i] != '\n'; i++ {
				if src[i] == '\\' {
					i++
				}
			}
			if i < len(src) && src[i] == '\n' {
				line++
			}
		case c == '-' || (c >= '0' && c <= '9'):
			j := i
			for j < len(src) && strings.IndexByte("+-.eE0123456789", src[j]) >= 0 {
				j++
			}
			if hugeExponentAt(src[i:j]) >= 0 {
				pos := hcl.Pos{Line: line, Column: 1, Byte: i}
				return numberDiag(string(src[i:j]), hcl.Range{Filename: filename, Start: pos, End: pos})
			}
			i = j - 1
		}
	}
	return nil
}

func numberDiag(lit string, r hcl.Range) hcl.Diagnostics {
	if len(lit) > 40 {
		lit = lit[:40] + "..."
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Number too large",
		Detail: fmt.Sprintf("The number %s has a decimal exponent beyond %d, so plankit did not parse this file: writing it out would take longer than any run can. "+
			"Use a smaller number, or a string if it is an identifier.", lit, MaxNumberExponent),
		Subject: r.Ptr(),
	}}
}

// CheckJSONNumbers reports a JSON number whose exponent is beyond
// MaxNumberExponent (for jsondecode, whose strings are not templates).
// O(len(src)).
func CheckJSONNumbers(filename string, src []byte) hcl.Diagnostics {
	return checkJSONNumbers(filename, src)
}
