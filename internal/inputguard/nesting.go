package inputguard

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// maxNestingDepth bounds how deeply brackets, parentheses, braces, quoted
// strings, heredocs and template sequences may nest in one file. The HCL
// parsers recurse once (or more) per level, and Go's stack overflow is a
// fatal error, not a recoverable panic: 100,000 nested parentheses kill
// the process. Real configurations stay far below a few dozen levels.
const maxNestingDepth = 1000

// checkNesting reports, before any parser runs, a file whose nesting is
// deeper than maxNestingDepth, naming the line where the limit is crossed.
// Native syntax is measured on the HCL lexer's own tokens, so comments,
// heredocs, quoted strings and template directives count exactly as the
// parser will see them; JSON is measured by a byte scan, plus the template
// syntax inside each JSON string. Cost: O(n) in the file size. Lexing a
// whole file costs as much as parsing it and allocates every token, so
// native files first get scanNestingBound's allocation-free upper bound,
// and only a file whose bound reaches the limit (or that the scan cannot
// vouch for) is lexed.
func checkNesting(filename string, src []byte, isJSON bool) hcl.Diagnostics {
	if isJSON {
		return checkJSONNesting(filename, src)
	}
	if bound, ok := scanNestingBound(src, maxNestingDepth); ok && bound <= maxNestingDepth {
		return nil
	}
	// Lexer diagnostics are ignored here: the parser repeats them.
	tokens, _ := hclsyntax.LexConfig(src, filename, hcl.InitialPos)
	if r, ok := tokenNestingExceeded(tokens); ok {
		return nestingDiag(r)
	}
	return nil
}

// tokenNestingExceeded returns the range of the token that opens level
// maxNestingDepth+1, if any. Closers without an opener are ignored.
func tokenNestingExceeded(tokens hclsyntax.Tokens) (hcl.Range, bool) {
	depth := 0
	for _, tok := range tokens {
		switch tokenNesting(tok.Type) {
		case +1:
			depth++
			if depth > maxNestingDepth {
				return tok.Range, true
			}
		case -1:
			if depth > 0 {
				depth--
			}
		}
	}
	return hcl.Range{}, false
}

// tokenNesting is +1 for a token that opens a nesting level, -1 for one
// that closes it, 0 otherwise.
func tokenNesting(t hclsyntax.TokenType) int {
	switch t {
	case hclsyntax.TokenOBrace, hclsyntax.TokenOBrack, hclsyntax.TokenOParen,
		hclsyntax.TokenOQuote, hclsyntax.TokenOHeredoc,
		hclsyntax.TokenTemplateInterp, hclsyntax.TokenTemplateControl:
		return +1
	case hclsyntax.TokenCBrace, hclsyntax.TokenCBrack, hclsyntax.TokenCParen,
		hclsyntax.TokenCQuote, hclsyntax.TokenCHeredoc, hclsyntax.TokenTemplateSeqEnd:
		return -1
	}
	return 0
}

// checkJSONNesting is checkNesting for the JSON syntax. Every string is also
// lexed as an HCL template, because the JSON decoder parses string values
// (and object keys in expressions) as templates when they are evaluated.
func checkJSONNesting(filename string, src []byte) hcl.Diagnostics {
	depth := 0
	pos := hcl.InitialPos
	advance := func(b byte) {
		pos.Byte++
		if b == '\n' {
			pos.Line++
			pos.Column = 1
		} else if b < 0x80 || b >= 0xC0 { // count characters, not continuation bytes
			pos.Column++
		}
	}
	for i := 0; i < len(src); {
		switch c := src[i]; c {
		case '[', '{':
			depth++
			if depth > maxNestingDepth {
				return nestingDiag(hcl.Range{Filename: filename, Start: pos, End: hcl.Pos{Line: pos.Line, Column: pos.Column + 1, Byte: pos.Byte + 1}})
			}
		case ']', '}':
			if depth > 0 {
				depth--
			}
		case '"':
			start := pos
			j := i + 1
			for j < len(src) && src[j] != '"' && src[j] != '\n' {
				if src[j] == '\\' && j+1 < len(src) {
					j++
				}
				j++
			}
			end := j
			if j < len(src) && src[j] == '"' {
				end = j + 1
			}
			if ds := checkJSONString(filename, src[i:end], start); ds != nil {
				return ds
			}
			for ; i < end; i++ {
				advance(src[i])
			}
			continue
		}
		advance(src[i])
		i++
	}
	return nil
}

// checkJSONString lexes one JSON string token's content as a template and
// checks its nesting; start is where the token begins. A string JSON
// cannot decode is left to the JSON parser to report. Only "${" and "%{"
// open a template sequence, and a token without a backslash decodes to its
// own bytes, so a string with neither is skipped undecoded and unlexed, as
// most strings of a .tf.json file are (BenchmarkCheckNestingJSON measures
// it).
func checkJSONString(filename string, tok []byte, start hcl.Pos) hcl.Diagnostics {
	if bytes.IndexByte(tok, '\\') < 0 && !bytes.Contains(tok, []byte("${")) && !bytes.Contains(tok, []byte("%{")) {
		return nil
	}
	var s string
	if json.Unmarshal(tok, &s) != nil {
		return nil
	}
	tokens, _ := hclsyntax.LexTemplate([]byte(s), filename, start)
	if _, ok := tokenNestingExceeded(tokens); ok {
		// Positions inside the template are off by the escapes JSON
		// removed; the string's own start is exact.
		return nestingDiag(hcl.Range{Filename: filename, Start: start, End: hcl.Pos{Line: start.Line, Column: start.Column + 1, Byte: start.Byte + 1}})
	}
	if diags := literalRunDiag(tokens); diags.HasErrors() {
		diags[0].Subject = &hcl.Range{Filename: filename, Start: start, End: hcl.Pos{Line: start.Line, Column: start.Column + 1, Byte: start.Byte + 1}}
		return diags
	}
	return nil
}

func nestingDiag(r hcl.Range) hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Configuration nested too deeply",
		Detail: fmt.Sprintf("Brackets, parentheses, braces, strings and template sequences nest more than %d levels deep at this point, "+
			"so plankit did not parse this file. Flatten the expression, for example by moving parts of it into locals.", maxNestingDepth),
		Subject: r.Ptr(),
	}}
}
