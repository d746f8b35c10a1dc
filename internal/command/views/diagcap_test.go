package views

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
)

func TestCapPerFile(t *testing.T) {
	var diags hcl.Diagnostics
	for i := range 25 {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: fmt.Sprintf("e%d", i), Subject: &hcl.Range{Filename: "a.tfvars"}})
	}
	diags = append(diags,
		&hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "w", Subject: &hcl.Range{Filename: "a.tfvars"}},
		&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "other file", Subject: &hcl.Range{Filename: "b.tf"}},
		&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "no file"})
	var got []string
	for _, d := range CapPerFile(diags) {
		got = append(got, d.Summary)
	}
	var want []string
	for i := range 20 {
		want = append(want, fmt.Sprintf("e%d", i))
	}
	want = append(want, "w", "other file", "no file", "And 5 more errors in a.tfvars")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestWithoutStackTrace(t *testing.T) {
	d := &hcl.Diagnostic{Detail: "Call to function \"f\" failed: panic in function implementation: runtime error: index out of range [-1]\ngoroutine 1 [running]:\nruntime/debug.Stack()\n\t/x/stack.go:26 +0x5e\n"}
	got := WithoutStackTrace(d).Detail
	if strings.Contains(got, "goroutine") || strings.Contains(got, ".go:") || !strings.Contains(got, `Call to function "f" failed: plankit could not evaluate it with these arguments (runtime error: index out of range [-1])`) {
		t.Errorf("got %q", got)
	}
	if plain := (&hcl.Diagnostic{Detail: "fine"}); WithoutStackTrace(plain) != plain {
		t.Error("a diagnostic without a panic was copied")
	}
}
