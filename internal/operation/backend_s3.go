package operation

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/internal/backend/s3"
	"github.com/plankit/plankit/tfdiags"
)

// s3Refused are the s3 backend arguments of Terraform and OpenTofu that
// plankit does not implement, with what to do instead. They are refused,
// never ignored: each changes where the state lives, who may reach it or
// how it is locked.
var s3Refused = map[string]string{
	"dynamodb_table":                     "plankit does not lock with DynamoDB (Terraform deprecated it). Remove dynamodb_table and set use_lockfile = true: the lock object that Terraform 1.10+ and OpenTofu 1.10+ write in the bucket.",
	"dynamodb_endpoint":                  "plankit does not lock with DynamoDB. Remove it and set use_lockfile = true.",
	"endpoints.dynamodb":                 "plankit does not lock with DynamoDB. Remove it and set use_lockfile = true.",
	"state_tags":                         "object tags are not supported; remove state_tags.",
	"lock_tags":                          "object tags are not supported; remove lock_tags.",
	"custom_ca_bundle":                   "set AWS_CA_BUNDLE instead (the AWS SDK reads it).",
	"http_proxy":                         "set HTTP_PROXY/HTTPS_PROXY instead.",
	"https_proxy":                        "set HTTPS_PROXY instead.",
	"no_proxy":                           "set NO_PROXY instead.",
	"insecure":                           "TLS verification cannot be turned off; give the server's CA with AWS_CA_BUNDLE.",
	"use_dualstack_endpoint":             "set AWS_USE_DUALSTACK_ENDPOINT=true instead (the AWS SDK reads it).",
	"use_fips_endpoint":                  "set AWS_USE_FIPS_ENDPOINT=true instead (the AWS SDK reads it).",
	"allowed_account_ids":                "plankit does not request the account ID (it never calls STS GetCallerIdentity), so it cannot check it; remove it.",
	"forbidden_account_ids":              "plankit does not request the account ID (it never calls STS GetCallerIdentity), so it cannot check it; remove it.",
	"retry_mode":                         "set AWS_RETRY_MODE instead (the AWS SDK reads it).",
	"ec2_metadata_service_endpoint":      "set AWS_EC2_METADATA_SERVICE_ENDPOINT instead (the AWS SDK reads it).",
	"ec2_metadata_service_endpoint_mode": "set AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE instead (the AWS SDK reads it).",
}

// s3Unused are arguments that are accepted and have no effect: plankit
// does not call IAM.
var s3Unused = map[string]bool{"iam_endpoint": true, "endpoints.iam": true}

// s3Secret are the arguments never recorded in a plan archive: apply
// takes them from -backend-config or the environment (the AWS SDK's
// chain; AWS_SSE_CUSTOMER_KEY).
var s3Secret = map[string]bool{"access_key": true, "secret_key": true, "token": true, "sse_customer_key": true}

