package funcs

import (
	"errors"
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

func TestFilesName(t *testing.T) {
	wd := filepath.FromSlash("/work/project")
	if abs, err := filepath.Abs(wd); err == nil {
		wd = abs
	}
	tests := []struct{ path, want string }{
		{"modules/site/files/header.txt", "modules/site/files/header.txt"},
		{"./modules/site/../site/x.txt", "modules/site/x.txt"},
		{filepath.Join(wd, "modules", "x.txt"), "modules/x.txt"},
		{wd, "."},
		{"../shared/ca.pem", "../shared/ca.pem"},
		{filepath.Join(filepath.Dir(wd), "other", "x"), filepath.ToSlash(filepath.Join(filepath.Dir(wd), "other", "x"))},
		{filepath.Join(wd+"-sibling", "x"), filepath.ToSlash(filepath.Join(wd+"-sibling", "x"))},
	}
	for _, tt := range tests {
		got, err := Files{Dir: wd}.name(tt.path)
		if err != nil {
			t.Fatal(err)
		}
		if got != tt.want {
			t.Errorf("name(%q) = %q, want %q", tt.path, got, tt.want)
		}
	}
}

// mapSource is a FileSource over a map: name -> content; names ending in
// "/" are directories listing the names under them.
type mapSource map[string]string

func (m mapSource) ReadFile(name string) ([]byte, error) {
	if c, ok := m[name]; ok {
		return []byte(c), nil
	}
	return nil, fs.ErrNotExist
}

func (m mapSource) Stat(name string) (fs.FileMode, error) {
	if _, ok := m[name]; ok {
		return 0, nil
	}
	if _, ok := m[name+"/"]; ok {
		return fs.ModeDir, nil
	}
	return 0, fs.ErrNotExist
}

func (m mapSource) ListFiles(dir string) ([]string, error) {
	if _, ok := m[dir+"/"]; !ok {
		return nil, fs.ErrNotExist
	}
	var out []string
	for name := range m {
		if rel, err := filepath.Rel(dir, name); err == nil && name != dir+"/" && rel[0] != '.' {
			out = append(out, filepath.ToSlash(rel))
		}
	}
	return out, nil
}

// TestFileFunctionsUseTheSource: every file function reads through
// Files.Source, with names relative to the working directory, and never
// touches the disk (the directory does not exist).
func TestFileFunctionsUseTheSource(t *testing.T) {
	wd := filepath.Join(t.TempDir(), "does-not-exist")
	files := Files{Dir: wd, Source: mapSource{"m/a.txt": "hello", "m/": "", "m/b.txt": "b"}}
	s := cty.StringVal
	runCases(t, MakeFileFunc(files, false), []callCase{
		{name: "relative", args: []cty.Value{s("m/a.txt")}, want: s("hello")},
		{name: "absolute inside the working directory", args: []cty.Value{s(filepath.Join(wd, "m", "a.txt"))}, want: s("hello")},
		{name: "missing", args: []cty.Value{s("m/c.txt")}, err: `no file exists at "m/c.txt"`},
	})
	runCases(t, MakeFileExistsFunc(files), []callCase{
		{name: "exists", args: []cty.Value{s("m/a.txt")}, want: cty.True},
		{name: "absent", args: []cty.Value{s("m/c.txt")}, want: cty.False},
		{name: "directory", args: []cty.Value{s("m")}, err: "is not a regular file"},
	})
	runCases(t, MakeFileSetFunc(files), []callCase{
		{name: "listing", args: []cty.Value{s("m"), s("*.txt")}, want: cty.SetVal([]cty.Value{s("a.txt"), s("b.txt")})},
		{name: "missing dir", args: []cty.Value{s("n"), s("*")}, want: cty.SetValEmpty(cty.String)},
	})
	runCases(t, MakeFileSHA1Func(files), []callCase{
		{name: "hash", args: []cty.Value{s("m/a.txt")}, want: s("aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d")},
	})
}

func TestOSFilesListFiles(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"d/b.txt": "b", "d/a/c.txt": "c", "top.txt": "t"})
	got, err := OSFiles(dir).ListFiles("d")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"a/c.txt", "b.txt"}, got); d != "" {
		t.Errorf("ListFiles (-want +got):\n%s", d)
	}
	if _, err := OSFiles(dir).ListFiles("nope"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ListFiles of a missing directory: %v, want fs.ErrNotExist", err)
	}
}
