package configs

import "bytes"

// scanFrame is one open construct of the native syntax that changes how
// the bytes after it are lexed.
type scanFrame struct {
	kind   byte   // frameQuote, frameHeredoc or frameTemplate
	marker []byte // frameHeredoc: the closing marker
	sol    bool   // frameHeredoc: at the start of a line
	braces int    // frameTemplate: the brace level whose "}" ends the sequence
}

const (
	frameQuote    = 'q' // inside "...": a quoted template
	frameHeredoc  = 'h' // inside <<EOT ... EOT
	frameTemplate = 't' // inside ${ ... } or %{ ... }: expression syntax
)

// scanNestingBound is a fast byte scan giving an upper bound of the nesting
// depth tokenNestingExceeded would measure on hclsyntax.LexConfig's tokens,
// without building the token slice. It returns ok=false when it cannot
// vouch for a bound; callers then fall back to the lexer. It stops early,
// returning a bound above limit, as soon as the depth passes limit, and
// gives up when more than limit constructs are open. Cost: O(n) time, no
// allocation beyond one frame per open string, heredoc or template sequence.
//
// Why the bound is safe: the scan replays the lexer's state machine
// (hclsyntax's scan_tokens.rl) for the constructs that decide which bytes
// are structural: comments ("#", "//", "/*...*/", an unterminated "/*" being
// two operator tokens), quoted templates (escapes "\x", "$${" and "%%{" as
// literals, a newline not ending the string), heredocs (introducer
// "<<" "-"? identifier newline, the closing marker recognised only on a
// whole line that starts a line, as the lexer does), template sequences
// "${" and "%{" ended by the "}" at their own brace level (the lexer's
// braces/retBraces counters, reproduced exactly, including "~}"). It counts
// the same opener and closer tokens with the same saturation at zero, so on
// the inputs it accepts the result equals the lexer's depth. Wherever the
// lexer's behaviour is subtle it gives up instead of guessing: a non-ASCII
// byte outside a quoted string or comment (Unicode identifiers, heredoc
// bytes that split lines into several tokens), a carriage return not
// followed by a newline in a heredoc (the lexer stops there), a heredoc line
// that contains its marker but is not exactly the marker line. Giving up
// only costs time; a mistake elsewhere could only miss or invent a closer,
// which the differential tests (nesting_scan_test.go) check against the
// lexer on every fixture, the fuzz seeds and a fuzz target.
func scanNestingBound(src []byte, limit int) (bound int, ok bool) {
	src = bytes.TrimPrefix(src, []byte("\xef\xbb\xbf")) // the lexer skips a BOM
	var stack []scanFrame
	depth, maxDepth, braces := 0, 0, 0
	noCommentEnd := len(src) + 1 // no "*/" at or after this index: keeps the scan O(n)
	open := func() bool {
		depth++
		maxDepth = max(maxDepth, depth)
		return depth <= limit && len(stack) <= limit
	}
	closer := func() {
		if depth > 0 {
			depth--
		}
	}
	n := len(src)
	for i := 0; i < n; {
		mode := byte(0)
		if len(stack) > 0 {
			mode = stack[len(stack)-1].kind
		}
		c := src[i]
		switch mode {
		case frameQuote:
			switch {
			case c == '"':
				closer()
				stack = stack[:len(stack)-1]
				i++
			case c == '\\':
				if i+1 < n && src[i+1] != '\n' && src[i+1] != '\r' {
					i += 2
				} else {
					i++
				}
			case c == '$' || c == '%':
				next, seq := templateSeqStart(src, i)
				if seq {
					braces++
					stack = append(stack, scanFrame{kind: frameTemplate, braces: braces})
					if !open() {
						return maxDepth, len(stack) <= limit
					}
				}
				i = next
			default:
				i++
			}
		case frameHeredoc:
			f := &stack[len(stack)-1]
			if f.sol {
				// The lexer compares a line with the marker only when the
				// whole line is one literal token.
				line := src[i:]
				if end := bytes.IndexByte(line, '\n'); end >= 0 {
					line = line[:end+1]
					if plainHeredocLine(line) {
						if bytes.Equal(bytes.TrimSpace(line), f.marker) {
							closer()
							stack = stack[:len(stack)-1]
						}
						i += end + 1
						continue
					}
				}
				if bytes.Contains(line, f.marker) {
					return maxDepth, false // a split line near the marker: leave it to the lexer
				}
			}
			f.sol = false
			switch {
			case c >= 0x80 || (c == '\r' && (i+1 >= n || src[i+1] != '\n')):
				return maxDepth, false
			case c == '\n':
				f.sol = true
				i++
			case c == '$' || c == '%':
				next, seq := templateSeqStart(src, i)
				if seq {
					braces++
					stack = append(stack, scanFrame{kind: frameTemplate, braces: braces})
					if !open() {
						return maxDepth, len(stack) <= limit
					}
				}
				i = next
			default:
				i++
			}
		default: // expression syntax: the file's top level or a template sequence
			switch c {
			case '{':
				braces++
				if !open() {
					return maxDepth, true
				}
				i++
			case '}':
				closer()
				if len(stack) > 0 && stack[len(stack)-1].kind == frameTemplate && stack[len(stack)-1].braces == braces {
					stack = stack[:len(stack)-1]
				}
				braces--
				i++
			case '[', '(':
				if !open() {
					return maxDepth, true
				}
				i++
			case ']', ')':
				closer()
				i++
			case '"':
				stack = append(stack, scanFrame{kind: frameQuote})
				if !open() {
					return maxDepth, len(stack) <= limit
				}
				i++
			case '#':
				i = lineCommentEnd(src, i)
			case '/':
				switch {
				case i+1 < n && src[i+1] == '/':
					i = lineCommentEnd(src, i)
				case i+1 < n && src[i+1] == '*':
					e := -1
					if i+2 < noCommentEnd {
						e = bytes.Index(src[i+2:], []byte("*/"))
					}
					if e >= 0 {
						i += 2 + e + 2
					} else {
						noCommentEnd = i + 2
						i++ // unterminated: "/" and "*" are operators
					}
				default:
					i++
				}
			case '<':
				marker, next, state := heredocIntro(src, i)
				switch state {
				case heredocUnsure:
					return maxDepth, false
				case heredocYes:
					stack = append(stack, scanFrame{kind: frameHeredoc, marker: marker, sol: true})
					if !open() {
						return maxDepth, len(stack) <= limit
					}
				}
				i = next
			default:
				if c >= 0x80 {
					return maxDepth, false
				}
				i++
			}
		}
	}
	return maxDepth, true
}

