package inputguard

import (
	"bytes"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// checkConfigLiteralRuns is checkLiteralRuns for native configuration
// syntax, with a cheaper test first. In configuration syntax a run of
// literal pieces can span lines only inside a heredoc ("<<"): a quoted
// string ends at its line (the lexer gives a newline token there, which
// ends the run), so without heredocs a run is at most as long as its line
// is in bytes. A source with no "<<" and no line longer than MaxLiteralRun
// bytes therefore has no run to report and is not lexed: most large
// configurations, which have far more than MaxLiteralRun lines, used to be
// lexed twice (here and by the parser). O(len(src)), no allocation.
func checkConfigLiteralRuns(src []byte, lex func() hclsyntax.Tokens) hcl.Diagnostics {
	if !bytes.Contains(src, []byte("<<")) && longestLine(src) <= MaxLiteralRun {
		return nil
	}
	return checkLiteralRuns(src, lex)
}

// longestLine is the length in bytes of the longest line of src. O(len(src)).
func longestLine(src []byte) int {
	longest := 0
	for len(src) > 0 {
		i := bytes.IndexByte(src, '\n')
		if i < 0 {
			i = len(src)
		}
		longest = max(longest, i)
		src = src[min(i+1, len(src)):]
	}
	return longest
}
