package configs

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	version "github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
)

// VersionConstraint is a parsed version constraint string with its place.
type VersionConstraint struct {
	Required  version.Constraints
	DeclRange hcl.Range
}

// RequiredProvider is one required_providers entry: a local name bound to a
// provider source address and a version constraint.
type RequiredProvider struct {
	Name, Source string
	Type         addrs.Provider
	Requirement  VersionConstraint
	DeclRange    hcl.Range
	// ConfigurationAliases are the aliased configurations a child module
	// expects its caller to pass (configuration_aliases = [aws.west]).
	ConfigurationAliases []addrs.LocalProviderConfig
}

// Backend is the terraform block's backend: "local" or "pg". Config holds
// its arguments (constants, checked here) for the caller to decode.
type Backend struct {
	Type                 string
	Config               hcl.Body
	TypeRange, DeclRange hcl.Range
}

// LocalBackendSchema is the schema of a "local" backend's body.
var LocalBackendSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "path"}, {Name: "workspace_dir"}},
}

// PgBackendSchema is the schema of a "pg" backend's body, Terraform's.
var PgBackendSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "conn_str"}, {Name: "schema_name"}, {Name: "skip_schema_creation"}, {Name: "skip_table_creation"}, {Name: "skip_index_creation"}, {Name: "table_name"}, {Name: "index_name"}},
}

// S3BackendSchema is the schema of an "s3" backend's body: Terraform's and
// OpenTofu's arguments, so that their blocks parse. Some are refused with
// a reason when the backend is opened (dynamodb_table, state_tags, ...).
var S3BackendSchema = &hcl.BodySchema{Attributes: attrSchemas(
	"bucket", "key", "region", "endpoints", "endpoint", "use_path_style", "force_path_style",
	"workspace_key_prefix", "encrypt", "kms_key_id", "sse_customer_key", "acl", "use_lockfile",
	"skip_credentials_validation", "skip_region_validation", "skip_requesting_account_id",
	"skip_metadata_api_check", "skip_s3_checksum", "profile", "access_key", "secret_key", "token",
	"shared_config_files", "shared_credentials_files", "shared_credentials_file", "max_retries",
	"assume_role", "assume_role_with_web_identity", "sts_endpoint", "sts_region",
	// OpenTofu's deprecated forms of assume_role's attributes.
	"role_arn", "session_name", "external_id",
	"assume_role_duration_seconds", "assume_role_policy", "assume_role_policy_arns",
	"assume_role_tags", "assume_role_transitive_tag_keys",
	// Accepted by the parser, refused (or, iam_endpoint, unused) by plankit's s3 backend.
	"dynamodb_table", "dynamodb_endpoint", "iam_endpoint", "state_tags", "lock_tags",
	"custom_ca_bundle", "http_proxy", "https_proxy", "no_proxy", "insecure",
	"use_dualstack_endpoint", "use_fips_endpoint", "allowed_account_ids", "forbidden_account_ids",
	"retry_mode", "ec2_metadata_service_endpoint", "ec2_metadata_service_endpoint_mode",
)}

func attrSchemas(names ...string) []hcl.AttributeSchema {
	out := make([]hcl.AttributeSchema, len(names))
	for i, n := range names {
		out[i] = hcl.AttributeSchema{Name: n}
	}
	return out
}

// BackendSchemas are the backends plankit supports, by type.
var BackendSchemas = map[string]*hcl.BodySchema{"local": LocalBackendSchema, "pg": PgBackendSchema, "s3": S3BackendSchema}

// BackendArgType is the type of a backend argument's value: bool for the
// flags, a map or list of strings for the s3 backend's endpoints and file
// lists, any value for the s3 backend's assume_role objects (checked
// attribute by attribute when the backend is resolved), a string
// otherwise.
func BackendArgType(name string) cty.Type {
	switch {
	case strings.HasPrefix(name, "skip_"):
		return cty.Bool
	}
	switch name {
	case "encrypt", "use_path_style", "force_path_style", "use_lockfile", "insecure", "use_dualstack_endpoint", "use_fips_endpoint":
		return cty.Bool
	case "max_retries", "assume_role_duration_seconds":
		return cty.Number
	case "endpoints", "state_tags", "lock_tags", "assume_role_tags":
		return cty.Map(cty.String)
	case "shared_config_files", "shared_credentials_files", "allowed_account_ids", "forbidden_account_ids", "assume_role_policy_arns", "assume_role_transitive_tag_keys":
		return cty.List(cty.String)
	case "assume_role", "assume_role_with_web_identity":
		return cty.DynamicPseudoType
	}
	return cty.String
}

var terraformBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "required_version"},
		{Name: "experiments"},
		{Name: "language"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "required_providers"},
		{Type: "backend", LabelNames: []string{"type"}},
		{Type: "cloud"},
		{Type: "provider_meta", LabelNames: []string{"provider"}},
		{Type: "encryption"},
	},
}

func decodeTerraformBlock(block *hcl.Block, f *file) hcl.Diagnostics {
	content, diags := block.Body.Content(terraformBlockSchema)
	if attr, ok := content.Attributes["required_version"]; ok {
		vc, ds := decodeVersionConstraint(attr.Expr, "required_version")
		diags = append(diags, ds...)
		if !ds.HasErrors() {
			f.coreVersionConstraints = append(f.coreVersionConstraints, vc)
		}
	}
	for _, name := range []string{"experiments", "language"} {
		if attr, ok := content.Attributes[name]; ok {
			diags = append(diags, unsupportedHere(attr.NameRange, "the "+name+" argument"))
		}
	}
	for _, b := range content.Blocks {
		switch b.Type {
		case "required_providers":
			f.requiredProvidersRange = append(f.requiredProvidersRange, b.DefRange)
			rps, ds := decodeRequiredProviders(b)
			diags = append(diags, ds...)
			f.requiredProviders = append(f.requiredProviders, rps...)
		case "backend":
			be, ds := decodeBackend(b)
			diags = append(diags, ds...)
			if be != nil {
				f.backends = append(f.backends, be)
			}
		case "encryption":
			f.encryptions = append(f.encryptions, &EncryptionBlock{Body: b.Body, DeclRange: b.DefRange})
		default:
			diags = append(diags, unsupportedHere(b.DefRange, b.Type+" blocks"))
		}
	}
	return diags
}

func unsupportedHere(rng hcl.Range, what string) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Unsupported Terraform feature",
		Detail:   fmt.Sprintf("plankit does not support %s; remove it to use this configuration with plankit.", what),
		Subject:  rng.Ptr(),
	}
}

// decodeVersionConstraint parses a literal constraint string like "~> 1.5".
func decodeVersionConstraint(expr hcl.Expression, what string) (VersionConstraint, hcl.Diagnostics) {
	vc := VersionConstraint{DeclRange: expr.Range()}
	s, diags := constString(expr, what)
	if diags.HasErrors() {
		return vc, diags
	}
	c, err := version.NewConstraint(s)
	if err != nil {
		return vc, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid version constraint",
			Detail:   fmt.Sprintf("%q is not a valid version constraint (%s); write constraints like \">= 1.2.0, < 2.0.0\" or \"~> 1.5\".", s, err),
			Subject:  expr.Range().Ptr(),
		}}
	}
	vc.Required = c
	return vc, nil
}

func decodeBackend(b *hcl.Block) (*Backend, hcl.Diagnostics) {
	be := &Backend{Type: b.Labels[0], Config: b.Body, TypeRange: labelRange(b, 0), DeclRange: b.DefRange}
	schema, ok := BackendSchemas[be.Type]
	if !ok {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Unsupported backend type",
			Detail:   fmt.Sprintf("plankit supports the \"local\", \"pg\" and \"s3\" backends, not %q; use one of them or remove the backend block.", be.Type),
			Subject:  be.TypeRange.Ptr(),
		}}
	}
	content, diags := b.Body.Content(schema)
	for _, name := range slices.Sorted(maps.Keys(content.Attributes)) {
		expr := content.Attributes[name].Expr
		switch ty := BackendArgType(name); ty {
		case cty.Bool:
			_, ds := constBool(expr, "backend "+name)
			diags = append(diags, ds...)
		case cty.String:
			if _, ds := constString(expr, "backend "+name); ds.HasErrors() {
				diags = append(diags, ds...)
			}
		default:
			diags = append(diags, constOfType(expr, ty, "backend "+name)...)
		}
	}
	return be, diags
}

