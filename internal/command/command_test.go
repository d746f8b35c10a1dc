package command

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/command/views"
	"github.com/plankit/plankit/internal/operation"
	"github.com/plankit/plankit/internal/terraform"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/states/statefile"
)

func TestCheckStateMatches(t *testing.T) {
	nonEmpty := states.NewState()
	nonEmpty.SetOutputValue(addrs.OutputValue{Name: "x"}.Absolute(nil), cty.StringVal("y"), false)
	empty := states.NewState()
	tests := []struct {
		name      string
		cur, plan *statefile.File
		want      string
	}{
		{"same", &statefile.File{Lineage: "a", Serial: 3, State: nonEmpty}, &statefile.File{Lineage: "a", Serial: 3, State: nonEmpty}, ""},
		{"other lineage", &statefile.File{Lineage: "b", Serial: 3, State: nonEmpty}, &statefile.File{Lineage: "a", Serial: 3, State: nonEmpty}, "another state"},
		{"stale", &statefile.File{Lineage: "a", Serial: 4, State: nonEmpty}, &statefile.File{Lineage: "a", Serial: 3, State: nonEmpty}, "stale"},
		{"fresh start", &statefile.File{State: empty}, &statefile.File{State: empty}, ""},
		{"new location, empty plan state", nil, &statefile.File{State: empty}, ""},
		{"state appeared", &statefile.File{Lineage: "a", Serial: 1, State: nonEmpty}, &statefile.File{State: empty}, "stale"},
		{"state missing", nil, &statefile.File{Lineage: "a", Serial: 1, State: nonEmpty}, "another state"},
		{"no state, data source read at plan", nil, &statefile.File{State: nonEmpty}, ""},
		{"empty state file, data source read at plan", &statefile.File{State: empty}, &statefile.File{State: nonEmpty}, ""},
		{"no state, then a state appeared", &statefile.File{Lineage: "a", Serial: 1, State: nonEmpty}, &statefile.File{State: nonEmpty}, "stale"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			diags := checkStateMatches(tt.cur, tt.plan)
			got := ""
			if diags.HasErrors() {
				got = diags[0].Detail
			}
			if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
				t.Errorf("got %q, want containing %q", got, tt.want)
			}
		})
	}
}

func TestCollectVariables(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("main.tf", `
variable "s" { type = string }
variable "n" { type = number }
variable "l" { type = list(string) }
variable "any" { type = any }
variable "order" {}
`)
	write("terraform.tfvars", "order = \"tfvars\"\nn = 1\n")
	write("b.auto.tfvars", "order = \"auto\"\n")
	write("extra.tfvars.json", `{"l": ["x", "y"]}`)
	config, diags := configs.LoadConfigDir(dir)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	args := []operation.VarArg{{Value: "s=hello world"}, {Value: "n=42"}, {File: true, Value: "extra.tfvars.json"}, {Value: "any={a=1}"}}
	got, diags := operation.CollectVariables(config, dir, args, []string{"TF_VAR_order=env", "TF_VAR_s=fromenv", "TF_VAR_undeclared=1"})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	want := map[string]cty.Value{
		"s": cty.StringVal("hello world"), "n": cty.NumberIntVal(42),
		"l":     cty.TupleVal([]cty.Value{cty.StringVal("x"), cty.StringVal("y")}),
		"any":   cty.ObjectVal(map[string]cty.Value{"a": cty.NumberIntVal(1)}),
		"order": cty.StringVal("auto"),
	}
	gotVals := map[string]cty.Value{}
	for k, v := range got {
		gotVals[k] = v.Value
	}
	if diff := cmp.Diff(want, gotVals, cmp.Comparer(func(a, b cty.Value) bool { return a.RawEquals(b) })); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got["s"].SourceType != terraform.ValueFromCLIArg || got["order"].SourceType != terraform.ValueFromAutoFile {
		t.Errorf("source types: s=%c order=%c", got["s"].SourceType, got["order"].SourceType)
	}

	_, diags = operation.CollectVariables(config, dir, []operation.VarArg{{Value: "nope=1"}, {Value: "novalue"}}, nil)
	if len(diags) != 2 || !strings.Contains(diags[0].Summary, "undeclared") || !strings.Contains(diags[1].Summary, "Invalid -var") {
		t.Errorf("diags = %v", diags)
	}
}

