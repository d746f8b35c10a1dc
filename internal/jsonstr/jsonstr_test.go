package jsonstr

import (
	"encoding/json"
	"testing"
)

// FuzzAppend: Append writes every string byte for byte as encoding/json
// does (HTML characters, control characters, invalid UTF-8, U+2028/9).
func FuzzAppend(f *testing.F) {
	for _, s := range []string{"", "plain", `q"b\`, "<a>&", "\x00\x1f\n\r\t\b\f", "\xff\xfe", "é€😀", "\u2028\u2029", "a\xc3", "module.a.data.t.n", "a\x7fb"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := Append([]byte("x"), s); string(got) != "x"+string(want) {
			t.Fatalf("Append(%q) = %s, want %s", s, got[1:], want)
		}
		// What Plain accepts is written as itself: callers that print in
		// place (statefile's addresses) rely on it to skip Append. It
		// declines all non-ASCII, and all ASCII that Append escapes.
		asItself := string(want) == `"`+s+`"`
		if Plain([]byte(s)) && !asItself {
			t.Fatalf("Plain(%q) is true, but encoding/json writes it as %s", s, want)
		}
		if !Plain([]byte(s)) && asItself && isASCII(s) {
			t.Fatalf("Plain(%q) is false for ASCII written as itself", s)
		}
	})
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
