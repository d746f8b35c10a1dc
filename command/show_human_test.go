package command_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/command"
	"github.com/plankit/plankit/command/render"
	"github.com/plankit/plankit/planfile"
	"github.com/plankit/plankit/providers/builtin"
)

// TestShowHumanIsPlanRendering: plan show, which decodes each change's
// values as it renders it, prints what rendering the archive's whole
// decoded plan prints, and what plan printed before its -out advice; the
// plan is large enough to be rendered on several goroutines.
func TestShowHumanIsPlanRendering(t *testing.T) {
	dir := t.TempDir()
	var src strings.Builder
	for i := range 2600 {
		fmt.Fprintf(&src, "resource \"terraform_data\" \"r%d\" {\n  input = {a = \"v%d\", n = %d}\n}\n", i, i, i)
	}
	src.WriteString("output \"o\" {\n  value = terraform_data.r7.output\n}\n")
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var planOut bytes.Buffer
	m := &command.Meta{Stdin: strings.NewReader(""), Stdout: &planOut, Stderr: io.Discard, Providers: builtin.Factories()}
	out := filepath.Join(dir, "p.tfplan")
	if code := command.Plan(m, []string{"-chdir=" + dir, "-no-color", "-state=" + filepath.Join(dir, "s.tfstate"), "-out=" + out}); code != command.ExitOK {
		t.Fatalf("plan: exit %d", code)
	}

	var show bytes.Buffer
	m.Stdout = &show
	if code := command.Plan(m, []string{"show", "-no-color", out}); code != command.ExitOK {
		t.Fatalf("plan show: exit %d", code)
	}
	r, err := planfile.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	p, err := r.ReadPlan()
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := render.Plan(&want, p, false); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want.String(), show.String()); diff != "" {
		t.Errorf("plan show differs from the rendering of the decoded plan (-want +got):\n%s", diff)
	}
	if !strings.HasPrefix(planOut.String(), show.String()) || !strings.Contains(show.String(), "Plan: 2600 to add") {
		t.Errorf("plan show is not what plan printed")
	}
}
