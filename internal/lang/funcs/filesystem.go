package funcs

import (
	"encoding/base64"
	"errors"
	"io/fs"
	"path/filepath"
	"unicode/utf8"

	homedir "github.com/mitchellh/go-homedir"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// MakeFileFunc builds file (base64 false: the file's UTF-8 text) or
// filebase64 (base64 true: any bytes, base64-encoded), reading through
// files. O(file size).
func MakeFileFunc(files Files, encodeBase64 bool) function.Function {
	return function.New(&function.Spec{
		Description:  "Reads the contents of a file at the given path.",
		Params:       []function.Parameter{{Name: "path", Type: cty.String}},
		Type:         function.StaticReturnType(cty.String),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			path := args[0].AsString()
			b, err := readFile(files, path)
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
func MakeFileExistsFunc(files Files) function.Function {
	return function.New(&function.Spec{
		Description:  "Determines whether a file exists at the given path.",
		Params:       []function.Parameter{{Name: "path", Type: cty.String}},
		Type:         function.StaticReturnType(cty.Bool),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			path := args[0].AsString()
			name, err := files.name(path)
			if err != nil {
				return cty.NilVal, function.NewArgError(0, err)
			}
			mode, err := files.source().Stat(name)
			switch {
			case errors.Is(err, fs.ErrNotExist):
				return cty.False, nil
			case err != nil:
				return cty.NilVal, function.NewArgErrorf(0, "failed to stat %q: %s", path, err)
			case !mode.IsRegular():
				return cty.NilVal, function.NewArgErrorf(0, "%q is not a regular file, but %q", path, mode.String())
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
