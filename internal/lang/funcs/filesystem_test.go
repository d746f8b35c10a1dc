package funcs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// writeTree creates files (slash paths relative to dir) with contents.
func writeTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

func TestFile(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"hello.txt": "Hello World", "sub/bin": "\xff\xfe"})
	s := cty.StringVal
	runCases(t, MakeFileFunc(Files{Dir: dir}, false), []callCase{
		{name: "relative", args: []cty.Value{s("hello.txt")}, want: s("Hello World")},
		{name: "absolute", args: []cty.Value{s(filepath.Join(dir, "hello.txt"))}, want: s("Hello World")},
		{name: "dot segments", args: []cty.Value{s("sub/../hello.txt")}, want: s("Hello World")},
		{name: "missing", args: []cty.Value{s("nope.txt")}, err: `no file exists at "nope.txt"`},
		{name: "binary", args: []cty.Value{s("sub/bin")}, err: "use filebase64"},
		{name: "directory", args: []cty.Value{s("sub")}, err: "failed to read file"},
		{name: "unknown", args: []cty.Value{cty.UnknownVal(cty.String)}, want: cty.UnknownVal(cty.String)},
		{name: "sensitive path", args: []cty.Value{sens(s("hello.txt"))}, want: sens(s("Hello World"))},
		{name: "null", args: []cty.Value{cty.NullVal(cty.String)}, err: "must not be null"},
	})
	runCases(t, MakeFileFunc(Files{Dir: dir}, true), []callCase{
		{name: "text", args: []cty.Value{s("hello.txt")}, want: s("SGVsbG8gV29ybGQ=")},
		{name: "binary", args: []cty.Value{s("sub/bin")}, want: s("//4=")},
		{name: "missing", args: []cty.Value{s("nope")}, err: "no file exists"},
	})
}

func TestFileExists(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a.txt": "a", "d/b.txt": "b"})
	s := cty.StringVal
	runCases(t, MakeFileExistsFunc(Files{Dir: dir}), []callCase{
		{name: "exists", args: []cty.Value{s("a.txt")}, want: cty.True},
		{name: "nested", args: []cty.Value{s("d/b.txt")}, want: cty.True},
		{name: "missing", args: []cty.Value{s("nope")}, want: cty.False},
		{name: "directory", args: []cty.Value{s("d")}, err: "is not a regular file"},
		{name: "unknown", args: []cty.Value{cty.UnknownVal(cty.String)}, want: cty.UnknownVal(cty.Bool)},
		{name: "sensitive", args: []cty.Value{sens(s("a.txt"))}, want: sens(cty.True)},
	})
}

func TestPathFunctions(t *testing.T) {
	s := cty.StringVal
	base := t.TempDir()
	runCases(t, MakeAbsPathFunc(base), []callCase{
		{name: "relative", args: []cty.Value{s("a/../b")}, want: s(filepath.ToSlash(filepath.Join(base, "b")))},
		{name: "absolute", args: []cty.Value{s("/x/y/../z")}, want: s("/x/z")},
		{name: "unknown", args: []cty.Value{cty.UnknownVal(cty.String)}, want: cty.UnknownVal(cty.String)},
	})
	runCases(t, BasenameFunc, []callCase{
		{name: "file", args: []cty.Value{s("foo/bar/baz.txt")}, want: s("baz.txt")},
		{name: "trailing slash", args: []cty.Value{s("foo/bar/")}, want: s("bar")},
		{name: "empty", args: []cty.Value{s("")}, want: s(".")},
		{name: "sensitive", args: []cty.Value{sens(s("a/b"))}, want: sens(s("b"))},
	})
	runCases(t, DirnameFunc, []callCase{
		{name: "file", args: []cty.Value{s("foo/bar/baz.txt")}, want: s("foo/bar")},
		{name: "bare", args: []cty.Value{s("baz.txt")}, want: s(".")},
		{name: "unknown", args: []cty.Value{cty.UnknownVal(cty.String)}, want: cty.UnknownVal(cty.String)},
	})
	home, err := os.UserHomeDir()
	if err != nil {
		t.Skip("no home directory")
	}
	runCases(t, PathExpandFunc, []callCase{
		{name: "tilde", args: []cty.Value{s("~/x")}, want: s(filepath.Join(home, "x"))},
		{name: "plain", args: []cty.Value{s("/etc/hosts")}, want: s("/etc/hosts")},
		{name: "other user unsupported", args: []cty.Value{s("~bob/x")}, err: "failed to expand ~"},
	})
}