// templateSeqStart looks at the "$" or "%" at src[i] inside a quoted
// template or heredoc. It reports whether "${" or "%{" opens a template
// sequence there, and where lexing continues: after the "{" of a sequence,
// after a "$${" or "%%{" escape (a literal), or after the lone character.
func templateSeqStart(src []byte, i int) (next int, seq bool) {
	c := src[i]
	switch {
	case i+1 < len(src) && src[i+1] == '{':
		return i + 2, true
	case i+2 < len(src) && src[i+1] == c && src[i+2] == '{':
		return i + 3, false
	}
	return i + 1, false
}

// lineCommentEnd returns the index after the "#" or "//" comment starting
// at src[i]: past its newline, or the end of src.
func lineCommentEnd(src []byte, i int) int {
	if e := bytes.IndexByte(src[i:], '\n'); e >= 0 {
		return i + e + 1
	}
	return len(src)
}

// plainHeredocLine reports whether a heredoc line (ending in its newline)
// is lexed as one literal token: no template sequence or escape, no byte
// the lexer splits a token on, and "\r" only right before the newline.
func plainHeredocLine(line []byte) bool {
	for j, b := range line {
		switch {
		case b == '$' || b == '%' || b >= 0x80:
			return false
		case b == '\r' && line[j+1] != '\n': // the line ends in "\n", so j+1 exists
			return false
		}
	}
	return true
}

type heredocState int

const (
	heredocNo heredocState = iota
	heredocYes
	heredocUnsure
)

// heredocIntro checks whether the "<" at src[i] starts a heredoc
// introducer, "<<" "-"? identifier newline. It returns the marker and the
// index after the introducer, or (for heredocNo) after the "<". A non-ASCII
// byte where the identifier could continue gives heredocUnsure: Unicode
// identifiers are the lexer's business.
func heredocIntro(src []byte, i int) (marker []byte, next int, state heredocState) {
	j := i + 1
	if j >= len(src) || src[j] != '<' {
		return nil, i + 1, heredocNo
	}
	j++
	if j < len(src) && src[j] == '-' {
		j++
	}
	start := j
	for j < len(src) {
		b := src[j]
		isLetter := b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b == '_'
		isCont := b >= '0' && b <= '9' || b == '-'
		if b >= 0x80 {
			return nil, i + 1, heredocUnsure
		}
		if !isLetter && !(isCont && j > start) {
			break
		}
		j++
	}
	if j == start {
		return nil, i + 1, heredocNo
	}
	marker = src[start:j]
	if j < len(src) && src[j] == '\r' {
		j++
	}
	if j < len(src) && src[j] == '\n' {
		return marker, j + 1, heredocYes
	}
	return nil, i + 1, heredocNo
}
