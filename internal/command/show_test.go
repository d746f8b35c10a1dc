package command_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/internal/command"
	"github.com/plankit/plankit/internal/command/views"
	"github.com/plankit/plankit/internal/operation"
	"github.com/plankit/plankit/internal/providers/builtin"
	"github.com/plankit/plankit/jsonplan"
	"github.com/plankit/plankit/planfile"
)

// TestShowJSONStreamsMarshal: plan show -json prints what
// jsonplan.Marshal makes of the archive's plan and configuration (the
// document is streamed), configuration section included, with its
// characters escaped as Marshal escapes them (<, &, U+2028) or not (a
// dash) though show copies the section stored at plan time.
func TestShowJSONStreamsMarshal(t *testing.T) {
	dir := t.TempDir()
	var src strings.Builder
	src.WriteString("variable \"v\" {\n  default = \"x<y>\"\n  description = \"a — b \\u2028 c & d\"\n}\n")
	for _, name := range []string{"a", "b", "c", "d"} {
		src.WriteString("resource \"terraform_data\" \"" + name + "\" {\n  input = var.v\n  count = 30\n}\n")
	}
	src.WriteString("output \"o\" {\n  value = terraform_data.a[0].output\n}\n")
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	m := &command.Meta{Streams: views.Streams{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard}, Environment: operation.Environment{Providers: builtin.Factories()}}
	out := filepath.Join(dir, "p.tfplan")
	if code := command.Plan(m, []string{"-chdir=" + dir, "-state=" + filepath.Join(dir, "s.tfstate"), "-out=" + out}); code != command.ExitOK {
		t.Fatalf("plan: exit %d", code)
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
	cfg, diags := r.ReadConfig()
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	want, err := jsonplan.Marshal(p, jsonplan.Options{Version: command.Version, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(want, []byte(`"configuration":{`)) {
		t.Fatalf("the reference has no configuration section: %.200s", want)
	}

	var stdout, stderr bytes.Buffer
	m = &command.Meta{Streams: views.Streams{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr}}
	if code := command.Plan(m, []string{"show", "-json", out}); code != command.ExitOK {
		t.Fatalf("show -json: exit %d: %s", code, stderr.String())
	}
	if diff := cmp.Diff(string(want)+"\n", stdout.String()); diff != "" {
		t.Errorf("show -json differs from jsonplan.Marshal (-want +got):\n%s", diff)
	}

	// An archive that cannot be read is still an error naming it.
	stdout.Reset()
	stderr.Reset()
	bad := filepath.Join(dir, "bad.tfplan")
	if err := os.WriteFile(bad, []byte("not a zip"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code := command.Plan(m, []string{"show", "-json", bad}); code != command.ExitError || !strings.Contains(stderr.String(), "bad.tfplan") || stdout.Len() != 0 {
		t.Errorf("show -json of a broken archive: exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
}