func TestWriteDiagnosticsSnippet(t *testing.T) {
	src := views.Sources{Files: map[string][]byte{"main.tf": []byte("resource \"x\" \"y\" {\n  foo = bar\n}\n")}}
	d := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unknown thing", Detail: "Say what to do.",
		Subject: &hcl.Range{Filename: "main.tf", Start: hcl.Pos{Line: 2, Column: 9, Byte: 27}, End: hcl.Pos{Line: 2, Column: 12, Byte: 30}}}
	var buf bytes.Buffer
	views.WriteDiagnostics(&buf, hcl.Diagnostics{d}, src, false)
	for _, want := range []string{"Error: Unknown thing", "on main.tf line 2", "foo = bar", "Say what to do."} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("missing %q in:\n%s", want, buf.String())
		}
	}
	var jbuf bytes.Buffer
	(&views.JSONView{W: &jbuf}).Diagnostics(hcl.Diagnostics{d}, src)
	for _, want := range []string{`"@level":"error"`, `"type":"diagnostic"`, `"code":"  foo = bar"`, `"filename":"main.tf"`} {
		if !strings.Contains(jbuf.String(), want) {
			t.Errorf("missing %s in %s", want, jbuf.String())
		}
	}
}

func TestDiffPlans(t *testing.T) {
	addr := func(n string) addrs.AbsResourceInstance {
		return addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "t", Name: n}.Instance(addrs.NoKey).Absolute(nil)
	}
	rc := func(n string, a plans.Action, after cty.Value) *plans.ResourceInstanceChange {
		return &plans.ResourceInstanceChange{Addr: addr(n), PrevRunAddr: addr(n), Change: plans.Change{Action: a, Before: cty.NullVal(cty.String), After: after}}
	}
	pa := &plans.Plan{Changes: &plans.Changes{Resources: []*plans.ResourceInstanceChange{
		rc("same", plans.Create, cty.StringVal("x")), rc("changed", plans.Create, cty.StringVal("x")), rc("onlya", plans.Create, cty.StringVal("x"))}}}
	pb := &plans.Plan{Changes: &plans.Changes{Resources: []*plans.ResourceInstanceChange{
		rc("same", plans.Create, cty.StringVal("x")), rc("changed", plans.Create, cty.StringVal("y")), rc("onlyb", plans.Create, cty.StringVal("x"))}}}
	got, err := DiffPlans(pa, pb)
	if err != nil {
		t.Fatal(err)
	}
	want := []ResourceDiff{
		{Address: "t.changed", Status: "changed", ActionA: []string{"create"}, ActionB: []string{"create"}, Fields: []string{"after"}},
		{Address: "t.onlya", Status: "removed", ActionA: []string{"create"}},
		{Address: "t.onlyb", Status: "added", ActionB: []string{"create"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestSplitChdir(t *testing.T) {
	dir, rest := splitChdir([]string{"-chdir=x", "show", "f"})
	if dir != "x" || !cmp.Equal(rest, []string{"show", "f"}) {
		t.Errorf("got %q %q", dir, rest)
	}
}

// TestWatchInterrupts: the first interrupt cancels (before telling the
// user), the second saves what is known and exits with code 1.
func TestWatchInterrupts(t *testing.T) {
	ints := make(chan struct{})
	exited := make(chan int, 1)
	var stderr syncBuffer
	m := &Meta{Streams: views.Streams{Stderr: &stderr}, Interrupts: ints, Exit: func(code int) { exited <- code }}
	ctx, cancel := context.WithCancel(context.Background())
	saved := make(chan struct{})
	stop := watchInterrupts(m, nil, cancel, func() { close(saved) })
	defer stop()

	ints <- struct{}{}
	<-ctx.Done()
	select {
	case <-saved:
		t.Fatal("the first interrupt ran the second's handler")
	default:
	}
	ints <- struct{}{}
	<-saved
	if code := <-exited; code != ExitError {
		t.Errorf("exit code %d, want %d", code, ExitError)
	}
	for _, want := range []string{"Interrupt received.", "Two interrupts received."} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
}

// syncBuffer is a bytes.Buffer safe for the watcher goroutine and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