func TestFileSet(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"files/a.txt":       "",
		"files/b.json":      "",
		"files/sub/c.txt":   "",
		"files/sub/d/e.txt": "",
		"files/.hidden.txt": "",
		"files/{x}.txt":     "",
	})
	set := func(ss ...string) cty.Value {
		vs := make([]cty.Value, len(ss))
		for i, x := range ss {
			vs[i] = cty.StringVal(x)
		}
		return cty.SetVal(vs)
	}
	s := cty.StringVal
	runCases(t, MakeFileSetFunc(Files{Dir: dir}), []callCase{
		{name: "star", args: []cty.Value{s("files"), s("*.txt")}, want: set(".hidden.txt", "a.txt", "{x}.txt")},
		{name: "double star", args: []cty.Value{s("files"), s("**/*.txt")}, want: set(".hidden.txt", "a.txt", "sub/c.txt", "sub/d/e.txt", "{x}.txt")},
		{name: "all", args: []cty.Value{s("files"), s("**")}, want: set(".hidden.txt", "a.txt", "b.json", "sub/c.txt", "sub/d/e.txt", "{x}.txt")},
		{name: "double star inside a segment is a star", args: []cty.Value{s("files"), s("su**/*.txt")}, want: set("sub/c.txt")},
		{name: "alternatives", args: []cty.Value{s("files"), s("{a,b}.*")}, want: set("a.txt", "b.json")},
		{name: "alternatives with globs", args: []cty.Value{s("files"), s("*.{json,nope}")}, want: set("b.json")},
		{name: "alternatives across directories", args: []cty.Value{s("files"), s("{sub/d,sub}/*.txt")}, want: set("sub/c.txt", "sub/d/e.txt")},
		{name: "nested alternatives", args: []cty.Value{s("files"), s("{a.{txt,md},b.json}")}, want: set("a.txt", "b.json")},
		{name: "empty alternative", args: []cty.Value{s("files"), s("sub/{,d/}*.txt")}, want: set("sub/c.txt", "sub/d/e.txt")},
		{name: "escaped braces are literal", args: []cty.Value{s("files"), s(`\{x\}.txt`)}, want: set("{x}.txt")},
		{name: "unmatched brace", args: []cty.Value{s("files"), s("{a,b.txt")}, err: "unmatched '{'"},
		{name: "stray closing brace", args: []cty.Value{s("files"), s("a}.txt")}, err: "unmatched '}'"},
		{name: "explosion", args: []cty.Value{s("files"), s(strings.Repeat("{a,b}", 11))}, err: "more than 1024 alternatives"},
		{name: "null", args: []cty.Value{s("files"), cty.NullVal(cty.String)}, err: "must not be null"},
		{name: "prefix double star", args: []cty.Value{s("files"), s("sub/**")}, want: set("sub/c.txt", "sub/d/e.txt")},
		{name: "class", args: []cty.Value{s("files"), s("[ab].*")}, want: set("a.txt", "b.json")},
		{name: "literal", args: []cty.Value{s("files"), s("b.json")}, want: set("b.json")},
		{name: "no match", args: []cty.Value{s("files"), s("*.yaml")}, want: cty.SetValEmpty(cty.String)},
		{name: "missing dir", args: []cty.Value{s("nope"), s("*")}, want: cty.SetValEmpty(cty.String)},
		{name: "path is a file", args: []cty.Value{s("files/a.txt"), s("*")}, want: cty.SetValEmpty(cty.String)},
		{name: "bad pattern", args: []cty.Value{s("files"), s("[")}, err: "invalid glob pattern"},
		{name: "unknown", args: []cty.Value{s("files"), cty.UnknownVal(cty.String)}, want: cty.UnknownVal(cty.Set(cty.String))},
		{name: "sensitive", args: []cty.Value{sens(s("files")), s("*.json")}, want: sens(set("b.json"))},
	})
}
