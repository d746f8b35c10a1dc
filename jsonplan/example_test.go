package jsonplan_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plankit/plankit/jsonplan"
	"github.com/plankit/plankit/planfile"
	"github.com/plankit/plankit/plans"
)

// docs:begin (docs/library.md shows this function as is; TestLibraryDoc
// keeps them identical)

// summarize prints what a saved plan will do. It reads nothing but the
// archive: no configuration directory, no providers, no state backend.
func summarize(path string) error {
	r, err := planfile.Open(path) // checks the ZIP, limits and every entry's SHA-256
	if err != nil {
		return err // a *planfile.Error; errors.Is(err, planfile.KindIntegrity) etc.
	}
	defer r.Close()
	plan, err := r.ReadPlan()
	if err != nil {
		return err
	}
	for _, rc := range plan.Changes.Resources {
		if rc.Action != plans.NoOp {
			fmt.Printf("%s: %s\n", rc.Addr, rc.Action)
		}
	}
	prior, err := r.ReadStateFile() // the state the plan was made from
	if err != nil {
		return err
	}
	fmt.Printf("planned from %d objects (state serial %d)\n", len(prior.State.AllResourceInstances()), prior.Serial)
	opts := jsonplan.Options{}
	if raw, ok := r.ShowJSON(); ok { // the "configuration" section, made at plan time
		if opts.Sections, err = jsonplan.ParseSections(raw); err != nil {
			return err
		}
	}
	js, err := jsonplan.Marshal(plan, opts) // what "plan show -json" prints
	if err != nil {
		return err
	}
	fmt.Println("JSON plan representation with its configuration:", bytes.Contains(js, []byte(`"configuration":{`)))
	return nil
}

// docs:end

// Example_summarize reads a plan archive that plan -out wrote from
// testdata/example/main.tf on the built-in providers, with
//
//	cd jsonplan/testdata/example && SOURCE_DATE_EPOCH=1767225600 plan -out=ci.tfplan
//
// (run it again when the archive format's major version changes).
func Example_summarize() {
	if err := summarize(filepath.Join("testdata", "example", "ci.tfplan")); err != nil {
		fmt.Println(err)
	}
	// Output:
	// null_resource.web: Create
	// terraform_data.greeting: Create
	// planned from 0 objects (state serial 0)
	// JSON plan representation with its configuration: true
}

// TestLibraryDoc keeps docs/library.md's Go example identical to
// summarize, so the page shows code that compiles and runs.
func TestLibraryDoc(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "library.md"))
	if err != nil {
		t.Fatal(err)
	}
	self, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	const open = "```go\n"
	s := string(doc)
	i := strings.Index(s, "\n// summarize prints")
	start := strings.LastIndex(s[:max(i+1, 0)], open)
	if i < 0 || start < 0 {
		t.Fatal("docs/library.md has no ```go block showing summarize")
	}
	s = s[start+len(open):]
	end := strings.Index(s, "```")
	if end < 0 {
		t.Fatal("docs/library.md's ```go block showing summarize does not end")
	}
	block := s[:end]
	src := string(self)
	code := src[strings.Index(src, "\n// summarize prints"):strings.Index(src, "// docs:end")]
	if strings.TrimSpace(block) != strings.TrimSpace(code) {
		t.Errorf("docs/library.md's Go example differs from summarize in jsonplan/example_test.go:\n--- docs/library.md\n%s\n--- example_test.go\n%s", block, code)
	}
}
