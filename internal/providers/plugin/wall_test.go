package plugin

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestGeneratedCodeBehindWall checks that the generated protocol packages
// are imported by exactly one non-test file each: grpc_provider5.go and
// grpc_provider6.go (this package's fuzz tests build protocol messages).
func TestGeneratedCodeBehindWall(t *testing.T) {
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	importers := map[string][]string{}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "/providers/plugin/fuzz_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasSuffix(p, "/providers/plugin/internal/tfplugin5") || strings.HasSuffix(p, "/providers/plugin/internal/tfplugin6") {
				rel, _ := filepath.Rel(root, path)
				importers[filepath.Base(p)] = append(importers[filepath.Base(p)], filepath.ToSlash(rel))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for pkg, want := range map[string]string{"tfplugin5": "internal/providers/plugin/grpc_provider5.go", "tfplugin6": "internal/providers/plugin/grpc_provider6.go"} {
		if got := importers[pkg]; len(got) != 1 || got[0] != want {
			t.Errorf("%s is imported by %v, want only %s", pkg, got, want)
		}
	}
}
