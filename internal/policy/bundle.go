package policy

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/util"
)

//go:embed lib/plan.rego
var libPlan string

// libModuleName is the built-in library's file name in errors and in the
// digest.
const libModuleName = "plankit/lib/plan.rego"

// libNamespace is the built-in library's package; AllNamespaces skips it.
const libNamespace = "plankit.plan"

// maxFileSize bounds one policy or data file: policies are source code and
// data files are lookup tables, so anything larger is a mistake.
const maxFileSize = 16 << 20

// unsafeBuiltins are refused at compile time: a recorded result must depend
// only on the plan and the bundle, never on the network.
var unsafeBuiltins = []string{"http.send", "net.lookup_ip_addr"}

// Bundle is a set of loaded, compiled policies and their data.
type Bundle struct {
	compiler *ast.Compiler
	data     map[string]any
	digest   string
	// namespaces are the packages the policy files declare (not the
	// library's), without "data.", sorted.
	namespaces []string
	// files are the policy and data files, for Files.
	files []File
}

// File is one file of a bundle, as the digest lists it.
type File struct {
	// Kind is "policy", "data" or "library".
	Kind string `json:"kind"`
	// Path is relative to the directory given (a data file given on its
	// own: its base name), slash-separated.
	Path string `json:"path"`
	// SHA256 is the hex SHA-256 of the content.
	SHA256 string `json:"sha256"`
}

// LoadError is a policy or data file that cannot be used: it names the
// file, and for Rego errors the line and, when the error is inside one,
// the rule.
type LoadError struct {
	File string
	Line int
	Rule string
	Err  error
}

func (e *LoadError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	if e.Rule != "" {
		fmt.Fprintf(&b, ": rule %s", e.Rule)
	}
	b.WriteString(": ")
	b.WriteString(e.Err.Error())
	return b.String()
}

func (e *LoadError) Unwrap() error { return e.Err }

// LoadErrors is every error found in the policies, sorted by file and line.
type LoadErrors []*LoadError

func (es LoadErrors) Error() string {
	msgs := make([]string, len(es))
	for i, e := range es {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "\n")
}

// Load reads the .rego files under every directory in policyDirs
// (recursively; a file in policyDirs is read itself) and the JSON or YAML data files in dataPaths (files, or
// directories read recursively), parses the policies as Rego v1 and
// compiles them with the built-in library. Errors name the file (as
// policyDir joined with its path under it), the line and the rule; every
// parse and compile error is reported, as LoadErrors.
func Load(policyDirs, dataPaths []string) (*Bundle, error) {
	if len(policyDirs) == 0 {
		return nil, errors.New("no policy directory given")
	}
	b := &Bundle{data: map[string]any{}}
	modules := map[string]*ast.Module{}
	sources := map[string]string{}
	var errs LoadErrors
	popts := ast.ParserOptions{RegoVersion: ast.RegoV1, ProcessAnnotation: true}
	parse := func(name, src string) {
		m, err := ast.ParseModuleWithOpts(name, src, popts)
		if err != nil {
			errs = append(errs, astErrors(err, name, nil)...)
			return
		}
		modules[name] = m
		sources[name] = src
	}
	for _, dir := range policyDirs {
		var files []string
		if st, err := os.Stat(dir); err == nil && !st.IsDir() {
			// A single policy file, as conftest accepts too.
			dir, files = filepath.Dir(dir), []string{filepath.Base(dir)}
		} else if files, err = walkFiles(dir, func(p string) bool { return strings.HasSuffix(p, ".rego") }); err != nil {
			return nil, fmt.Errorf("policy directory %s: %w", dir, err)
		}
		if len(files) == 0 {
			return nil, fmt.Errorf("policy directory %s: no .rego file in it", dir)
		}
		for _, rel := range files {
			name := filepath.Join(dir, filepath.FromSlash(rel))
			if _, dup := modules[name]; dup {
				continue // the same directory given twice
			}
			src, err := readLimited(name)
			if err != nil {
				return nil, err
			}
			b.files = append(b.files, fileOf("policy", rel, src))
			parse(name, string(src))
		}
	}
	b.files = append(b.files, fileOf("library", libModuleName, []byte(libPlan)))
	parse(libModuleName, libPlan)
	for _, p := range dataPaths {
		if err := b.loadData(p); err != nil {
			return nil, err
		}
	}
	if len(errs) > 0 {
		return nil, sortErrs(errs)
	}

	caps := ast.CapabilitiesForThisVersion()
	caps.Builtins = slices.DeleteFunc(slices.Clone(caps.Builtins), func(bi *ast.Builtin) bool {
		return slices.Contains(unsafeBuiltins, bi.Name)
	})
	c := ast.NewCompiler().WithCapabilities(caps).WithEnablePrintStatements(false)
	c.Compile(modules)
	if c.Failed() {
		return nil, sortErrs(astErrors(c.Errors, "", modules))
	}
	b.compiler = c
	seen := map[string]bool{}
	for name, m := range modules {
		ns := strings.TrimPrefix(m.Package.Path.String(), "data.")
		if name == libModuleName || seen[ns] {
			continue
		}
		seen[ns] = true
		b.namespaces = append(b.namespaces, ns)
	}
	sort.Strings(b.namespaces)
	b.digest = digestOf(b.files)
	return b, nil
}

// Digest identifies the bundle: "sha256:" and 64 hex digits (see the
// package documentation).
func (b *Bundle) Digest() string { return b.digest }