func decodeRequiredProviders(block *hcl.Block) ([]*RequiredProvider, hcl.Diagnostics) {
	attrs, diags := block.Body.JustAttributes()
	var out []*RequiredProvider
	for _, name := range slices.Sorted(maps.Keys(attrs)) {
		attr := attrs[name]
		if ds := checkName(name, "provider local name", attr.NameRange); ds.HasErrors() {
			diags = append(diags, ds...)
			continue
		}
		rp, ds := decodeRequiredProvider(name, attr)
		diags = append(diags, ds...)
		if rp != nil {
			out = append(out, rp)
		}
	}
	return out, diags
}

// decodeRequiredProvider reads NAME = { source = "...", version = "..." } or
// the legacy NAME = "VERSION-CONSTRAINT" form (source implied by the name).
func decodeRequiredProvider(name string, attr *hcl.Attribute) (*RequiredProvider, hcl.Diagnostics) {
	rp := &RequiredProvider{Name: name, DeclRange: attr.Range, Requirement: VersionConstraint{DeclRange: attr.Range}}
	pairs, mapDiags := hcl.ExprMap(attr.Expr)
	if mapDiags.HasErrors() {
		// The legacy form: a version constraint string.
		vc, diags := decodeVersionConstraint(attr.Expr, "required_providers version")
		if diags.HasErrors() {
			return nil, hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Invalid required_providers entry",
				Detail:   fmt.Sprintf("The entry for %q must be an object like { source = \"hashicorp/%s\", version = \"~> 1.0\" } or a version constraint string.", name, name),
				Subject:  attr.Expr.Range().Ptr(),
			}}
		}
		rp.Requirement = vc
		rp.Type = addrs.ImpliedProviderForUnqualifiedType(name)
		return rp, nil
	}
	var diags hcl.Diagnostics
	for _, kv := range pairs {
		key, ds := constString(kv.Key, "required_providers key")
		if ds.HasErrors() {
			diags = append(diags, ds...)
			continue
		}
		switch key {
		case "source":
			src, ds := constString(kv.Value, "provider source")
			diags = append(diags, ds...)
			if ds.HasErrors() {
				continue
			}
			p, err := addrs.ParseProviderSourceString(src)
			if err != nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid provider source address",
					Detail:   err.Error() + ".",
					Subject:  kv.Value.Range().Ptr(),
				})
				continue
			}
			rp.Source, rp.Type = src, p
		case "version":
			vc, ds := decodeVersionConstraint(kv.Value, "provider version constraint")
			diags = append(diags, ds...)
			rp.Requirement = vc
		case "configuration_aliases":
			aliases, ds := decodeConfigurationAliases(name, kv.Value)
			diags = append(diags, ds...)
			rp.ConfigurationAliases = aliases
		default:
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid required_providers object",
				Detail:   fmt.Sprintf("A required_providers entry may set only source, version and configuration_aliases, not %q.", key),
				Subject:  kv.Key.Range().Ptr(),
			})
		}
	}
	if rp.Type.IsZero() {
		rp.Type = addrs.ImpliedProviderForUnqualifiedType(name)
	}
	return rp, diags
}

func decodeConfigurationAliases(name string, expr hcl.Expression) ([]addrs.LocalProviderConfig, hcl.Diagnostics) {
	exprs, diags := hcl.ExprList(expr)
	var out []addrs.LocalProviderConfig
	for _, e := range exprs {
		ref, ds := decodeProviderRef(e, "configuration_aliases element")
		diags = append(diags, ds...)
		if ds.HasErrors() {
			continue
		}
		if ref.Name != name || ref.Alias == "" {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid configuration_aliases element",
				Detail:   fmt.Sprintf("Each configuration_aliases element must be %s.ALIAS.", name),
				Subject:  e.Range().Ptr(),
			})
			continue
		}
		out = append(out, addrs.LocalProviderConfig{LocalName: ref.Name, Alias: ref.Alias})
	}
	return out, diags
}