// s3Settings turns the s3 backend's arguments into its configuration. env
// supplies Terraform's fallbacks for what the arguments leave out; the
// AWS SDK reads the rest of the environment itself (credentials, region,
// profile).
func s3Settings(args map[string]string, env map[string]string, fromFlags map[string]bool) (s3.Config, hcl.Diagnostics) {
	var cfg s3.Config
	bad := func(format string, a ...any) (s3.Config, hcl.Diagnostics) {
		return cfg, hcl.Diagnostics{tfdiags.Errorf("Invalid backend configuration", format, a...)}
	}
	names := make([]string, 0, len(args))
	for k := range args {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if why, ok := s3Refused[k]; ok {
			return bad("The s3 backend's %s is not supported by plankit: %s", k, why)
		}
		if e, ok := strings.CutPrefix(k, "endpoints."); ok && !s3Unused[k] && e != "s3" && e != "sts" {
			return bad("The s3 backend's endpoints has no %q; it takes s3, sts (and iam, which plankit does not call).", e)
		}
	}
	if _, ok := args["endpoints"]; ok {
		return bad("The s3 backend's endpoints must be a map such as endpoints = { s3 = \"https://...\" } (in a backend block or a -backend-config file); on the command line use -backend-config=endpoint=URL.")
	}
	cfg.Bucket, cfg.Key, cfg.Region = args["bucket"], args["key"], args["region"]
	cfg.Endpoint = args["endpoints.s3"]
	if cfg.Endpoint == "" {
		cfg.Endpoint = args["endpoint"]
	}
	if cfg.Endpoint == "" {
		// Terraform's fallbacks, then the SDK's own variables (named here so
		// that messages and the plan archive show the server).
		for _, e := range []string{"AWS_ENDPOINT_URL_S3", "AWS_S3_ENDPOINT", "AWS_ENDPOINT_URL"} {
			if env[e] != "" {
				cfg.Endpoint = env[e]
				break
			}
		}
	}
	if v, ok := args["workspace_key_prefix"]; ok {
		cfg.WorkspaceKeyPrefix = &v
	}
	cfg.KMSKeyID, cfg.ACL = args["kms_key_id"], args["acl"]
	cfg.SSECustomerKey = args["sse_customer_key"]
	if cfg.SSECustomerKey == "" {
		cfg.SSECustomerKey = env["AWS_SSE_CUSTOMER_KEY"]
	}
	cfg.Profile = args["profile"]
	cfg.AccessKey, cfg.SecretKey, cfg.Token = args["access_key"], args["secret_key"], args["token"]
	bools := map[string]*bool{
		"use_path_style": &cfg.UsePathStyle, "force_path_style": &cfg.UsePathStyle,
		"encrypt": &cfg.Encrypt, "use_lockfile": &cfg.UseLockfile,
		"skip_credentials_validation": &cfg.SkipCredentialsValidation,
		"skip_region_validation":      &cfg.SkipRegionValidation,
		"skip_requesting_account_id":  &cfg.SkipRequestingAccountID,
		"skip_metadata_api_check":     &cfg.SkipMetadataAPICheck,
		"skip_s3_checksum":            &cfg.SkipS3Checksum,
	}
	for _, name := range []string{"force_path_style", "use_path_style", "encrypt", "use_lockfile", "skip_credentials_validation", "skip_region_validation", "skip_requesting_account_id", "skip_metadata_api_check", "skip_s3_checksum"} {
		v, ok := args[name]
		if !ok || v == "" {
			continue
		}
		b, err := strconv.ParseBool(v)
		if err != nil {
			return bad("The s3 backend's %s must be true or false, not %q (from %s).", name, v, s3ArgSource(name, fromFlags))
		}
		*bools[name] = b
	}
	for name, dst := range map[string]*[]string{"shared_config_files": &cfg.SharedConfigFiles, "shared_credentials_files": &cfg.SharedCredentialsFiles} {
		v, ok := args[name]
		if !ok {
			continue
		}
		if strings.HasPrefix(v, "[") {
			if err := json.Unmarshal([]byte(v), dst); err != nil {
				return bad("The s3 backend's %s must be a list of paths (from %s).", name, s3ArgSource(name, fromFlags))
			}
		} else {
			*dst = []string{v}
		}
	}
	if v := args["shared_credentials_file"]; v != "" && len(cfg.SharedCredentialsFiles) == 0 {
		cfg.SharedCredentialsFiles = []string{v}
	}
	cfg.STSEndpoint = args["endpoints.sts"]
	if cfg.STSEndpoint == "" {
		cfg.STSEndpoint = args["sts_endpoint"]
	}
	if cfg.STSEndpoint == "" {
		for _, e := range []string{"AWS_ENDPOINT_URL_STS", "AWS_STS_ENDPOINT"} {
			if env[e] != "" {
				cfg.STSEndpoint = env[e]
				break
			}
		}
	}
	cfg.STSRegion = args["sts_region"]
	var warnings hcl.Diagnostics
	if ds := s3Roles(&cfg, args, env, fromFlags); ds.HasErrors() {
		return cfg, ds
	} else {
		warnings = ds
	}
	if v, ok := args["max_retries"]; ok && v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return bad("The s3 backend's max_retries must be a whole number, not %q (from %s).", v, s3ArgSource("max_retries", fromFlags))
		}
		cfg.MaxRetries = n
	}
	if err := cfg.Validate(); err != nil {
		return bad("%s.", err)
	}
	return cfg, warnings
}

func s3ArgSource(name string, fromFlags map[string]bool) string {
	if fromFlags[name] {
		return "-backend-config"
	}
	return "the backend block"
}

// s3Record is the s3 backend's settings as the plan archive keeps them:
// everything but the credentials, the SSE-C key and the web identity
// token.
func s3Record(cfg s3.Config) map[string]string {
	r := map[string]string{"bucket": cfg.Bucket, "key": cfg.Key}
	for name, v := range map[string]string{"region": cfg.Region, "endpoints.s3": cfg.Endpoint, "kms_key_id": cfg.KMSKeyID, "acl": cfg.ACL, "profile": cfg.Profile} {
		if v != "" {
			r[name] = v
		}
	}
	if cfg.WorkspaceKeyPrefix != nil {
		r["workspace_key_prefix"] = *cfg.WorkspaceKeyPrefix
	}
	for name, v := range map[string]bool{
		"use_path_style": cfg.UsePathStyle, "encrypt": cfg.Encrypt, "use_lockfile": cfg.UseLockfile,
		"skip_credentials_validation": cfg.SkipCredentialsValidation, "skip_region_validation": cfg.SkipRegionValidation,
		"skip_requesting_account_id": cfg.SkipRequestingAccountID, "skip_metadata_api_check": cfg.SkipMetadataAPICheck,
		"skip_s3_checksum": cfg.SkipS3Checksum,
	} {
		if v {
			r[name] = "true"
		}
	}
	for name, v := range map[string][]string{"shared_config_files": cfg.SharedConfigFiles, "shared_credentials_files": cfg.SharedCredentialsFiles} {
		if len(v) > 0 {
			j, _ := json.Marshal(v)
			r[name] = string(j)
		}
	}
	if cfg.MaxRetries > 0 {
		r["max_retries"] = strconv.Itoa(cfg.MaxRetries)
	}
	s3RoleRecord(r, cfg)
	return r
}
