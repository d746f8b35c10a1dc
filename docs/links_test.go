// Package docs holds the project's documentation (Markdown) and the tests
// that keep it true: every relative link in README.md and docs/*.md
// resolves, the README's test command is the one CI runs, and the archive
// format's entry table matches planfile's entry names.
package docs

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"
)

// markdownFiles are the documents whose links are checked, relative to the
// repository root.
func markdownFiles(t *testing.T, root string) []string {
	t.Helper()
	files := []string{"README.md"}
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range docs {
		rel, _ := filepath.Rel(root, f)
		files = append(files, filepath.ToSlash(rel))
	}
	return files
}

// TestLinks checks every relative link of README.md and docs/*.md: the
// file or directory exists, and a #fragment names a heading (or an
// explicit anchor) of the target document.
func TestLinks(t *testing.T) {
	root := filepath.Join("..")
	files := markdownFiles(t, root)
	if len(files) < 2 {
		t.Fatalf("found only %v: the test is not looking at the docs", files)
	}
	var broken []string
	checked := 0
	for _, f := range files {
		problems, n, err := checkLinks(root, f)
		if err != nil {
			t.Fatal(err)
		}
		broken = append(broken, problems...)
		checked += n
	}
	if checked == 0 {
		t.Fatal("no relative links found: the link parser is broken")
	}
	for _, b := range broken {
		t.Error(b)
	}
}

// TestLinkChecker runs the checker on small documents, so that a checker
// which accepts everything fails here.
func TestLinkChecker(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want []string
	}{
		{"file exists", "see [other](other.md)\n", nil},
		{"directory exists", "see [dir](sub/)\n", nil},
		{"heading anchor", "see [x](other.md#the-lock-file)\n", nil},
		{"code heading anchor", "see [x](other.md#plan-init)\n", nil},
		{"punctuation dropped", "see [x](other.md#errors-exit-codes-and-limits)\n", nil},
		{"duplicate heading", "see [x](other.md#notes-1)\n", nil},
		{"explicit anchor", "see [x](other.md#custom)\n", nil},
		{"own heading", "# Top\n\nsee [x](#top)\n", nil},
		{"external ignored", "see [x](https://example.com/nope.md)\n", nil},
		{"link inside code ignored", "`[x](nope.md)`\n\n```\n[x](nope.md)\n```\n", nil},
		{"reference link", "see [x][r]\n\n[r]: other.md#the-lock-file\n", nil},
		{"missing file", "see [x](nope.md)\n", []string{"doc.md:1: nope.md: no such file"}},
		{"missing anchor", "see [x](other.md#nope)\n", []string{"doc.md:1: other.md#nope: no such anchor in other.md"}},
		{"missing own anchor", "# Top\n\nsee [x](#nope)\n", []string{"doc.md:3: #nope: no such anchor in doc.md"}},
		{"broken reference", "[r]: gone.md\n", []string{"doc.md:1: gone.md: no such file"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			other := "# Other\n\n## The lock file\n\n### `plan init`\n\n" +
				"## Errors, exit codes and limits\n\n## Notes\n\n## Notes\n\n<a id=\"custom\"></a>\n\n```\n# not a heading\n```\n"
			must(t, os.WriteFile(filepath.Join(dir, "other.md"), []byte(other), 0o644))
			must(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
			must(t, os.WriteFile(filepath.Join(dir, "doc.md"), []byte(tt.doc), 0o644))
			got, _, err := checkLinks(dir, "doc.md")
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

var (
	inlineLink = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	refLink    = regexp.MustCompile(`^\s{0,3}\[[^\]]+\]:\s*(\S+)`)
	codeSpan   = regexp.MustCompile("`+[^`]*`+")
	scheme     = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
	htmlAnchor = regexp.MustCompile(`<a\s+(?:id|name)="([^"]+)"`)
	mdLinkText = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
)

// checkLinks returns one line per broken relative link of the document
// rel (relative to root), and how many relative links it checked.
func checkLinks(root, rel string) ([]string, int, error) {
	b, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		return nil, 0, err
	}
	var problems []string
	checked := 0
	for i, line := range proseLines(string(b)) {
		if line == "" {
			continue
		}
		var targets []string
		line = codeSpan.ReplaceAllString(line, "")
		for _, m := range inlineLink.FindAllStringSubmatch(line, -1) {
			targets = append(targets, m[1])
		}
		if m := refLink.FindStringSubmatch(line); m != nil {
			targets = append(targets, m[1])
		}
		for _, target := range targets {
			if scheme.MatchString(target) {
				continue
			}
			checked++
			if p := checkTarget(root, rel, target); p != "" {
				problems = append(problems, fmt.Sprintf("%s:%d: %s: %s", rel, i+1, target, p))
			}
		}
	}
	return problems, checked, nil
}

// checkTarget says what is wrong with one relative link target of the
// document rel, or "".
func checkTarget(root, rel, target string) string {
	path, frag, _ := strings.Cut(target, "#")
	file := rel
	if path != "" {
		file = filepath.ToSlash(filepath.Join(filepath.Dir(rel), path))
		if _, err := os.Stat(filepath.Join(root, file)); err != nil {
			return "no such file"
		}
	}
	if frag == "" {
		return ""
	}
	if !strings.HasSuffix(file, ".md") {
		return "an anchor into a file that is not Markdown"
	}
	b, err := os.ReadFile(filepath.Join(root, file))
	if err != nil {
		return err.Error()
	}
	if !slices.Contains(anchors(string(b)), frag) {
		return "no such anchor in " + file
	}
	return ""
}

// proseLines returns the document's lines with those inside fenced code
// blocks blanked, so that line numbers stay those of the file.
func proseLines(doc string) []string {
	lines := strings.Split(doc, "\n")
	fence := ""
	for i, l := range lines {
		trimmed := strings.TrimSpace(l)
		switch {
		case fence != "":
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			lines[i] = ""
		case strings.HasPrefix(trimmed, "```"), strings.HasPrefix(trimmed, "~~~"):
			fence = trimmed[:3]
			lines[i] = ""
		}
	}
	return lines
}

// anchors lists the fragment names a document offers, as GitHub makes
// them: one per heading (a repeated heading gets -1, -2, ...) and one per
// <a id="..."> or <a name="...">.
func anchors(doc string) []string {
	var out []string
	seen := map[string]int{}
	for _, l := range proseLines(doc) {
		for _, m := range htmlAnchor.FindAllStringSubmatch(l, -1) {
			out = append(out, m[1])
		}
		if !strings.HasPrefix(l, "#") {
			continue
		}
		text := strings.TrimLeft(l, "#")
		if text == "" || text[0] != ' ' {
			continue
		}
		s := slug(text)
		if n := seen[s]; n > 0 {
			out = append(out, fmt.Sprintf("%s-%d", s, n))
		} else {
			out = append(out, s)
		}
		seen[s]++
	}
	return out
}

// slug is GitHub's anchor for a heading's text: the text as rendered
// (link targets and code marks dropped), lower-cased, with spaces turned
// into hyphens and every other character that is not a letter, a digit,
// a hyphen or an underscore removed.
func slug(heading string) string {
	heading = mdLinkText.ReplaceAllString(strings.TrimSpace(heading), "$1")
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case unicode.IsLetter(r), unicode.IsDigit(r), r == '-', r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}
