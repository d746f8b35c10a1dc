package operation

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

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
			name: "assume_role and endpoints.sts",
			files: map[string]string{"main.tf": `terraform {
  backend "s3" {
    bucket = "b"
    key    = "k"
    endpoints = { sts = "http://127.0.0.1:5000" }
    sts_region = "eu-central-1"
    assume_role = {
      role_arn            = "arn:aws:iam::123456789012:role/deploy"
      session_name        = "ci-run"
      external_id         = "ext-1"
      duration            = "30m"
      policy              = "{\"Version\": \"2012-10-17\"}"
      policy_arns         = ["arn:aws:iam::aws:policy/ReadOnlyAccess"]
      source_identity     = "alice"
      tags                = { team = "infra" }
      transitive_tag_keys = ["team"]
    }
  }
}
`},
			want: map[string]string{"bucket": "b", "key": "k", "endpoints.sts": "http://127.0.0.1:5000", "sts_region": "eu-central-1",
				"assume_role.role_arn": "arn:aws:iam::123456789012:role/deploy", "assume_role.session_name": "ci-run",
				"assume_role.external_id": "ext-1", "assume_role.duration": "30m0s", "assume_role.policy": `{"Version": "2012-10-17"}`,
				"assume_role.policy_arns": `["arn:aws:iam::aws:policy/ReadOnlyAccess"]`, "assume_role.source_identity": "alice",
				"assume_role.tags": `{"team":"infra"}`, "assume_role.transitive_tag_keys": `["team"]`},
		},
		{
			name:  "assume_role from -backend-config replaces the block's",
			files: map[string]string{"main.tf": "terraform {\n  backend \"s3\" {\n bucket = \"b\"\n key = \"k\"\n assume_role = { role_arn = \"arn:aws:iam::1:role/x\"\n session_name = \"old\" }\n }\n}\n"},
			bcfg:  []string{`assume_role={ role_arn = "arn:aws:iam::2:role/y" }`, "sts_endpoint=http://old-sts"},
			want:  map[string]string{"bucket": "b", "key": "k", "assume_role.role_arn": "arn:aws:iam::2:role/y", "endpoints.sts": "http://old-sts"},
		},
		{
			name:  "web identity token is not recorded",
			files: map[string]string{"main.tf": "terraform {\n  backend \"s3\" {\n bucket = \"b\"\n key = \"k\"\n assume_role_with_web_identity = { role_arn = \"arn:aws:iam::1:role/x\"\n web_identity_token = \"WEBTOKEN\"\n duration = \"1h\" }\n }\n}\n"},
			want:  map[string]string{"bucket": "b", "key": "k", "assume_role_with_web_identity.role_arn": "arn:aws:iam::1:role/x", "assume_role_with_web_identity.duration": "1h0m0s"},
		},
		{
			name:  "web identity from the environment (AWS_ROLE_ARN, AWS_WEB_IDENTITY_TOKEN_FILE)",
			files: map[string]string{"main.tf": "terraform {\n  backend \"s3\" {\n bucket = \"b\"\n key = \"k\"\n assume_role_with_web_identity = { session_name = \"s1\" }\n }\n}\n"},
			env:   []string{"AWS_ROLE_ARN=arn:aws:iam::1:role/env", "AWS_WEB_IDENTITY_TOKEN_FILE=/var/run/token"},
			want:  map[string]string{"bucket": "b", "key": "k", "assume_role_with_web_identity.role_arn": "arn:aws:iam::1:role/env", "assume_role_with_web_identity.session_name": "s1", "assume_role_with_web_identity.web_identity_token_file": "/var/run/token"},
		},
		{
			name:     "apply uses the record's role, the token from AWS_WEB_IDENTITY_TOKEN",
			fromPlan: &planfile.Backend{Type: "s3", Workspace: "default", Config: map[string]string{"bucket": "b", "key": "k", "assume_role_with_web_identity.role_arn": "arn:aws:iam::1:role/x"}},
			env:      []string{"AWS_WEB_IDENTITY_TOKEN=WEBTOKEN"},
			want:     map[string]string{"bucket": "b", "key": "k", "assume_role_with_web_identity.role_arn": "arn:aws:iam::1:role/x"},
		},
		{
			name:  "deprecated top-level arguments (OpenTofu's)",
			files: map[string]string{"main.tf": "terraform {\n  backend \"s3\" {\n bucket = \"b\"\n key = \"k\"\n role_arn = \"arn:aws:iam::1:role/x\"\n session_name = \"s1\"\n external_id = \"e1\"\n assume_role_duration_seconds = 3600\n assume_role_tags = { a = \"b\" }\n }\n}\n"},
			want:  map[string]string{"bucket": "b", "key": "k", "assume_role.role_arn": "arn:aws:iam::1:role/x", "assume_role.session_name": "s1", "assume_role.external_id": "e1", "assume_role.duration": "1h0m0s", "assume_role.tags": `{"a":"b"}`},
		},
		{
			name:    "assume_role with a deprecated argument",
			files:   map[string]string{"main.tf": "terraform {\n  backend \"s3\" {\n bucket = \"b\"\n key = \"k\"\n role_arn = \"arn:aws:iam::1:role/x\"\n assume_role = { role_arn = \"arn:aws:iam::1:role/x\" }\n }\n}\n"},
			wantErr: "role_arn: use assume_role.role_arn",
		},
		{
			name:    "assume_role_tags on the command line",
			files:   map[string]string{"main.tf": "terraform {\n  backend \"s3\" {\n bucket = \"b\"\n key = \"k\"\n role_arn = \"arn:aws:iam::1:role/x\"\n }\n}\n"},
			bcfg:    []string{"assume_role_tags=team"},
			wantErr: "assume_role_tags must be a map",
		},
		{
			name:    "assume_role unknown attribute",
			files:   map[string]string{"main.tf": "terraform {\n  backend \"s3\" {\n bucket = \"b\"\n key = \"k\"\n assume_role = { role_arn = \"arn:aws:iam::1:role/x\"\n role = \"y\" }\n }\n}\n"},
			wantErr: `assume_role has no argument "role"`,
		},
		{
			name:    "assume_role without role_arn",
			files:   map[string]string{"main.tf": "terraform {\n  backend \"s3\" {\n bucket = \"b\"\n key = \"k\"\n assume_role = { session_name = \"s\" }\n }\n}\n"},
			wantErr: "assume_role.role_arn is required",
		},
		{
			name:    "assume_role role_arn not a role",
			files:   map[string]string{"main.tf": "terraform {\n  backend \"s3\" {\n bucket = \"b\"\n key = \"k\"\n assume_role = { role_arn = \"arn:aws:iam::1:user/x\" }\n }\n}\n"},
			wantErr: `assume_role.role_arn "arn:aws:iam::1:user/x" is not an IAM role ARN`,
		},
		{
			name:    "assume_role bad duration",
			files:   map[string]string{"main.tf": "terraform {\n  backend \"s3\" {\n bucket = \"b\"\n key = \"k\"\n }\n}\n"},
			bcfg:    []string{`assume_role={ role_arn = "arn:aws:iam::1:role/x", duration = "forever" }`},
			wantErr: `assume_role.duration "forever" is not a duration`,
		},
		{
			name:    "assume_role duration out of range",
			files:   map[string]string{"main.tf": "terraform {\n  backend \"s3\" {\n bucket = \"b\"\n key = \"k\"\n assume_role = { role_arn = \"arn:aws:iam::1:role/x\"\n duration = \"5m\" }\n }\n}\n"},
			wantErr: "assume_role.duration must be between 15 minutes and 12 hours",
		},
		{
			name:    "deprecated duration out of range names its argument",
			files:   map[string]string{"main.tf": "terraform {\n  backend \"s3\" {\n bucket = \"b\"\n key = \"k\"\n role_arn = \"arn:aws:iam::1:role/x\"\n assume_role_duration_seconds = 60\n }\n}\n"},
			wantErr: "assume_role_duration_seconds must be between 15 minutes and 12 hours",
		},
		{
			name:    "assume_role bad session name",
			files:   map[string]string{"main.tf": "terraform {\n  backend \"s3\" {\n bucket = \"b\"\n key = \"k\"\n assume_role = { role_arn = \"arn:aws:iam::1:role/x\"\n session_name = \"has space\" }\n }\n}\n"},
			wantErr: "assume_role.session_name must be 2 to 64",
		},
		{
			name:    "assume_role not an object",
			files:   map[string]string{"main.tf": "terraform {\n  backend \"s3\" {\n bucket = \"b\"\n key = \"k\"\n assume_role = \"arn:aws:iam::1:role/x\"\n }\n}\n"},
			wantErr: "assume_role must be an object",
		},
		{
			name:    "web identity without a token",
			files:   map[string]string{"main.tf": "terraform {\n  backend \"s3\" {\n bucket = \"b\"\n key = \"k\"\n assume_role_with_web_identity = { role_arn = \"arn:aws:iam::1:role/x\" }\n }\n}\n"},
			wantErr: "assume_role_with_web_identity needs web_identity_token_file",
		},
		{
			name:    "web identity with both token and file",
			files:   map[string]string{"main.tf": "terraform {\n  backend \"s3\" {\n bucket = \"b\"\n key = \"k\"\n assume_role_with_web_identity = { role_arn = \"arn:aws:iam::1:role/x\"\n web_identity_token = \"WEBTOKEN\"\n web_identity_token_file = \"/t\" }\n }\n}\n"},
			wantErr: "web_identity_token and assume_role_with_web_identity.web_identity_token_file cannot both be set",
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
				for _, secret := range []string{"SECRETKEY", "ACCESSKEY", sseKey, "WEBTOKEN"} {
					if strings.Contains(v, secret) {
						t.Errorf("the record holds a secret: %v", rec.Config)
					}
				}
			}
			if strings.Contains(tc.name, "sse_customer_key") && s.s3.SSECustomerKey != sseKey {
				t.Errorf("sse_customer_key %q, want AWS_SSE_CUSTOMER_KEY's", s.s3.SSECustomerKey)
			}
			if strings.Contains(tc.name, "token") && (s.s3.AssumeRoleWithWebIdentity == nil || s.s3.AssumeRoleWithWebIdentity.WebIdentityToken != "WEBTOKEN") {
				t.Errorf("web identity token not used: %+v", s.s3.AssumeRoleWithWebIdentity)
			}
			if strings.HasPrefix(tc.name, "deprecated") && (len(diags) != 1 || diags[0].Severity != hcl.DiagWarning || !strings.Contains(diags[0].Detail, "assume_role_duration_seconds: use assume_role.duration")) {
				t.Errorf("want one deprecation warning, got %v", diags)
			}
			if tc.name == "block" && (s.s3.AccessKey != "ACCESSKEY" || s.s3.SecretKey != "SECRETKEY") {
				t.Errorf("credentials not used: %+v", s.s3)
			}
		})
	}
}
