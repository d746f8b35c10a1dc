package configs

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/addrs"
)

func TestMovedBlocks(t *testing.T) {
	cfg := mustLoad(t, map[string]string{"main.tf": `
moved {
  from = null_resource.a
  to   = null_resource.b
}
moved {
  from = null_resource.a
  to   = null_resource.a[0]
}
moved {
  from = module.old
  to   = module.new["x"]
}
moved {
  from = module.a.null_resource.x
  to   = null_resource.x
}
`, "other.tf": `
moved {
  from = module.m[1]
  to   = module.n
}
`})
	var got []string
	for _, mv := range cfg.Module.Moved {
		got = append(got, kindName(mv.From.Kind)+" "+mv.From.String()+" -> "+kindName(mv.To.Kind)+" "+mv.To.String()+" @"+diagPlaceRange(mv.DeclRange.Filename, mv.DeclRange.Start.Line))
	}
	want := []string{
		"resource null_resource.a -> resource null_resource.b @main.tf:2",
		"instance null_resource.a -> instance null_resource.a[0] @main.tf:6",
		"module-instance module.old -> module-instance module.new[\"x\"] @main.tf:10",
		"resource module.a.null_resource.x -> resource null_resource.x @main.tf:14",
		"module-instance module.m[1] -> module-instance module.n @other.tf:2",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("moved blocks (-want +got):\n%s", d)
	}
	if m := cfg.Module.Moved[0]; m.From.Resource.Resource != (addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "null_resource", Name: "a"}) {
		t.Errorf("from = %+v", m.From)
	}
}

func kindName(k addrs.MoveEndpointKind) string {
	return map[addrs.MoveEndpointKind]string{addrs.MoveModuleCall: "module-call", addrs.MoveModuleInstance: "module-instance",
		addrs.MoveResource: "resource", addrs.MoveResourceInstance: "instance"}[k]
}

func diagPlaceRange(file string, line int) string {
	return fmt.Sprintf("%s:%d", file[strings.LastIndex(file, "/")+1:], line)
}

func TestMovedBlockErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  string // "file:line: summary: detail fragment"
	}{
		{"resource to module", map[string]string{"main.tf": "moved {\n  from = null_resource.a\n  to   = module.a\n}\n"},
			`main.tf:1: Invalid "moved" addresses: A moved block moves a resource to a resource, or a module to a module`},
		{"data source", map[string]string{"main.tf": "moved {\n  from = data.null_data_source.a\n  to   = data.null_data_source.b\n}\n"},
			`main.tf:2: Invalid "moved" address: Data sources cannot be moved`},
		{"expression", map[string]string{"main.tf": "moved {\n  from = \"null_resource.a\"\n  to   = null_resource.b\n}\n"},
			`main.tf:2: Invalid "moved" address: The from argument of a moved block must be a static address`},
		{"missing to", map[string]string{"main.tf": "moved {\n  from = null_resource.a\n}\n"},
			`main.tf:1: Missing required argument`},
		{"root module", map[string]string{"main.tf": "moved {\n  from = module.a\n  to   = null_resource.b.c.d\n}\n"},
			`main.tf:3: Invalid "moved" address: Unexpected extra parts`},
		{"bad key", map[string]string{"main.tf": "moved {\n  from = null_resource.a[1.5]\n  to   = null_resource.b\n}\n"},
			`main.tf:2: Invalid "moved" address: Invalid instance key`},
		{"override file", map[string]string{"main.tf": "resource \"null_resource\" \"b\" {}\n", "main_override.tf": "moved {\n  from = null_resource.a\n  to   = null_resource.b\n}\n"},
			`main_override.tf:1: Cannot override 'moved' blocks: moved blocks belong in primary files`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := loadInline(t, tc.files)
			var got []string
			for _, d := range diags {
				got = append(got, diagPlace(d)+": "+d.Summary+": "+d.Detail)
			}
			all := strings.Join(got, "\n")
			if !strings.Contains(all, tc.want) {
				t.Errorf("diagnostics\n%s\ndo not contain\n%s", all, tc.want)
			}
		})
	}
}

// TestMovedBlockJSON: in .tf.json, from and to are strings holding the
// addresses, as in Terraform's JSON syntax.
func TestMovedBlockJSON(t *testing.T) {
	cfg := mustLoad(t, map[string]string{"main.tf.json": `{
  "moved": [
    {"from": "null_resource.a", "to": "module.m.null_resource.b[\"k\"]"}
  ]
}`})
	if len(cfg.Module.Moved) != 1 {
		t.Fatalf("moved blocks: %d", len(cfg.Module.Moved))
	}
	m := cfg.Module.Moved[0]
	if m.From.String() != "null_resource.a" || m.To.String() != `module.m.null_resource.b["k"]` || m.To.Kind != addrs.MoveResourceInstance {
		t.Errorf("moved %s -> %s (kind %d)", m.From.String(), m.To.String(), m.To.Kind)
	}
}
