package review

import "testing"

// TestMarkupEscaping: code spans, fences and table cells hold any text
// as CommonMark (GitHub's and GitLab's Markdown) reads it.
func TestMarkupEscaping(t *testing.T) {
	for _, tc := range []struct{ fn, in, want string }{
		{"code", `aws_s3.b["x"]`, "`aws_s3.b[\"x\"]`"},
		{"code", "a`b", "``a`b``"},
		{"code", "`edge", "`` `edge ``"},
		{"code", "x``y", "```x``y```"},
		{"code", "two\nlines", "`two lines`"},
		{"cell", "`a|b`", "`a\\|b`"},
		{"fence", "no ticks", "```diff\nno ticks\n```"},
		{"fence", "has ```` four", "`````diff\nhas ```` four\n`````"},
		{"diff", "  # x will be updated\n  ~ resource \"t\" \"x\" {\n      + a = 1\n      - b = 2\n      ~ c = 3 -> 4\n    }",
			"   # x will be updated\n!   resource \"t\" \"x\" {\n+       a = 1\n-       b = 2\n!       c = 3 -> 4\n     }"},
		{"diff", "-/+ resource \"t\" \"x\" {", "!-/+ resource \"t\" \"x\" {"},
	} {
		var got string
		switch tc.fn {
		case "code":
			got = codeSpan(tc.in)
		case "cell":
			got = tableCell(tc.in)
		case "fence":
			got = fence("diff", tc.in)
		case "diff":
			got = diffMarkup(tc.in)
		}
		if got != tc.want {
			t.Errorf("%s(%q) = %q, want %q", tc.fn, tc.in, got, tc.want)
		}
	}
}
