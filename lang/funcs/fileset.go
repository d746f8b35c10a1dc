package funcs

import (
	"errors"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// MakeFileSetFunc builds fileset(path, pattern): the set of regular files
// under path (relative to baseDir) whose slash-separated path relative to
// it matches pattern. Pattern segments use path.Match syntax (*, ?, [...]);
// a "**" segment matches zero or more directories. O(files under path).
func MakeFileSetFunc(baseDir string) function.Function {
	return function.New(&function.Spec{
		Description: "Enumerates a set of regular file names given a path and pattern.",
		Params: []function.Parameter{
			{Name: "path", Type: cty.String},
			{Name: "pattern", Type: cty.String},
		},
		Type:         function.StaticReturnType(cty.Set(cty.String)),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			root, err := resolvePath(baseDir, args[0].AsString())
			if err != nil {
				return cty.NilVal, function.NewArgError(0, err)
			}
			pattern := strings.Split(path.Clean(filepath.ToSlash(args[1].AsString())), "/")
			for _, seg := range pattern {
				if _, err := path.Match(seg, ""); err != nil {
					return cty.NilVal, function.NewArgErrorf(1, "invalid glob pattern %q: %s", args[1].AsString(), err)
				}
			}
			var matches []cty.Value
			err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				if !d.Type().IsRegular() {
					return nil
				}
				rel, err := filepath.Rel(root, p)
				if err != nil {
					return err
				}
				if globMatch(pattern, strings.Split(filepath.ToSlash(rel), "/")) {
					matches = append(matches, cty.StringVal(filepath.ToSlash(rel)))
				}
				return nil
			})
			switch {
			case errors.Is(err, fs.ErrNotExist):
				return cty.SetValEmpty(cty.String), nil
			case err != nil:
				return cty.NilVal, function.NewArgErrorf(0, "failed to list files under %q: %s", args[0].AsString(), err)
			case len(matches) == 0:
				return cty.SetValEmpty(cty.String), nil
			}
			return cty.SetVal(matches), nil
		},
	})
}

// globMatch matches path segments against pattern segments, where "**"
// matches any number of segments. Segment patterns were validated by the
// caller. Worst case O(len(pattern) × len(segs)) per "**".
func globMatch(pattern, segs []string) bool {
	for len(pattern) > 0 {
		if pattern[0] == "**" {
			for i := 0; i <= len(segs); i++ {
				if globMatch(pattern[1:], segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 {
			return false
		}
		if ok, _ := path.Match(pattern[0], segs[0]); !ok {
			return false
		}
		pattern, segs = pattern[1:], segs[1:]
	}
	return len(segs) == 0
}
