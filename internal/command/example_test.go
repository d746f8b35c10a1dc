package command_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plankit/plankit/internal/command"
	"github.com/plankit/plankit/internal/providers/builtin"
	"github.com/plankit/plankit/jsonplan"
	"github.com/plankit/plankit/planfile"
	"github.com/plankit/plankit/plans"
)

// README:begin (the README's "Reading a plan archive from Go" shows this
// function as is; TestREADMEExample keeps them identical)

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

// README:end

// Example_readPlanFile writes a plan archive the way `plan -out` does
// (in-process, on the built-in providers) and reads it back with
// summarize.
func Example_readPlanFile() {
	dir, _ := os.MkdirTemp("", "plankit-example")
	defer os.RemoveAll(dir)
	_ = os.WriteFile(filepath.Join(dir, "main.tf"), []byte(`
resource "null_resource" "web" {}

resource "terraform_data" "greeting" {
  input = "hello"
}
`), 0o644)
	m := &command.Meta{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: os.Stderr, Providers: builtin.Factories()}
	out := filepath.Join(dir, "ci.tfplan")
	if code := command.Plan(m, []string{"-chdir=" + dir, "-out=" + out}); code != command.ExitOK {
		fmt.Println("plan failed with exit code", code)
		return
	}
	if err := summarize(out); err != nil {
		fmt.Println(err)
	}
	// Output:
	// null_resource.web: Create
	// terraform_data.greeting: Create
	// planned from 0 objects (state serial 0)
	// JSON plan representation with its configuration: true
}

// TestREADMEExample keeps the README's Go example identical to summarize,
// so the README shows code that compiles and runs.
func TestREADMEExample(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	self, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	const open = "```go\n"
	s := string(readme)
	i := strings.Index(s, "### Reading a plan archive from Go")
	if i < 0 {
		t.Fatal("README has no \"Reading a plan archive from Go\" section")
	}
	s = s[i:]
	start := strings.Index(s, open)
	end := strings.Index(s[start+len(open):], "```")
	if start < 0 || end < 0 {
		t.Fatal("README's Go example is not a ```go block")
	}
	block := s[start+len(open) : start+len(open)+end]
	src := string(self)
	code := src[strings.Index(src, "\n// summarize prints"):strings.Index(src, "// README:end")]
	if strings.TrimSpace(block) != strings.TrimSpace(code) {
		t.Errorf("the README's Go example differs from summarize in command/example_test.go:\n--- README\n%s\n--- example_test.go\n%s", block, code)
	}
}
