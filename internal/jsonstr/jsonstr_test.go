package jsonstr

import (
	"encoding/json"
	"testing"
)

// FuzzAppend: Append writes every string byte for byte as encoding/json
// does (HTML characters, control characters, invalid UTF-8, U+2028/9).
func FuzzAppend(f *testing.F) {
	for _, s := range []string{"", "plain", `q"b\`, "<a>&", "\x00\x1f\n\r\t\b\f", "\xff\xfe", "é€😀", "\u2028\u2029", "a\xc3"} {
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
	})
}
