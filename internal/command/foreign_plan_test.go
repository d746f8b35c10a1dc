package command

import (
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"unicode"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"
)

// TestForeignPlanFileNamed: plan show and apply given a plan file that
// Terraform or OpenTofu wrote say what the file is and what to do, with
// the writer's version, and print none of its undecoded bytes.
func TestForeignPlanFileNamed(t *testing.T) {
	dir := t.TempDir()
	// Laid out as their "tfplan" entries are: format 3 in field 1,
	// binary messages in fields 2 and 3, the writer's version in 14.
	var tfplan []byte
	tfplan = protowire.AppendTag(tfplan, 1, protowire.VarintType)
	tfplan = protowire.AppendVarint(tfplan, 3)
	tfplan = protowire.AppendTag(tfplan, 3, protowire.BytesType)
	tfplan = protowire.AppendBytes(tfplan, []byte("B*provider[\"terraform.io/builtin/terraform\"]J\x00\xff\xfe\x07"))
	tfplan = protowire.AppendTag(tfplan, 14, protowire.BytesType)
	tfplan = protowire.AppendBytes(tfplan, []byte("1.12.6"))
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, data := range map[string][]byte{"tfplan": tfplan, "tfstate": []byte("{}"), "tfconfig/m-/main.tf": nil, "tfconfig/modules.json": []byte("[]")} {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "tofu.tfplan")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, run := range map[string]func(m *Meta) int{
		"show":  func(m *Meta) int { return Plan(m, []string{"show", "-no-color", path}) },
		"apply": func(m *Meta) int { return Apply(m, []string{"-no-color", path}) },
	} {
		t.Run(name, func(t *testing.T) {
			m, out, errb := countingMeta(t, new(atomic.Int64))
			if code := run(m); code != ExitError {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, ExitError, out, errb)
			}
			got := out.String() + errb.String()
			for _, want := range []string{"Error: Plan file from Terraform or OpenTofu", "tofu.tfplan", "version 1.12.6", "plan -out=FILE"} {
				if !strings.Contains(strings.Join(strings.Fields(got), " "), want) {
					t.Errorf("output lacks %q:\n%s", want, got)
				}
			}
			if !utf8.ValidString(got) || strings.ContainsFunc(got, func(r rune) bool { return r != '\n' && unicode.IsControl(r) }) || strings.Contains(got, "provider[") {
				t.Errorf("output carries the file's undecoded bytes:\n%q", got)
			}
		})
	}
}
