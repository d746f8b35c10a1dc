package operation

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/planfile"
)

// TestResolveS3Backend covers the s3 backend's settings: the block (with
// endpoints { s3 }), -backend-config, Terraform's environment fallbacks,
// the arguments refused, and the archive's record without credentials.
func TestResolveS3Backend(t *testing.T) {
	const block = `terraform {
  backend "s3" {
    bucket       = "b"
    key          = "p/terraform.tfstate"
    region       = "eu-west-1"
    endpoints    = { s3 = "http://127.0.0.1:7070" }
    use_lockfile = true
    use_path_style = true
    secret_key   = "SECRETKEY"
    access_key   = "ACCESSKEY"
  }
}
`
	const sseKey = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY="
	tests := []struct {
		name     string
		files    map[string]string
		env      []string
		bcfg     []string
		fromPlan *planfile.Backend
		want     map[string]string
		wantErr  string
	}{
		{
			name:  "block",
			files: map[string]string{"main.tf": block},
			want:  map[string]string{"bucket": "b", "key": "p/terraform.tfstate", "region": "eu-west-1", "endpoints.s3": "http://127.0.0.1:7070", "use_lockfile": "true", "use_path_style": "true"},
		},
		{
			name:  "flags and a file; older endpoint; sse_customer_key from the environment is not recorded",
			files: map[string]string{"main.tf": "terraform {\n  backend \"s3\" {}\n}\n", "s3.tfbackend": "bucket = \"fb\"\nkey = \"k\"\nshared_config_files = [\"a\", \"b\"]\nworkspace_key_prefix = \"\"\n"},
			env:   []string{"AWS_SSE_CUSTOMER_KEY=" + sseKey},
			bcfg:  []string{"s3.tfbackend", "endpoint=http://old", "region=garage", "skip_region_validation=true", "skip_s3_checksum=true", "max_retries=2"},
			want:  map[string]string{"bucket": "fb", "key": "k", "region": "garage", "endpoints.s3": "http://old", "skip_region_validation": "true", "skip_s3_checksum": "true", "max_retries": "2", "shared_config_files": `["a","b"]`, "workspace_key_prefix": ""},
		},
		{
			name:  "AWS_ENDPOINT_URL_S3",
			files: map[string]string{"main.tf": "terraform {\n  backend \"s3\" {\n bucket = \"b\"\n key = \"k\"\n }\n}\n"},
			env:   []string{"AWS_ENDPOINT_URL_S3=http://env:9000"},
			want:  map[string]string{"bucket": "b", "key": "k", "endpoints.s3": "http://env:9000"},
		},
		{
			name:     "apply uses the record",
			fromPlan: &planfile.Backend{Type: "s3", Workspace: "default", Config: map[string]string{"bucket": "b", "key": "k", "endpoints.s3": "http://x", "use_lockfile": "true"}},
			want:     map[string]string{"bucket": "b", "key": "k", "endpoints.s3": "http://x", "use_lockfile": "true"},
		},
		{
			name:    "dynamodb_table",
			files:   map[string]string{"main.tf": "terraform {\n  backend \"s3\" {\n bucket = \"b\"\n key = \"k\"\n dynamodb_table = \"locks\"\n }\n}\n"},
			wantErr: "dynamodb_table is not supported by plankit: plankit does not lock with DynamoDB",
		},
		{
			name:    "assume_role",
			files:   map[string]string{"main.tf": "terraform {\n  backend \"s3\" {\n bucket = \"b\"\n key = \"k\"\n assume_role = { role_arn = \"arn:aws:iam::1:role/x\" }\n }\n}\n"},
			wantErr: "assume_role is not supported by plankit",
		},
		{
			name:    "no bucket",
			files:   map[string]string{"main.tf": "terraform {\n  backend \"s3\" {\n key = \"k\"\n }\n}\n"},
			wantErr: "needs a bucket",
		},
		{
			name:    "bad bool flag",
			files:   map[string]string{"main.tf": block},
			bcfg:    []string{"use_lockfile=sometimes"},
			wantErr: "use_lockfile must be true or false",
		},
		{
			name:    "endpoints on the command line",
			files:   map[string]string{"main.tf": block},
			bcfg:    []string{"endpoints=http://x"},
			wantErr: "-backend-config=endpoint=URL",
		},
		{
			name:    "unknown endpoint",
			files:   map[string]string{"main.tf": "terraform {\n  backend \"s3\" {\n bucket = \"b\"\n key = \"k\"\n endpoints = { s4 = \"x\" }\n }\n}\n"},
			wantErr: `endpoints has no "s4"`,
		},
		{
			name:    "-state with s3",
			files:   map[string]string{"main.tf": block},
			wantErr: "-state is for the local backend",
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
			for _, v := range rec.Config {
				for _, secret := range []string{"SECRETKEY", "ACCESSKEY", sseKey} {
					if strings.Contains(v, secret) {
						t.Errorf("the record holds a secret: %v", rec.Config)
					}
				}
			}
			if strings.Contains(tc.name, "sse_customer_key") && s.s3.SSECustomerKey != sseKey {
				t.Errorf("sse_customer_key %q, want AWS_SSE_CUSTOMER_KEY's", s.s3.SSECustomerKey)
			}
			if tc.name == "block" && (s.s3.AccessKey != "ACCESSKEY" || s.s3.SecretKey != "SECRETKEY") {
				t.Errorf("credentials not used: %+v", s.s3)
			}
		})
	}
}