// Files lists the bundle's files in the order the digest hashes them.
func (b *Bundle) Files() []File { return slices.Clone(b.files) }

// Namespaces are the packages the policy files declare, sorted.
func (b *Bundle) Namespaces() []string { return slices.Clone(b.namespaces) }

func fileOf(kind, path string, content []byte) File {
	sum := sha256.Sum256(content)
	return File{Kind: kind, Path: path, SHA256: hex.EncodeToString(sum[:])}
}

func digestOf(files []File) string {
	slices.SortFunc(files, func(a, b File) int {
		return strings.Compare(a.Kind+"\x00"+a.Path+"\x00"+a.SHA256, b.Kind+"\x00"+b.Path+"\x00"+b.SHA256)
	})
	h := sha256.New()
	for _, f := range files {
		fmt.Fprintf(h, "%s %s %s\n", f.Kind, f.SHA256, f.Path)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// walkFiles lists the files under dir that keep says to, as slash paths
// relative to dir, sorted. Hidden directories (.git) are skipped.
func walkFiles(dir string, keep func(string) bool) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != dir && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !keep(d.Name()) {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		out = append(out, filepath.ToSlash(rel))
		return nil
	})
	sort.Strings(out)
	return out, err
}

func readLimited(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() > maxFileSize {
		return nil, fmt.Errorf("%s: %d bytes; policy and data files may have at most %d", name, st.Size(), maxFileSize)
	}
	return os.ReadFile(name)
}

func isDataFile(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".json", ".yaml", ".yml":
		return true
	}
	return false
}

// loadData merges the data file at p, or the data files under directory
// p, into b.data.
func (b *Bundle) loadData(p string) error {
	st, err := os.Stat(p)
	if err != nil {
		return fmt.Errorf("data file: %w", err)
	}
	if !st.IsDir() {
		return b.mergeDataFile(p, filepath.Base(p), nil)
	}
	files, err := walkFiles(p, isDataFile)
	if err != nil {
		return fmt.Errorf("data directory %s: %w", p, err)
	}
	for _, rel := range files {
		prefix := strings.Split(rel, "/")
		if err := b.mergeDataFile(filepath.Join(p, filepath.FromSlash(rel)), rel, prefix[:len(prefix)-1]); err != nil {
			return err
		}
	}
	return nil
}

func (b *Bundle) mergeDataFile(name, rel string, prefix []string) error {
	src, err := readLimited(name)
	if err != nil {
		return err
	}
	var doc any
	if err := util.Unmarshal(src, &doc); err != nil {
		return &LoadError{File: name, Err: fmt.Errorf("not JSON or YAML: %w", err)}
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		return &LoadError{File: name, Err: errors.New("a data file must hold an object (its members become data's)")}
	}
	b.files = append(b.files, fileOf("data", rel, src))
	target := b.data
	for i, seg := range prefix {
		next, ok := target[seg]
		if !ok {
			m := map[string]any{}
			target[seg], target = m, m
			continue
		}
		if target, ok = next.(map[string]any); !ok {
			return &LoadError{File: name, Err: fmt.Errorf("data.%s is already set by another data file", strings.Join(prefix[:i+1], "."))}
		}
	}
	return mergeInto(target, obj, name, prefix)
}

// mergeInto adds src's members to dst; objects merge, anything else set
// twice is an error naming the path.
func mergeInto(dst, src map[string]any, name string, path []string) error {
	for _, k := range slices.Sorted(maps.Keys(src)) {
		v := src[k]
		p := append(slices.Clone(path), k)
		old, ok := dst[k]
		if !ok {
			dst[k] = v
			continue
		}
		om, ok1 := old.(map[string]any)
		nm, ok2 := v.(map[string]any)
		if !ok1 || !ok2 {
			return &LoadError{File: name, Err: fmt.Errorf("data.%s is already set by another data file", strings.Join(p, "."))}
		}
		if err := mergeInto(om, nm, name, p); err != nil {
			return err
		}
	}
	return nil
}

// astErrors turns OPA's errors into LoadErrors, finding the rule each
// compile error is in.
func astErrors(err error, file string, modules map[string]*ast.Module) LoadErrors {
	var aerrs ast.Errors
	if !errors.As(err, &aerrs) {
		return LoadErrors{{File: file, Err: err}}
	}
	var out LoadErrors
	for _, e := range aerrs {
		le := &LoadError{File: file, Err: fmt.Errorf("%s: %s", e.Code, e.Message)}
		if e.Location != nil {
			if e.Location.File != "" {
				le.File = e.Location.File
			}
			le.Line = e.Location.Row
		}
		if m := modules[le.File]; m != nil && le.Line > 0 {
			le.Rule = ruleAt(m, le.Line)
		}
		out = append(out, le)
	}
	return out
}

// ruleAt is the name of the rule whose text includes line, or "".
func ruleAt(m *ast.Module, line int) string {
	name := ""
	for _, r := range m.Rules {
		if r.Location == nil || r.Location.Row > line {
			continue
		}
		end := r.Location.Row + strings.Count(string(r.Location.Text), "\n")
		if line <= end {
			name = r.Head.Ref().String()
		}
	}
	return name
}

func sortErrs(es LoadErrors) LoadErrors {
	slices.SortStableFunc(es, func(a, b *LoadError) int {
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		return a.Line - b.Line
	})
	return es
}
