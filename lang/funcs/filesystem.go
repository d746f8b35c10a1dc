package funcs

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"unicode/utf8"

	homedir "github.com/mitchellh/go-homedir"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// resolvePath expands a leading "~" and makes a relative path relative to
// baseDir, as Terraform resolves paths against its working directory.
func resolvePath(baseDir, path string) (string, error) {
	expanded, err := homedir.Expand(path)
	if err != nil {
		return "", fmt.Errorf("failed to expand ~: %w", err)
	}
	if !filepath.IsAbs(expanded) {
		expanded = filepath.Join(baseDir, expanded)
	}
	return filepath.Clean(expanded), nil
}

// readFile reads a whole file for the file functions, with errors that say
// what to do. The path in messages is the one the user wrote.
func readFile(baseDir, path string) ([]byte, error) {
	full, err := resolvePath(baseDir, path)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(full)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("no file exists at %q; this function reads only files present when the configuration is evaluated, so for a file created by a resource use that resource's attributes instead", path)
	case err != nil:
		return nil, fmt.Errorf("failed to read file %q: %w", path, err)
	}
	return b, nil
}

// MakeFileFunc builds file (base64 false: the file's UTF-8 text) or
// filebase64 (base64 true: any bytes, base64-encoded). Relative paths are
// resolved against baseDir. O(file size).
func MakeFileFunc(baseDir string, encodeBase64 bool) function.Function {
	return function.New(&function.Spec{
		Description:  "Reads the contents of a file at the given path.",
		Params:       []function.Parameter{{Name: "path", Type: cty.String}},
		Type:         function.StaticReturnType(cty.String),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			path := args[0].AsString()
			b, err := readFile(baseDir, path)
			if err != nil {
				return cty.NilVal, function.NewArgError(0, err)
			}
			if encodeBase64 {
				return cty.StringVal(base64.StdEncoding.EncodeToString(b)), nil
			}
			if !utf8.Valid(b) {
				return cty.NilVal, function.NewArgErrorf(0, "contents of %q are not valid UTF-8; use filebase64 to read binary files", path)
			}
			return cty.StringVal(string(b)), nil
		},
	})
}

// MakeFileExistsFunc builds fileexists: true for a regular file, false when
// nothing is there, an error for a directory or an unreadable path.
func MakeFileExistsFunc(baseDir string) function.Function {
	return function.New(&function.Spec{
		Description:  "Determines whether a file exists at the given path.",
		Params:       []function.Parameter{{Name: "path", Type: cty.String}},
		Type:         function.StaticReturnType(cty.Bool),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			path := args[0].AsString()
			full, err := resolvePath(baseDir, path)
			if err != nil {
				return cty.NilVal, function.NewArgError(0, err)
			}
			fi, err := os.Stat(full)
			switch {
			case errors.Is(err, fs.ErrNotExist):
				return cty.False, nil
			case err != nil:
				return cty.NilVal, function.NewArgErrorf(0, "failed to stat %q: %s", path, err)
			case !fi.Mode().IsRegular():
				return cty.NilVal, function.NewArgErrorf(0, "%q is not a regular file, but %q", path, fi.Mode().String())
			}
			return cty.True, nil
		},
	})
}

// MakeAbsPathFunc builds abspath: a relative path is joined to workDir,
// which stands for Terraform's working directory ("" means the process's
// own, as in Terraform), made absolute, cleaned, with forward slashes.
func MakeAbsPathFunc(workDir string) function.Function {
	return function.New(&function.Spec{
		Description:  "Converts the argument to an absolute filesystem path.",
		Params:       []function.Parameter{{Name: "path", Type: cty.String}},
		Type:         function.StaticReturnType(cty.String),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			p := args[0].AsString()
			if !filepath.IsAbs(p) {
				p = filepath.Join(workDir, p)
			}
			abs, err := filepath.Abs(p)
			if err != nil {
				return cty.NilVal, function.NewArgErrorf(0, "cannot make %q absolute: %s", args[0].AsString(), err)
			}
			return cty.StringVal(filepath.ToSlash(abs)), nil
		},
	})
}

// BasenameFunc returns the last element of a path.
var BasenameFunc = function.New(&function.Spec{
	Description:  "Returns the last element of a path.",
	Params:       []function.Parameter{{Name: "path", Type: cty.String}},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		return cty.StringVal(filepath.Base(args[0].AsString())), nil
	},
})

// DirnameFunc returns a path without its last element.
var DirnameFunc = function.New(&function.Spec{
	Description:  "Returns all except the last element of a path.",
	Params:       []function.Parameter{{Name: "path", Type: cty.String}},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		return cty.StringVal(filepath.Dir(args[0].AsString())), nil
	},
})

// PathExpandFunc replaces a leading "~" with the current user's home
// directory. Other paths are returned unchanged.
var PathExpandFunc = function.New(&function.Spec{
	Description:  "Replaces a leading ~ with the home directory of the current user.",
	Params:       []function.Parameter{{Name: "path", Type: cty.String}},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		p, err := homedir.Expand(args[0].AsString())
		if err != nil {
			return cty.NilVal, function.NewArgErrorf(0, "failed to expand ~: %s", err)
		}
		return cty.StringVal(p), nil
	},
})
