package configs

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/addrs"
)

// diagLines lists "SEVERITY file:line: summary" for each diagnostic.
func diagLines(diags hcl.Diagnostics) []string {
	var out []string
	for _, d := range diags {
		out = append(out, diagSeverity(d)+" "+diagPlace(d)+": "+d.Summary)
	}
	return out
}

func TestRemovedBlockDecoding(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []string // diagnostics
		// got renders the root module's removed blocks when there are no
		// errors: "FROM destroy=BOOL provisioners=N connection=BOOL".
		got []string
	}{
		{
			name:  "forget a resource",
			files: map[string]string{"main.tf": "removed {\n  from = test_thing.a\n  lifecycle {\n    destroy = false\n  }\n}\n"},
			got:   []string{"test_thing.a destroy=false set provisioners=0 connection=false"},
		},
		{
			name:  "destroy a module with quoted from, in JSON",
			files: map[string]string{"main.tf.json": `{"removed": [{"from": "module.net.module.sub", "lifecycle": {"destroy": true}}]}`},
			got:   []string{"module.net.module.sub destroy=true set provisioners=0 connection=false"},
		},
		{
			name:  "without lifecycle it destroys, with a warning",
			files: map[string]string{"main.tf": "\nremoved {\n  from = test_thing.a\n}\n"},
			want:  []string{"WARNING main.tf:2: Removed block without lifecycle.destroy"},
			got:   []string{"test_thing.a destroy=true unset provisioners=0 connection=false"},
		},
		{
			name: "destroy-time provisioners and connection",
			files: map[string]string{"main.tf": `removed {
  from = module.m.test_thing.a
  lifecycle { destroy = true }
  connection { host = "x" }
  provisioner "local-exec" {
    when    = destroy
    command = "echo ${self.id}"
  }
}`},
			got: []string{"module.m.test_thing.a destroy=true set provisioners=1 connection=true"},
		},
		{
			name: "forget with provisioners warns that they will not run",
			files: map[string]string{"main.tf": `removed {
  from = test_thing.a
  lifecycle { destroy = false }
  provisioner "local-exec" {
    when    = destroy
    command = "true"
  }
}`},
			want: []string{"WARNING main.tf:1: Removed block provisioners will not run"},
			got:  []string{"test_thing.a destroy=false set provisioners=1 connection=false"},
		},
		{
			name:  "resource instance key",
			files: map[string]string{"main.tf": "removed {\n  from = test_thing.a[0]\n  lifecycle { destroy = false }\n}"},
			want:  []string{"ERROR main.tf:2: Resource instance keys not allowed"},
		},
		{
			name:  "module instance key",
			files: map[string]string{"main.tf": "removed {\n  from = module.m[\"x\"].test_thing.a\n  lifecycle { destroy = false }\n}"},
			want:  []string{"ERROR main.tf:2: Module instance keys not allowed"},
		},
		{
			name:  "data source",
			files: map[string]string{"main.tf": "removed {\n  from = data.test_data.a\n  lifecycle { destroy = false }\n}"},
			want:  []string{"ERROR main.tf:2: Data source address not allowed"},
		},
		{
			name:  "not an address",
			files: map[string]string{"main.tf": "removed {\n  from = \"${var.x}\"\n}"},
			want:  []string{"ERROR main.tf:2: Invalid removed address"},
		},
		{
			name:  "resource without a name",
			files: map[string]string{"main.tf": "removed {\n  from = test_thing\n}"},
			want:  []string{"ERROR main.tf:2: Invalid address"},
		},
		{
			name:  "from is required",
			files: map[string]string{"main.tf": "removed {\n  lifecycle { destroy = false }\n}"},
			want:  []string{"ERROR main.tf:1: Missing required argument"},
		},
		{
			name:  "destroy must be a literal bool",
			files: map[string]string{"main.tf": "removed {\n  from = test_thing.a\n  lifecycle {\n    destroy = var.d\n  }\n}"},
			want:  []string{"ERROR main.tf:4: Invalid lifecycle.destroy value"},
		},
		{
			name:  "unknown lifecycle argument",
			files: map[string]string{"main.tf": "removed {\n  from = test_thing.a\n  lifecycle {\n    prevent_destroy = true\n  }\n}"},
			want:  []string{"ERROR main.tf:4: Unsupported argument"},
		},
		{
			name:  "duplicate lifecycle",
			files: map[string]string{"main.tf": "removed {\n  from = test_thing.a\n  lifecycle { destroy = false }\n  lifecycle { destroy = false }\n}"},
			want:  []string{"ERROR main.tf:4: Duplicate lifecycle block"},
		},
		{
			name: "create-time provisioner",
			files: map[string]string{"main.tf": `removed {
  from = test_thing.a
  lifecycle { destroy = true }
  provisioner "local-exec" {
    command = "true"
  }
}`},
			want: []string{"ERROR main.tf:4: Invalid provisioner block"},
		},
		{
			name: "provisioner on a module target",
			files: map[string]string{"main.tf": `removed {
  from = module.m
  lifecycle { destroy = true }
  provisioner "local-exec" {
    when    = destroy
    command = "true"
  }
}`},
			want: []string{"ERROR main.tf:4: Invalid provisioner block"},
		},
		{
			name:  "connection on a module target",
			files: map[string]string{"main.tf": "removed {\n  from = module.m\n  lifecycle { destroy = true }\n  connection {}\n}"},
			want:  []string{"ERROR main.tf:4: Invalid connection block"},
		},
		{
			name: "conflicting removed blocks for one target",
			files: map[string]string{
				"a.tf": "removed {\n  from = test_thing.a\n  lifecycle { destroy = false }\n}",
				"b.tf": "\nremoved {\n  from = test_thing.a\n  lifecycle { destroy = true }\n}",
			},
			want: []string{"ERROR b.tf:2: Conflicting removed blocks"},
		},
		{
			name: "agreeing removed blocks for one target are accepted",
			files: map[string]string{
				"a.tf": "removed {\n  from = test_thing.a\n  lifecycle { destroy = false }\n}",
				"b.tf": "removed {\n  from = test_thing.a\n  lifecycle { destroy = false }\n}",
			},
			got: []string{"test_thing.a destroy=false set provisioners=0 connection=false", "test_thing.a destroy=false set provisioners=0 connection=false"},
		},
		{
			name: "override file",
			files: map[string]string{
				"main.tf":     `resource "test_thing" "b" {}`,
				"override.tf": "removed {\n  from = test_thing.a\n  lifecycle { destroy = false }\n}",
			},
			want: []string{"ERROR override.tf:1: Cannot override 'removed' blocks"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg, diags := loadInline(t, tc.files)
			if d := cmp.Diff(tc.want, diagLines(diags)); d != "" {
				t.Errorf("diagnostics (-want +got):\n%s", d)
			}
			if diags.HasErrors() {
				return
			}
			var got []string
			for _, r := range cfg.Module.Removed {
				set := map[bool]string{true: "set", false: "unset"}[r.DestroySet]
				got = append(got, r.FromString()+" destroy="+map[bool]string{true: "true", false: "false"}[r.Destroy]+" "+set+
					" provisioners="+string(rune('0'+len(r.Provisioners)))+" connection="+map[bool]string{true: "true", false: "false"}[r.Connection != nil])
			}
			if d := cmp.Diff(tc.got, got); d != "" {
				t.Errorf("removed blocks (-want +got):\n%s", d)
			}
		})
	}
}

