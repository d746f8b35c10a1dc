package docs

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestArchiveEntries keeps archive.md's entry table, the one list of the
// archive's entries, in step with planfile's Entry* constants: every
// constant has a row, every row names a constant, and the row's entry is
// the constant's value (or, for a directory, starts with it).
func TestArchiveEntries(t *testing.T) {
	consts := entryConstants(t, filepath.Join("..", "planfile"))
	if len(consts) < 10 {
		t.Fatalf("found only %d Entry* constants in planfile: %v", len(consts), consts)
	}
	doc, err := os.ReadFile("archive.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := entryRows(string(doc))
	if len(rows) == 0 {
		t.Fatal("archive.md has no entry table (| `entry` | `EntryX` | ... |)")
	}
	documented := map[string]bool{}
	for _, r := range rows {
		value, ok := consts[r.constant]
		switch {
		case !ok:
			t.Errorf("archive.md: row %q names %s, which planfile does not declare", r.entry, r.constant)
		case strings.HasSuffix(value, "/"):
			if !strings.HasPrefix(r.entry, value) || r.entry == value {
				t.Errorf("archive.md: row %q is under %s = %q, but does not name an entry inside it", r.entry, r.constant, value)
			}
		case r.entry != value:
			t.Errorf("archive.md: row %q names %s, whose value is %q", r.entry, r.constant, value)
		}
		documented[r.constant] = true
	}
	var missing []string
	for name, value := range consts {
		if !documented[name] {
			missing = append(missing, name+" = "+strconv.Quote(value))
		}
	}
	slices.Sort(missing)
	if diff := cmp.Diff([]string(nil), missing); diff != "" {
		t.Errorf("planfile entries missing from archive.md's table (-want +got):\n%s", diff)
	}
}

// entryConstants returns planfile's exported string constants named
// Entry*, by name, from the package's non-test sources.
func entryConstants(t *testing.T, dir string) map[string]string {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, id := range vs.Names {
					if !strings.HasPrefix(id.Name, "Entry") || i >= len(vs.Values) {
						continue
					}
					lit, ok := vs.Values[i].(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						continue
					}
					v, err := strconv.Unquote(lit.Value)
					if err != nil {
						t.Fatal(err)
					}
					out[id.Name] = v
				}
			}
		}
	}
	return out
}

type entryRow struct{ entry, constant string }

var entryRowRE = regexp.MustCompile("^\\| `([^`]+)` \\| `(Entry[A-Za-z]*)` \\|")

// entryRows returns the rows of archive.md's entry table.
func entryRows(doc string) []entryRow {
	var rows []entryRow
	for _, l := range strings.Split(doc, "\n") {
		if m := entryRowRE.FindStringSubmatch(l); m != nil {
			rows = append(rows, entryRow{m[1], m[2]})
		}
	}
	return rows
}
