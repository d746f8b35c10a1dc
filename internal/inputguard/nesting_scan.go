package inputguard

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
// are structural: comments ("#" and "//" to the newline, "/*" to the first
// "*/", an unterminated "/*" being two operator tokens), quoted templates
// ("\x", "$${" and "%%{" are literals, a newline does not end the string),
// heredocs ("<<" "-"? identifier newline; the marker closes only a line
// that starts at the beginning of a line and is one literal token, compared
// after trimming spaces, as the lexer does), and template sequences "${"
// and "%{", ended by the "}" or "~}" at their own level of the lexer's
// brace counter, reproduced exactly (stray "}" included). It counts the same
// opener and closer tokens with the same saturation at zero, so where it
// vouches for a bound the bound equals the lexer's depth; no opening
// character is skipped except inside a comment, a literal or an escape the
// lexer also reads as one. A multi-byte or broken UTF-8 sequence never
// swallows an ASCII byte in the lexer, so non-ASCII text in strings and
// comments is skipped safely. Wherever the lexer is subtle the scan gives
// up instead of guessing: a non-ASCII byte in expression syntax (Unicode
// identifiers) or in a heredoc, a carriage return without a newline in a
// heredoc (the lexer stops there), a heredoc line the lexer splits into
// several tokens that contains the marker. Giving up only costs time. The
// differential tests in nesting_scan_test.go hold the scan to the lexer on
// every fixture, the fuzz seeds, random inputs and a fuzz target.
func scanNestingBound(src []byte, limit int) (bound int, ok bool) {
	s := nestingScan{
		src:          bytes.TrimPrefix(src, []byte("\xef\xbb\xbf")), // the lexer skips a BOM
		limit:        limit,
		noCommentEnd: len(src) + 1,
	}
	for i := 0; i < len(s.src); {
		var st scanStatus
		switch s.mode() {
		case frameQuote:
			i, st = s.quoteStep(i)
		case frameHeredoc:
			i, st = s.heredocStep(i)
		default:
			i, st = s.exprStep(i)
		}
		switch st {
		case scanOver:
			return s.maxDepth, true
		case scanUnsure:
			return s.maxDepth, false
		}
	}
	return s.maxDepth, true
}

// nestingScan is the state of one scanNestingBound run: the lexer's mode
// stack and brace counter, and the nesting depth counted so far.
type nestingScan struct {
	src          []byte
	limit        int
	stack        []scanFrame
	depth        int
	maxDepth     int
	braces       int // the lexer's brace counter; a stray "}" makes it negative there too
	noCommentEnd int // no "*/" at or after this index: keeps the scan O(n)
}

// scanStatus says whether a scan step lets the scan go on.
type scanStatus int

const (
	scanGoOn   scanStatus = iota
	scanOver              // the depth passed the limit
	scanUnsure            // the lexer's behaviour here is not modelled
)

func (s *nestingScan) mode() byte {
	if len(s.stack) == 0 {
		return 0
	}
	return s.stack[len(s.stack)-1].kind
}

// open counts an opener token; a frame with a kind is pushed as well.
func (s *nestingScan) open(f scanFrame) scanStatus {
	if f.kind != 0 {
		s.stack = append(s.stack, f)
	}
	s.depth++
	s.maxDepth = max(s.maxDepth, s.depth)
	switch {
	case s.depth > s.limit:
		return scanOver
	case len(s.stack) > s.limit:
		return scanUnsure
	}
	return scanGoOn
}

// close counts a closer token (ignored at depth 0, as tokenNestingExceeded
// does) and pops the current frame if pop is set.
func (s *nestingScan) close(pop bool) {
	if s.depth > 0 {
		s.depth--
	}
	if pop {
		s.stack = s.stack[:len(s.stack)-1]
	}
}

// templateSeq handles the "$" or "%" at src[i] in a quoted template or
// heredoc: "${" and "%{" open a template sequence.
func (s *nestingScan) templateSeq(i int) (int, scanStatus) {
	next, seq := templateSeqStart(s.src, i)
	if !seq {
		return next, scanGoOn
	}
	s.braces++
	return next, s.open(scanFrame{kind: frameTemplate, braces: s.braces})
}

// quoteStep scans one token's worth of a quoted template.
func (s *nestingScan) quoteStep(i int) (int, scanStatus) {
	switch c := s.src[i]; c {
	case '"':
		s.close(true)
	case '\\': // an escape takes the next character, unless it is a newline
		if i+1 < len(s.src) && s.src[i+1] != '\n' && s.src[i+1] != '\r' {
			return i + 2, scanGoOn
		}
	case '$', '%':
		return s.templateSeq(i)
	}
	return i + 1, scanGoOn
}

// heredocStep scans a heredoc: a whole line when one starts here and the
// lexer reads it as one literal token (it may be the closing marker),
// otherwise one character.
func (s *nestingScan) heredocStep(i int) (int, scanStatus) {
	f := &s.stack[len(s.stack)-1]
	if f.sol {
		line := s.src[i:]
		if end := bytes.IndexByte(line, '\n'); end >= 0 {
			line = line[:end+1]
			if plainHeredocLine(line) {
				if bytes.Equal(bytes.TrimSpace(line), f.marker) {
					s.close(true)
				}
				return i + end + 1, scanGoOn
			}
		}
		if bytes.Contains(line, f.marker) {
			return i, scanUnsure // a line the lexer splits, near the marker
		}
	}
	f.sol = false
	switch c := s.src[i]; {
	case c >= 0x80 || (c == '\r' && (i+1 >= len(s.src) || s.src[i+1] != '\n')):
		return i, scanUnsure
	case c == '\n':
		f.sol = true
	case c == '$' || c == '%':
		return s.templateSeq(i)
	}
	return i + 1, scanGoOn
}

// exprStep scans one token of expression syntax: the file's top level or
// the inside of a template sequence.
func (s *nestingScan) exprStep(i int) (int, scanStatus) {
	src := s.src
	switch c := src[i]; c {
	case '{':
		s.braces++
		return i + 1, s.open(scanFrame{})
	case '}': // "~}" acts the same: the lexer counts braces for both
		top := len(s.stack) - 1
		s.close(top >= 0 && s.stack[top].kind == frameTemplate && s.stack[top].braces == s.braces)
		s.braces--
	case '[', '(':
		return i + 1, s.open(scanFrame{})
	case ']', ')':
		s.close(false)
	case '"':
		return i + 1, s.open(scanFrame{kind: frameQuote})
	case '#':
		return lineCommentEnd(src, i), scanGoOn
	case '/':
		if i+1 < len(src) && src[i+1] == '/' {
			return lineCommentEnd(src, i), scanGoOn
		}
		if i+1 < len(src) && src[i+1] == '*' && i+2 < s.noCommentEnd {
			if e := bytes.Index(src[i+2:], []byte("*/")); e >= 0 {
				return i + 2 + e + 2, scanGoOn
			}
			s.noCommentEnd = i + 2 // unterminated: "/" and "*" are operators
		}
	case '<':
		marker, next, state := heredocIntro(src, i)
		switch state {
		case heredocUnsure:
			return i, scanUnsure
		case heredocYes:
			return next, s.open(scanFrame{kind: frameHeredoc, marker: marker, sol: true})
		}
	default:
		if c >= 0x80 {
			return i, scanUnsure // Unicode identifiers and invalid bytes: the lexer's business
		}
	}
	return i + 1, scanGoOn
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
