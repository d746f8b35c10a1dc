package funcs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	homedir "github.com/mitchellh/go-homedir"

	"github.com/plankit/plankit/internal/safeio"
)

// FileSource is where the file functions (file, filebase64, templatefile,
// fileexists, fileset, filemd5, filesha*) get files. Names are
// slash-separated and cleaned: relative to the working directory, or
// absolute for a file outside it. A plan records what its functions read
// through a FileSource and apply serves the recorded bytes through another,
// so what was reviewed is what is applied. Implementations must be
// comparable (lang.Scope compares them to know when to rebuild its function
// table): use pointers or plain structs.
type FileSource interface {
	// ReadFile returns the content of file name; an error wrapping
	// fs.ErrNotExist when there is nothing there.
	ReadFile(name string) ([]byte, error)
	// Stat returns the mode of name (0 for a regular file); an error
	// wrapping fs.ErrNotExist when there is nothing there.
	Stat(name string) (fs.FileMode, error)
	// ListFiles returns the slash-separated paths, relative to dir and
	// sorted, of every regular file under dir; an error wrapping
	// fs.ErrNotExist when dir does not exist.
	ListFiles(dir string) ([]string, error)
}

// Files is the file functions' view of the filesystem: Dir is the working
// directory relative names resolve against ("" means the process's own);
// Source serves the files (nil means the OS, under Dir).
type Files struct {
	Dir    string
	Source FileSource
}

// source returns f.Source, or the OS under f.Dir.
func (f Files) source() FileSource {
	if f.Source != nil {
		return f.Source
	}
	return OSFiles(f.Dir)
}

// name turns a path as the user wrote it into a FileSource name: "~"
// expanded, cleaned, slash-separated, and relative to f.Dir when it lies
// inside it (so "${path.cwd}/x" and "x" name the same file, wherever the
// working directory is). O(len(path)).
func (f Files) name(p string) (string, error) {
	expanded, err := homedir.Expand(p)
	if err != nil {
		return "", fmt.Errorf("failed to expand ~: %w", err)
	}
	expanded = filepath.Clean(expanded)
	if filepath.IsAbs(expanded) && f.Dir != "" && filepath.IsAbs(f.Dir) {
		if rel, err := filepath.Rel(filepath.Clean(f.Dir), expanded); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			expanded = rel
		}
	}
	return filepath.ToSlash(expanded), nil
}

// OSFiles returns the FileSource of the operating system's files, relative
// names resolving against dir ("" means the process's working directory).
func OSFiles(dir string) FileSource { return osFiles{dir: dir} }

type osFiles struct{ dir string }

var _ FileSource = osFiles{}

func (o osFiles) path(name string) string {
	p := filepath.FromSlash(name)
	if !filepath.IsAbs(p) {
		p = filepath.Join(o.dir, p)
	}
	return p
}

// ReadFile reads a regular file of at most safeio.FunctionFileLimit bytes:
// a FIFO or a device (a symlink to /dev/zero) is an error, never a hang.
func (o osFiles) ReadFile(name string) ([]byte, error) {
	return safeio.ReadFile(o.path(name), safeio.FunctionFileLimit)
}

func (o osFiles) Stat(name string) (fs.FileMode, error) {
	fi, err := os.Stat(o.path(name))
	if err != nil {
		return 0, err
	}
	return fi.Mode(), nil
}

// ListFiles walks dir: O(entries under dir).
func (o osFiles) ListFiles(dir string) ([]string, error) {
	root := o.path(dir)
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == root && !d.IsDir() {
			// A file is no directory to list: fileset("x.txt", "*") is empty,
			// as globbing under a file is in Terraform.
			return fs.SkipAll
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		out = append(out, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(out)
	return out, nil
}

// readFile reads a whole file for the file functions, with errors that say
// what to do. The path in messages is the one the user wrote.
func readFile(files Files, p string) ([]byte, error) {
	name, err := files.name(p)
	if err != nil {
		return nil, err
	}
	b, err := files.source().ReadFile(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("no file exists at %q; this function reads only files present when the configuration is evaluated, so for a file created by a resource use that resource's attributes instead", p)
	case err != nil:
		return nil, fmt.Errorf("failed to read file %q: %w", p, err)
	}
	return b, nil
}

// matchGlob keeps the names (slash-separated) that match one of patterns.
func matchGlob(names []string, patterns [][]string) []string {
	var out []string
	for _, n := range names {
		segs := strings.Split(n, "/")
		for _, pattern := range patterns {
			if globMatch(pattern, segs) {
				out = append(out, n)
				break
			}
		}
	}
	return out
}