func TestRemovedStatements(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []string // "TARGET destroy=BOOL declared in MODULE"
		diags []string
	}{
		{
			name: "targets are absolute; a parent's block wins over its child's",
			files: map[string]string{
				"main.tf": `module "c" { source = "./c" }
removed {
  from = module.c.test_thing.x
  lifecycle { destroy = true }
}
removed {
  from = module.gone
  lifecycle { destroy = false }
}`,
				"c/main.tf": `removed {
  from = test_thing.x
  lifecycle { destroy = false }
}
removed {
  from = test_thing.y
  lifecycle { destroy = false }
}`,
			},
			want: []string{
				"module.c.test_thing.x destroy=true declared in root",
				"module.gone destroy=false declared in root",
				"module.c.test_thing.y destroy=false declared in module.c",
			},
		},
		{
			name: "resource still declared",
			files: map[string]string{"main.tf": `resource "test_thing" "a" {}

removed {
  from = test_thing.a
  lifecycle { destroy = false }
}`},
			diags: []string{"ERROR main.tf:3: Removed resource still exists"},
		},
		{
			name: "resource still declared in a child module",
			files: map[string]string{
				"main.tf":   "module \"c\" { source = \"./c\" }\nremoved {\n  from = module.c.test_thing.a\n  lifecycle { destroy = false }\n}",
				"c/main.tf": `resource "test_thing" "a" {}`,
			},
			diags: []string{"ERROR main.tf:2: Removed resource still exists"},
		},
		{
			name:  "module still declared",
			files: map[string]string{"main.tf": "module \"c\" { source = \"./c\" }\nremoved {\n  from = module.c\n  lifecycle { destroy = false }\n}", "c/main.tf": ""},
			diags: []string{"ERROR main.tf:2: Removed module still exists"},
		},
		{
			name: "a resource gone from a module that is still declared",
			files: map[string]string{
				"main.tf":   "module \"c\" { source = \"./c\" }\nremoved {\n  from = module.c.test_thing.old\n  lifecycle { destroy = false }\n}",
				"c/main.tf": `resource "test_thing" "a" {}`,
			},
			want: []string{"module.c.test_thing.old destroy=false declared in root"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := mustLoad(t, tc.files)
			stmts, diags := cfg.RemovedStatements()
			if d := cmp.Diff(tc.diags, diagLines(diags)); d != "" {
				t.Errorf("diagnostics (-want +got):\n%s", d)
			}
			var got []string
			for _, s := range stmts {
				target := s.Module.String()
				if s.Resource != nil {
					target = addrs.ConfigResource{Module: s.Module, Resource: *s.Resource}.String()
				}
				decl := "root"
				if !s.Declared.Path.IsRoot() {
					decl = s.Declared.Path.String()
				}
				got = append(got, target+" destroy="+map[bool]string{true: "true", false: "false"}[s.Block.Destroy]+" declared in "+decl)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("statements (-want +got):\n%s", d)
			}
		})
	}
}

func TestRemovedStatementContains(t *testing.T) {
	res := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "test_thing", Name: "a"}
	other := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "test_thing", Name: "b"}
	mod := RemovedStatement{Module: addrs.Module{"m"}}
	one := RemovedStatement{Module: addrs.Module{"m"}, Resource: &res}
	tests := []struct {
		s    RemovedStatement
		m    addrs.Module
		r    addrs.Resource
		want bool
	}{
		{mod, addrs.Module{"m"}, res, true},
		{mod, addrs.Module{"m", "sub"}, other, true},
		{mod, nil, res, false},
		{mod, addrs.Module{"mm"}, res, false},
		{one, addrs.Module{"m"}, res, true},
		{one, addrs.Module{"m"}, other, false},
		{one, addrs.Module{"m", "sub"}, res, false},
	}
	for _, tc := range tests {
		if got := tc.s.Contains(tc.m, tc.r); got != tc.want {
			t.Errorf("%v contains %v %v = %t, want %t", tc.s.Module, tc.m, tc.r, got, tc.want)
		}
	}
}
