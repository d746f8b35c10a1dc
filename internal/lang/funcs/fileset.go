package funcs

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// MakeFileSetFunc builds fileset(path, pattern): the set of regular files
// under path (read through files) whose slash-separated path relative to
// it matches pattern. The syntax is doublestar's, as in Terraform: segments
// use path.Match syntax (*, ?, [...], [^...], \ escapes), "{a,b}" matches
// either alternative (nested, and may span "/"), and a "**" segment
// matches zero or more directories ("a**" inside a segment is just "a*").
// O(files under path × expanded alternatives).
func MakeFileSetFunc(files Files) function.Function {
	return function.New(&function.Spec{
		Description: "Enumerates a set of regular file names given a path and pattern.",
		Params: []function.Parameter{
			{Name: "path", Type: cty.String},
			{Name: "pattern", Type: cty.String},
		},
		Type:         function.StaticReturnType(cty.Set(cty.String)),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			root, err := files.name(args[0].AsString())
			if err != nil {
				return cty.NilVal, function.NewArgError(0, err)
			}
			patterns, err := compileGlob(args[1].AsString())
			if err != nil {
				return cty.NilVal, function.NewArgErrorf(1, "invalid glob pattern %q: %s", args[1].AsString(), err)
			}
			names, err := files.source().ListFiles(root)
			switch {
			case errors.Is(err, fs.ErrNotExist):
				return cty.SetValEmpty(cty.String), nil
			case err != nil:
				return cty.NilVal, function.NewArgErrorf(0, "failed to list files under %q: %s", args[0].AsString(), err)
			}
			var matches []cty.Value
			for _, n := range matchGlob(names, patterns) {
				matches = append(matches, cty.StringVal(n))
			}
			if len(matches) == 0 {
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

// maxGlobAlternatives bounds brace expansion: "{a,b}{c,d}..." grows
// exponentially, and a pattern past this is surely a mistake.
const maxGlobAlternatives = 1024

// compileGlob expands the pattern's braces and splits each alternative
// into validated path segments.
func compileGlob(pattern string) ([][]string, error) {
	alts, err := expandBraces(filepath.ToSlash(pattern), nil)
	if err != nil {
		return nil, err
	}
	out := make([][]string, 0, len(alts))
	seen := map[string]bool{}
	for _, alt := range alts {
		alt = path.Clean(alt)
		if seen[alt] {
			continue
		}
		seen[alt] = true
		segs := strings.Split(alt, "/")
		for _, seg := range segs {
			if _, err := path.Match(seg, ""); err != nil {
				return nil, err
			}
		}
		out = append(out, segs)
	}
	return out, nil
}

// expandBraces appends to out every pattern p stands for once its first
// top-level "{...}" group is replaced by each alternative, recursively.
// Backslash escapes and [...] classes are skipped, so "\{" and "[{]" stay
// literal.
func expandBraces(p string, out []string) ([]string, error) {
	open, closing, commas := -1, -1, []int(nil)
	depth := 0
scan:
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '[':
			if j := strings.IndexByte(p[i+1:], ']'); j >= 0 {
				i += j + 1
			}
		case '{':
			if depth == 0 {
				open = i
			}
			depth++
		case ',':
			if depth == 1 {
				commas = append(commas, i)
			}
		case '}':
			if depth == 0 {
				return nil, errors.New("unmatched '}'; escape a literal brace as \\}")
			}
			depth--
			if depth == 0 {
				closing = i
				break scan
			}
		}
	}
	if open < 0 {
		if len(out) >= maxGlobAlternatives {
			return nil, fmt.Errorf("braces expand to more than %d alternatives", maxGlobAlternatives)
		}
		return append(out, p), nil
	}
	if closing < 0 {
		return nil, errors.New("unmatched '{'; escape a literal brace as \\{")
	}
	prefix, suffix := p[:open], p[closing+1:]
	start := open + 1
	for _, end := range append(commas, closing) {
		var err error
		if out, err = expandBraces(prefix+p[start:end]+suffix, out); err != nil {
			return nil, err
		}
		start = end + 1
	}
	return out, nil
}
