// Package jsonstr writes JSON strings exactly as encoding/json does, for
// the hand-written streaming encoders (plan show -json, state files) that
// must stay byte-identical to encoding/json's output without its
// reflection and allocations.
package jsonstr

import "unicode/utf8"

// plain reports whether ASCII byte c is written as itself.
func plain(c byte) bool {
	return c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
}

// Plain reports whether b is ASCII that Append writes as itself between
// the quotes (non-ASCII is declined, even where Append would copy it).
func Plain(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf || !plain(c) {
			return false
		}
	}
	return true
}

// Append appends s as a JSON string escaped as encoding/json
// escapes it: quotes, backslashes and control characters, the HTML
// characters <, > and & as \u00XX, invalid UTF-8 as \ufffd, and the
// U+2028/U+2029 separators. O(len(s)).
func Append(b []byte, s string) []byte {
	const hexDigits = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if plain(c) {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
