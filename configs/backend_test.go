package configs

import (
	"strings"
	"testing"
)

// TestBackendBlocks: local and pg are accepted with their arguments as
// constants; other types, unknown arguments and non-constant or mistyped
// values are errors at the block.
func TestBackendBlocks(t *testing.T) {
	tests := []struct {
		src, wantErr string
	}{
		{`backend "pg" {
  conn_str             = "postgres://db/tf"
  schema_name          = "s"
  skip_schema_creation = true
  skip_table_creation  = false
  skip_index_creation  = true
}`, ""},
		{`backend "pg" {}`, ""},
		{`backend "local" { path = "x.tfstate" }`, ""},
		{`backend "gcs" {}`, `supports the "local", "pg" and "s3" backends, not "gcs"`},
		{`backend "s3" {
  bucket       = "b"
  key          = "k"
  endpoints    = { s3 = "http://127.0.0.1:9000" }
  use_lockfile = true
  max_retries  = 2
  shared_config_files = ["a", "b"]
}`, ""},
		{`backend "s3" { use_lockfile = "sometimes" }`, "backend use_lockfile"},
		{`backend "s3" { endpoints = "http://x" }`, "backend endpoints must be a literal map of string"},
		{`backend "s3" { shared_config_files = "a" }`, "backend shared_config_files"},
		{`backend "pg" { path = "x" }`, "Unsupported argument"},
		{`backend "pg" { skip_table_creation = "maybe" }`, "backend skip_table_creation"},
		{`backend "pg" { conn_str = var.x }`, "Variables not allowed"},
	}
	for _, tc := range tests {
		cfg, diags := loadInline(t, map[string]string{"main.tf": "terraform {\n" + tc.src + "\n}\n"})
		switch {
		case tc.wantErr == "" && diags.HasErrors():
			t.Errorf("%s: %s", tc.src, diags.Error())
		case tc.wantErr == "" && (cfg == nil || cfg.Module.Backend == nil):
			t.Errorf("%s: no backend", tc.src)
		case tc.wantErr != "" && (!diags.HasErrors() || !strings.Contains(diags.Error(), tc.wantErr)):
			t.Errorf("%s: got %v, want an error with %q", tc.src, diags, tc.wantErr)
		}
	}
}
