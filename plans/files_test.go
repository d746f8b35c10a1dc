package plans

import (
	"strings"
	"testing"
)

func TestCheckFiles(t *testing.T) {
	tests := []struct {
		name  string
		files []*File
		err   string
	}{
		{name: "none"},
		{name: "every kind", files: []*File{
			{Path: "/abs/x", Kind: FileExists},
			{Path: "a", Kind: FileContent, Content: []byte("x")},
			{Path: "b", Kind: FileAbsent},
			{Path: "d", Kind: FileDir, List: []string{"a", "b/c"}},
		}},
		{name: "nil record", files: []*File{nil}, err: "empty"},
		{name: "empty path", files: []*File{{Kind: FileAbsent}}, err: "empty"},
		{name: "twice", files: []*File{{Path: "a", Kind: FileAbsent}, {Path: "a", Kind: FileExists}}, err: "twice"},
		{name: "unsorted", files: []*File{{Path: "b", Kind: FileAbsent}, {Path: "a", Kind: FileAbsent}}, err: "out of order"},
		{name: "unknown kind", files: []*File{{Path: "a", Kind: 9}}, err: "unknown kind"},
		{name: "content on absent", files: []*File{{Path: "a", Kind: FileAbsent, Content: []byte("x")}}, err: "has content"},
		{name: "listing on file", files: []*File{{Path: "a", Kind: FileContent, List: []string{"x"}}}, err: "has a listing"},
		{name: "control character", files: []*File{{Path: "a\nb", Kind: FileAbsent}}, err: "control"},
		{name: "invalid UTF-8", files: []*File{{Path: "a\xff", Kind: FileAbsent}}, err: "UTF-8"},
		{name: "backslash", files: []*File{{Path: `a\b`, Kind: FileAbsent}}, err: "backslash"},
		{name: "unsorted listing", files: []*File{{Path: "d", Kind: FileDir, List: []string{"b", "a"}}}, err: "out of order"},
		{name: "empty listing name", files: []*File{{Path: "d", Kind: FileDir, List: []string{""}}}, err: "empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckFiles(tt.files)
			switch {
			case tt.err == "" && err != nil:
				t.Fatalf("CheckFiles: %v", err)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Fatalf("CheckFiles = %v, want an error mentioning %q", err, tt.err)
			}
		})
	}
}

func TestFileKindNames(t *testing.T) {
	for _, k := range []FileKind{FileContent, FileExists, FileAbsent, FileDir} {
		got, ok := ParseFileKind(k.String())
		if !ok || got != k {
			t.Errorf("ParseFileKind(%q) = %v, %v", k.String(), got, ok)
		}
	}
	if _, ok := ParseFileKind("symlink"); ok {
		t.Error("ParseFileKind accepted an unknown kind")
	}
}
