package operation

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/planfile"
)

// TestResolveBackend covers where the pg backend's settings come from: the
// block, then -backend-config (KEY=VALUE and files, in order), then
// Terraform's environment fallbacks; and what the archive records (no
// password), and how apply uses a record.
func TestResolveBackend(t *testing.T) {
	const block = "terraform {\n  backend \"pg\" {\n    schema_name = \"from_block\"\n  }\n}\n"
	tests := []struct {
		name     string
		files    map[string]string
		env      []string
		bcfg     []string
		fromPlan *planfile.Backend
		want     map[string]string // record config
		wantWS   string
		wantConn string
		wantErr  string
	}{
		{
			name:     "env fallbacks",
			files:    map[string]string{"main.tf": "terraform {\n  backend \"pg\" {}\n}\n"},
			env:      []string{"PG_CONN_STR=postgres://u:pw@db/tf", "PG_SCHEMA_NAME=envschema", "PG_SKIP_INDEX_CREATION=true"},
			want:     map[string]string{"conn_str": "postgres://u@db/tf", "schema_name": "envschema", "skip_index_creation": "true"},
			wantWS:   "default",
			wantConn: "postgres://u:pw@db/tf",
		},
		{
			name:     "block beats env, flags beat block, files are read",
			files:    map[string]string{"main.tf": block, "pg.tfbackend": "conn_str = \"host=db password=x user=u\"\nskip_table_creation = true\n"},
			env:      []string{"PG_SCHEMA_NAME=envschema", "TF_WORKSPACE=staging"},
			bcfg:     []string{"pg.tfbackend", "schema_name=flag"},
			want:     map[string]string{"conn_str": "host=db user=u", "schema_name": "flag", "skip_table_creation": "true"},
			wantWS:   "staging",
			wantConn: "host=db password=x user=u",
		},
		{
			name:     "default schema",
			files:    map[string]string{"main.tf": "terraform {\n  backend \"pg\" {}\n}\n"},
			want:     map[string]string{"schema_name": "terraform_remote_state"},
			wantWS:   "default",
			wantConn: "",
		},
		{
			name:     "apply uses the record, and PG_CONN_STR when it is the same target",
			env:      []string{"PG_CONN_STR=postgres://u:pw@db/tf", "PG_SCHEMA_NAME=ignored"},
			fromPlan: &planfile.Backend{Type: "pg", Workspace: "prod", Config: map[string]string{"conn_str": "postgres://u@db/tf", "schema_name": "s"}},
			want:     map[string]string{"conn_str": "postgres://u@db/tf", "schema_name": "s"},
			wantWS:   "prod",
			wantConn: "postgres://u:pw@db/tf",
		},
		{
			name:     "apply ignores a PG_CONN_STR for another database",
			env:      []string{"PG_CONN_STR=postgres://u:pw@elsewhere/tf"},
			fromPlan: &planfile.Backend{Type: "pg", Workspace: "prod", Config: map[string]string{"conn_str": "postgres://u@db/tf", "schema_name": "s"}},
			want:     map[string]string{"conn_str": "postgres://u@db/tf", "schema_name": "s"},
			wantWS:   "prod",
			wantConn: "postgres://u@db/tf",
		},
		{
			name:     "apply refuses another selected workspace",
			env:      []string{"TF_WORKSPACE=staging"},
			fromPlan: &planfile.Backend{Type: "pg", Workspace: "prod", Config: map[string]string{"schema_name": "s"}},
			wantErr:  `made for workspace "prod", but the selected workspace is "staging"`,
		},
		{
			name:    "unknown -backend-config key",
			files:   map[string]string{"main.tf": block},
			bcfg:    []string{"path=x"},
			wantErr: `"path" (in -backend-config) is not an argument of the pg backend`,
		},
		{
			name:    "bad bool",
			files:   map[string]string{"main.tf": block},
			bcfg:    []string{"skip_table_creation=maybe"},
			wantErr: "must be true or false",
		},
		{
			name:    "-state with pg",
			files:   map[string]string{"main.tf": block, "x": ""},
			bcfg:    nil,
			wantErr: "-state is for the local backend",
		},
		{
			name:    "bad TF_WORKSPACE",
			files:   map[string]string{"main.tf": block},
			env:     []string{"TF_WORKSPACE=a/b"},
			wantErr: "URL safe",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			files := tc.files
			if files == nil {
				files = map[string]string{"main.tf": ""}
			}
			dir := writeConfig(t, files)
			config, diags := configs.LoadConfigDir(dir)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			stateFlag := ""
			if strings.HasPrefix(tc.name, "-state") {
				stateFlag = "x"
			}
			s, diags := ResolveBackend(tc.env, dir, config, stateFlag, tc.bcfg, tc.fromPlan)
			if tc.wantErr != "" {
				if !diags.HasErrors() || !strings.Contains(diags.Error(), tc.wantErr) {
					t.Fatalf("got %v; want an error with %q", diags, tc.wantErr)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			rec := s.Record()
			if d := cmp.Diff(tc.want, rec.Config); d != "" {
				t.Errorf("record (-want +got):\n%s", d)
			}
			if rec.Workspace != tc.wantWS || s.ws != tc.wantWS {
				t.Errorf("workspace %q/%q; want %q", s.ws, rec.Workspace, tc.wantWS)
			}
			if s.pg.ConnStr != tc.wantConn {
				t.Errorf("conn_str %q; want %q", s.pg.ConnStr, tc.wantConn)
			}
		})
	}
}

// TestResolveLocalBackend: -state, the block's path and workspace_dir,
// and the workspace's file.
func TestResolveLocalBackend(t *testing.T) {
	dir := writeConfig(t, map[string]string{"main.tf": "terraform {\n  backend \"local\" {\n    path = \"s/default.tfstate\"\n    workspace_dir = \"ws\"\n  }\n}\n"})
	config, diags := configs.LoadConfigDir(dir)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	s, diags := ResolveBackend([]string{"TF_WORKSPACE=dev"}, dir, config, "", nil, nil)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if s.defaultPath != filepath.Join(dir, "s/default.tfstate") || s.workspaceDir != filepath.Join(dir, "ws") || s.ws != "dev" {
		t.Errorf("settings %+v", s)
	}
	if d := cmp.Diff(&planfile.Backend{Type: "local", Workspace: "dev"}, s.Record()); d != "" {
		t.Errorf("record (-want +got):\n%s", d)
	}
	// Applying a plan: the record says local, the archive's configuration
	// says where.
	s, diags = ResolveBackend(nil, dir, config, "", nil, &planfile.Backend{Type: "local", Workspace: "default"})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if s.defaultPath != filepath.Join(dir, "s/default.tfstate") || s.ws != "default" {
		t.Errorf("settings from a local record: %+v", s)
	}
}
