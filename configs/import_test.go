package configs

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestImportBlockDecode: what an import block decodes to.
func TestImportBlockDecode(t *testing.T) {
	cfg := mustLoad(t, map[string]string{"main.tf": `
provider "aws" { alias = "west" }
import {
  to = aws_instance.a
  id = "i-1"
}
import {
  to       = module.m["x"].aws_instance.b[0]
  id       = var.id
  provider = aws.west
}
import {
  for_each = var.ids
  to       = aws_instance.c[each.key]
  id       = each.value
}
import {
  for_each = var.ids
  to       = module.n[each.key].aws_instance.d[upper(each.value)]
  id       = each.value
}
`, "vars.tf": "variable \"id\" {}\nvariable \"ids\" {}\n"})
	type decoded struct {
		Resource, Static string
		Keyed            bool
		KeyExprs, Line   int
		ForEach          bool
		Provider         string
	}
	var got []decoded
	for _, imp := range cfg.Module.Import {
		d := decoded{Resource: imp.ToResource.String(), Keyed: imp.Keyed(), KeyExprs: len(imp.KeyExprs()),
			ForEach: imp.ForEach != nil, Line: imp.DeclRange.Start.Line}
		if len(imp.KeyExprs()) == 0 {
			addr, diags := imp.Target(nil)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			d.Static = addr.String()
		}
		if imp.ProviderConfigRef != nil {
			d.Provider = imp.ProviderConfigAddr().String()
		}
		got = append(got, d)
	}
	want := []decoded{
		{Resource: "aws_instance.a", Static: "aws_instance.a", Line: 3},
		{Resource: "module.m.aws_instance.b", Static: `module.m["x"].aws_instance.b[0]`, Keyed: true, Provider: "aws.west", Line: 7},
		{Resource: "aws_instance.c", Keyed: true, KeyExprs: 1, ForEach: true, Line: 12},
		{Resource: "module.n.aws_instance.d", Keyed: true, KeyExprs: 2, ForEach: true, Line: 17},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("decoded imports (-want +got):\n%s", diff)
	}
	// The target's implied provider is needed even with no resource block.
	found := false
	for _, p := range cfg.ProviderTypes() {
		found = found || p.String() == "registry.terraform.io/hashicorp/aws"
	}
	if !found {
		t.Errorf("ProviderTypes lacks the import target's provider: %v", cfg.ProviderTypes())
	}
}

// TestImportBlockErrors: every decoding error names the file and line.
func TestImportBlockErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  string // summary: detail substring
		at    string // file:line
	}{
		{"missing id", map[string]string{"main.tf": "import {\n  to = a_b.c\n}\n"}, `Missing required argument: The argument "id" is required`, "main.tf:1"},
		{"missing to", map[string]string{"main.tf": "import {\n  id = \"x\"\n}\n"}, `Missing required argument: The argument "to" is required`, "main.tf:1"},
		{"unknown argument", map[string]string{"main.tf": "import {\n  to = a_b.c\n  id = \"x\"\n  count = 2\n}\n"}, `Unsupported argument: An argument named "count" is not expected here.`, "main.tf:4"},
		{"data resource", map[string]string{"main.tf": "import {\n  to = data.a_b.c\n  id = \"x\"\n}\n"}, "Invalid import address: The to argument of an import block must be a managed resource address such as aws_instance.example or aws_instance.example[\"key\"]: data.a_b.c is a data resource, which cannot be imported.", "main.tf:2"},
		{"module", map[string]string{"main.tf": "import {\n  to = module.m\n  id = \"x\"\n}\n"}, "Invalid import address: The to argument of an import block must be a managed resource address such as aws_instance.example or aws_instance.example[\"key\"]: a module cannot be imported, only its resources.", "main.tf:2"},
		{"expression outside the key", map[string]string{"main.tf": "import {\n  to = \"a_b.${var.x}\"\n  id = \"x\"\n}\n"}, "Invalid import address:", "main.tf:2"},
		{"two keys", map[string]string{"main.tf": "import {\n  to = a_b.c[0][each.key]\n  id = \"x\"\n}\n"}, "unexpected extra parts after the resource instance address", "main.tf:2"},
		{"function call", map[string]string{"main.tf": "import {\n  to = upper(a_b.c)\n  id = \"x\"\n}\n"}, "only instance keys may be expressions", "main.tf:2"},
		{"bad provider", map[string]string{"main.tf": "import {\n  to = a_b.c\n  id = \"x\"\n  provider = \"a\" + \"b\"\n}\n"}, "Invalid provider argument", "main.tf:4"},
		{"override file", map[string]string{"main.tf": "resource \"a_b\" \"c\" {}\n", "main_override.tf": "\nimport {\n  to = a_b.c\n  id = \"x\"\n}\n"}, "Cannot override 'import' blocks: Import blocks can appear only in primary files", "main_override.tf:2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := loadInline(t, tt.files)
			if !diags.HasErrors() {
				t.Fatalf("no error, want %q", tt.want)
			}
			for _, d := range diags {
				if strings.Contains(d.Summary+": "+d.Detail, tt.want) {
					if d.Subject == nil {
						t.Fatalf("%q has no source range", d.Summary)
					}
					if at := fmt.Sprintf("%s:%d", d.Subject.Filename, d.Subject.Start.Line); at != tt.at {
						t.Errorf("error at %s, want %s", at, tt.at)
					}
					return
				}
			}
			t.Errorf("errors:\n%s\nwant one containing %q", diags.Error(), tt.want)
		})
	}
}
