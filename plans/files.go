package plans

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// FileKind says what a plan learned about a file its configuration's
// functions looked at.
type FileKind int

const (
	// FileContent: the file was read (file, templatefile, filebase64,
	// filemd5, ...); Content holds its bytes.
	FileContent FileKind = iota + 1
	// FileExists: fileexists found a regular file, which nothing read.
	FileExists
	// FileAbsent: nothing was there (fileexists false, fileset of a
	// missing directory, or a failed read).
	FileAbsent
	// FileDir: fileset listed the directory; List holds its regular
	// files.
	FileDir
)

var fileKindNames = map[FileKind]string{FileContent: "content", FileExists: "exists", FileAbsent: "absent", FileDir: "dir"}

// String returns the kind's name as the plan archive writes it.
func (k FileKind) String() string {
	if n, ok := fileKindNames[k]; ok {
		return n
	}
	return fmt.Sprintf("FileKind(%d)", int(k))
}

// ParseFileKind is String's inverse.
func ParseFileKind(s string) (FileKind, bool) {
	for k, n := range fileKindNames {
		if n == s {
			return k, true
		}
	}
	return 0, false
}

// File is one file (or directory) the configuration's file functions
// looked at while planning, as it was then. Apply serves these instead of
// the disk, so it evaluates the configuration with the bytes that were
// reviewed, from any directory.
type File struct {
	// Path is the name the functions resolved: slash-separated, cleaned,
	// relative to the working directory (absolute only for files outside
	// it). It is a lookup key only, never used to write anything.
	Path string
	Kind FileKind
	// Content is the file's bytes (FileContent).
	Content []byte
	// List is the sorted slash-separated paths, relative to Path, of the
	// regular files under the directory (FileDir).
	List []string
}

// CheckFiles verifies that files are in the order Plan.Files keeps them
// (sorted by Path, each Path once) and that every field fits its Kind, so a
// decoder can refuse a damaged or hostile list. O(total size of the names).
func CheckFiles(files []*File) error {
	for i, f := range files {
		if f == nil {
			return fmt.Errorf("file record %d is empty", i)
		}
		if err := checkFileName(f.Path); err != nil {
			return fmt.Errorf("file record %d: %v", i, err)
		}
		if i > 0 && f.Path <= files[i-1].Path {
			return fmt.Errorf("file %q is out of order or listed twice", f.Path)
		}
		if _, ok := fileKindNames[f.Kind]; !ok {
			return fmt.Errorf("file %q has an unknown kind %d", f.Path, int(f.Kind))
		}
		if f.Kind != FileContent && len(f.Content) > 0 {
			return fmt.Errorf("file %q (%s) has content", f.Path, f.Kind)
		}
		if f.Kind != FileDir && len(f.List) > 0 {
			return fmt.Errorf("file %q (%s) has a listing", f.Path, f.Kind)
		}
		for j, n := range f.List {
			if err := checkFileName(n); err != nil {
				return fmt.Errorf("directory %q, entry %d: %v", f.Path, j, err)
			}
			if j > 0 && n <= f.List[j-1] {
				return fmt.Errorf("directory %q lists %q out of order or twice", f.Path, n)
			}
		}
	}
	return nil
}

// checkFileName refuses names no file function would have produced: empty,
// with control characters or invalid UTF-8, or backslashes.
func checkFileName(n string) error {
	switch {
	case n == "":
		return fmt.Errorf("the path is empty")
	case !utf8.ValidString(n):
		return fmt.Errorf("the path is not valid UTF-8")
	case strings.ContainsFunc(n, unicode.IsControl):
		return fmt.Errorf("the path %q has control characters", n)
	case strings.Contains(n, `\`):
		return fmt.Errorf("the path %q has a backslash", n)
	}
	return nil
}

// SortFiles sorts files by Path, as Plan.Files keeps them.
func SortFiles(files []*File) {
	slices.SortFunc(files, func(a, b *File) int { return strings.Compare(a.Path, b.Path) })
}
