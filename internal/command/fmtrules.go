package command

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
)

// canonicalSource formats src the way terraform fmt does: hclwrite's
// layout, block labels quoted (variable y { → variable "y" {), plus two
// rewrites of expressions that have a simpler modern form: an attribute whose whole value is one interpolation ("${var.x}")
// becomes the bare expression, and a variable's type written the 0.11
// way ("string", "list", "map") or as a bare collection keyword (list,
// map, set) gets its explicit form (string, list(string), map(string);
// list(any), ...). src must parse (formatSource checks). O(len(src)).
func canonicalSource(src []byte, filename string) []byte {
	f, diags := hclwrite.ParseConfig(src, filename, hcl.InitialPos)
	if diags.HasErrors() {
		return hclwrite.Format(src)
	}
	canonicalBody(f.Body(), "")
	return f.Bytes()
}

// canonicalBody rewrites the attributes of body and its nested blocks;
// block is the type of the top-level block body is in ("" at the top).
func canonicalBody(body *hclwrite.Body, block string) {
	for name, attr := range body.Attributes() {
		toks := attr.Expr().BuildTokens(nil)
		if block == "variable" && name == "type" {
			body.SetAttributeRaw(name, canonicalType(toks))
			continue
		}
		body.SetAttributeRaw(name, unwrapInterpolation(toks))
	}
	for _, b := range body.Blocks() {
		quoteLabels(b)
		inner := block
		if inner == "" {
			inner = b.Type()
		} else {
			inner = "nested"
		}
		canonicalBody(b.Body(), inner)
	}
}

// unwrapInterpolation turns "${EXPR}" into EXPR when the template is
// that single interpolation and nothing else; a multi-line EXPR is kept
// in parentheses so it still parses.
func unwrapInterpolation(toks hclwrite.Tokens) hclwrite.Tokens {
	n := len(toks)
	if n < 5 || toks[0].Type != hclsyntax.TokenOQuote || toks[1].Type != hclsyntax.TokenTemplateInterp ||
		toks[n-2].Type != hclsyntax.TokenTemplateSeqEnd || toks[n-1].Type != hclsyntax.TokenCQuote {
		return toks
	}
	inner := toks[2 : n-2]
	depth := 0 // nested quoted strings may hold their own templates
	for _, t := range inner {
		switch t.Type {
		case hclsyntax.TokenOQuote:
			depth++
		case hclsyntax.TokenCQuote:
			depth--
		case hclsyntax.TokenTemplateInterp, hclsyntax.TokenTemplateSeqEnd, hclsyntax.TokenQuotedLit:
			if depth == 0 {
				return toks // a second interpolation, or literal text
			}
		}
	}
	for len(inner) > 0 && inner[0].Type == hclsyntax.TokenNewline {
		inner = inner[1:]
	}
	for len(inner) > 0 && inner[len(inner)-1].Type == hclsyntax.TokenNewline {
		inner = inner[:len(inner)-1]
	}
	if len(inner) == 0 {
		return toks
	}
	multiLine := false
	for _, t := range inner {
		if t.Type == hclsyntax.TokenNewline {
			multiLine = true
		}
	}
	wrapped := inner[0].Type == hclsyntax.TokenOParen && inner[len(inner)-1].Type == hclsyntax.TokenCParen
	if multiLine && !wrapped {
		out := hclwrite.Tokens{{Type: hclsyntax.TokenOParen, Bytes: []byte("(")}}
		out = append(out, inner...)
		return append(out, &hclwrite.Token{Type: hclsyntax.TokenCParen, Bytes: []byte(")")})
	}
	return inner
}

// canonicalType rewrites a variable's legacy or bare type expression.
func canonicalType(toks hclwrite.Tokens) hclwrite.Tokens {
	call := func(fn, arg string) hclwrite.Tokens {
		return hclwrite.Tokens{
			{Type: hclsyntax.TokenIdent, Bytes: []byte(fn)},
			{Type: hclsyntax.TokenOParen, Bytes: []byte("(")},
			{Type: hclsyntax.TokenIdent, Bytes: []byte(arg)},
			{Type: hclsyntax.TokenCParen, Bytes: []byte(")")},
		}
	}
	switch {
	case len(toks) == 1 && toks[0].Type == hclsyntax.TokenIdent:
		switch kw := string(toks[0].Bytes); kw {
		case "list", "map", "set":
			return call(kw, "any")
		}
	case len(toks) == 3 && toks[0].Type == hclsyntax.TokenOQuote && toks[1].Type == hclsyntax.TokenQuotedLit && toks[2].Type == hclsyntax.TokenCQuote:
		// Terraform 0.11 had no "any": its collections held strings.
		switch string(toks[1].Bytes) {
		case "string":
			return hclwrite.Tokens{{Type: hclsyntax.TokenIdent, Bytes: []byte("string")}}
		case "list":
			return call("list", "string")
		case "map":
			return call("map", "string")
		}
	}
	return toks
}

// quoteLabels writes a block's bare labels (HCL 1's form, still parsed)
// quoted, as tofu fmt and terraform fmt do. Blocks whose labels are all
// quoted already are left as written, escapes included.
func quoteLabels(b *hclwrite.Block) {
	bare, n := false, 0
	for _, tok := range b.BuildTokens(nil)[1:] {
		if tok.Type == hclsyntax.TokenOBrace {
			break
		}
		switch tok.Type {
		case hclsyntax.TokenIdent:
			bare = true
			n++
		case hclsyntax.TokenOQuote:
			n++
		}
	}
	// Labels leaves out what it cannot read; then nothing is rewritten.
	if labels := b.Labels(); bare && len(labels) == n {
		b.SetLabels(labels)
	}
}
