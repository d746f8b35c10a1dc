package operation

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/plankit/plankit/internal/backend/s3"
	"github.com/plankit/plankit/tfdiags"
)

// s3RoleAttrs are the attributes of the s3 backend's assume_role and
// assume_role_with_web_identity objects, Terraform's and OpenTofu's, with
// their types. The objects travel as one argument per attribute,
// NAME.ATTR, lists and maps as JSON (see s3RoleArgValues).
var s3RoleAttrs = map[string]map[string]cty.Type{
	"assume_role": {
		"role_arn": cty.String, "session_name": cty.String, "external_id": cty.String,
		"duration": cty.String, "policy": cty.String, "policy_arns": cty.List(cty.String),
		"source_identity": cty.String, "tags": cty.Map(cty.String),
		"transitive_tag_keys": cty.List(cty.String),
	},
	"assume_role_with_web_identity": {
		"role_arn": cty.String, "session_name": cty.String, "duration": cty.String,
		"policy": cty.String, "policy_arns": cty.List(cty.String),
		"web_identity_token": cty.String, "web_identity_token_file": cty.String,
	},
}

// s3RoleSecret are the role attributes never recorded in a plan archive.
var s3RoleSecret = map[string]bool{"assume_role_with_web_identity.web_identity_token": true}

// s3DeprecatedRoleArgs are OpenTofu's older top-level arguments for
// assume_role (Terraform 1.11 no longer takes them), with their
// replacements.
var s3DeprecatedRoleArgs = map[string]string{
	"role_arn":                        "assume_role.role_arn",
	"session_name":                    "assume_role.session_name",
	"external_id":                     "assume_role.external_id",
	"assume_role_duration_seconds":    "assume_role.duration",
	"assume_role_policy":              "assume_role.policy",
	"assume_role_policy_arns":         "assume_role.policy_arns",
	"assume_role_tags":                "assume_role.tags",
	"assume_role_transitive_tag_keys": "assume_role.transitive_tag_keys",
}

// s3RoleArgValues flattens an assume_role or assume_role_with_web_identity
// object into NAME.ATTR arguments.
func s3RoleArgValues(name string, v cty.Value) (map[string]string, error) {
	attrs := s3RoleAttrs[name]
	ty := v.Type()
	if v.IsNull() || !v.IsWhollyKnown() || !(ty.IsObjectType() || ty.IsMapType()) {
		return nil, fmt.Errorf("The s3 backend's %s must be an object such as %s = { role_arn = \"arn:aws:iam::ACCOUNT:role/NAME\" }.", name, name)
	}
	out := map[string]string{}
	for k, e := range v.AsValueMap() {
		want, ok := attrs[k]
		if !ok {
			return nil, fmt.Errorf("The s3 backend's %s has no argument %q; it takes %s.", name, k, strings.Join(slices.Sorted(maps.Keys(attrs)), ", "))
		}
		if e.IsNull() {
			continue
		}
		c, err := convert.Convert(e, want)
		if err != nil || !c.IsWhollyKnown() {
			return nil, fmt.Errorf("The s3 backend's %s.%s must be a %s.", name, k, want.FriendlyName())
		}
		switch {
		case want == cty.String:
			out[name+"."+k] = c.AsString()
		case want.IsListType():
			l := []string{}
			for _, x := range c.AsValueSlice() {
				l = append(l, x.AsString())
			}
			j, _ := json.Marshal(l)
			out[name+"."+k] = string(j)
		default:
			m := map[string]string{}
			for mk, x := range c.AsValueMap() {
				m[mk] = x.AsString()
			}
			j, _ := json.Marshal(m)
			out[name+"."+k] = string(j)
		}
	}
	return out, nil
}

// isS3RoleArg reports whether name is one of the role objects.
func isS3RoleArg(name string) bool {
	_, ok := s3RoleAttrs[name]
	return ok
}

// s3Roles sets cfg's roles from args: assume_role (or the deprecated
// top-level arguments, with a warning) and assume_role_with_web_identity,
// whose role, session name and token fall back to AWS_ROLE_ARN,
// AWS_ROLE_SESSION_NAME, AWS_WEB_IDENTITY_TOKEN_FILE and
// AWS_WEB_IDENTITY_TOKEN, as in OpenTofu.
func s3Roles(cfg *s3.Config, args, env map[string]string, fromFlags map[string]bool) hcl.Diagnostics {
	ra := s3RoleArgs{args: args, fromFlags: fromFlags}
	// Every NAME.ATTR must be known (a hand-edited record or file).
	set := map[string]bool{}
	for _, k := range slices.Sorted(maps.Keys(args)) {
		obj, attr, ok := strings.Cut(k, ".")
		if !ok || !isS3RoleArg(obj) {
			continue
		}
		if _, known := s3RoleAttrs[obj][attr]; !known {
			return ra.bad("The s3 backend's %s has no argument %q; it takes %s.", obj, attr, strings.Join(slices.Sorted(maps.Keys(s3RoleAttrs[obj])), ", "))
		}
		set[obj] = true
	}
	if _, ok := args["assume_role_tags"]; ok {
		return ra.bad("The s3 backend's assume_role_tags must be a map such as assume_role_tags = { team = \"infra\" } (in a backend block or a -backend-config file); better, use assume_role's tags.")
	}
	deprecated, replace := s3DeprecatedRoleArgsSet(args)
	if set["assume_role"] && len(deprecated) > 0 {
		return ra.bad("The s3 backend's assume_role cannot be set with the older arguments it replaces:\n%s", replace)
	}
	var diags hcl.Diagnostics
	switch {
	case set["assume_role"]:
		cfg.AssumeRole, diags = ra.assumeRole()
	case len(deprecated) > 0:
		cfg.AssumeRole, diags = ra.topLevelAssumeRole()
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Deprecated backend arguments",
			Detail: "The s3 backend's older assume-role arguments are deprecated (OpenTofu still takes them, Terraform 1.11 no longer does). Replace them:\n" + replace})
	}
	if diags.HasErrors() {
		return diags
	}
	if set["assume_role_with_web_identity"] {
		var ds hcl.Diagnostics
		if cfg.AssumeRoleWithWebIdentity, ds = ra.webIdentity(env); ds.HasErrors() {
			return ds
		}
	}
	return diags
}

// s3DeprecatedRoleArgsSet returns the deprecated top-level role arguments
// that args sets, sorted, and a list of their replacements to print.
func s3DeprecatedRoleArgsSet(args map[string]string) ([]string, string) {
	var deprecated []string
	for _, k := range slices.Sorted(maps.Keys(s3DeprecatedRoleArgs)) {
		if _, ok := args[k]; ok {
			deprecated = append(deprecated, k)
		}
	}
	for k := range args {
		if strings.HasPrefix(k, "assume_role_tags.") && !slices.Contains(deprecated, "assume_role_tags") {
			deprecated = append(deprecated, "assume_role_tags")
		}
	}
	slices.Sort(deprecated)
	var replace []string
	for _, k := range deprecated {
		replace = append(replace, fmt.Sprintf("  - %s: use %s", k, s3DeprecatedRoleArgs[k]))
	}
	return deprecated, strings.Join(replace, "\n")
}

// s3RoleArgs reads the role settings from the flattened backend arguments;
// its errors name the setting and where it came from.
type s3RoleArgs struct {
	args      map[string]string
	fromFlags map[string]bool
}

func (ra s3RoleArgs) bad(format string, a ...any) hcl.Diagnostics {
	return hcl.Diagnostics{tfdiags.Errorf("Invalid backend configuration", format, a...)}
}

func (ra s3RoleArgs) src(name string) string { return s3ArgSource(name, ra.fromFlags) }

func (ra s3RoleArgs) list(name string) ([]string, hcl.Diagnostics) {
	v, ok := ra.args[name]
	if !ok {
		return nil, nil
	}
	var l []string
	if err := json.Unmarshal([]byte(v), &l); err != nil {
		return nil, ra.bad("The s3 backend's %s must be a list of strings (from %s).", name, ra.src(name))
	}
	return l, nil
}

func (ra s3RoleArgs) duration(name string) (time.Duration, hcl.Diagnostics) {
	v := ra.args[name]
	if v == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return 0, ra.bad("The s3 backend's %s %q is not a duration such as \"1h\" or \"45m\" (from %s).", name, v, ra.src(name))
	}
	return d, nil
}

// assumeRole reads the assume_role block.
func (ra s3RoleArgs) assumeRole() (*s3.AssumeRole, hcl.Diagnostics) {
	args := ra.args
	a := &s3.AssumeRole{
		RoleARN: args["assume_role.role_arn"], SessionName: args["assume_role.session_name"],
		ExternalID: args["assume_role.external_id"], Policy: strings.TrimSpace(args["assume_role.policy"]),
		SourceIdentity: args["assume_role.source_identity"],
	}
	var ds hcl.Diagnostics
	if a.Duration, ds = ra.duration("assume_role.duration"); ds.HasErrors() {
		return nil, ds
	}
	if a.PolicyARNs, ds = ra.list("assume_role.policy_arns"); ds.HasErrors() {
		return nil, ds
	}
	if a.TransitiveTagKeys, ds = ra.list("assume_role.transitive_tag_keys"); ds.HasErrors() {
		return nil, ds
	}
	if v, ok := args["assume_role.tags"]; ok {
		if err := json.Unmarshal([]byte(v), &a.Tags); err != nil {
			return nil, ra.bad("The s3 backend's assume_role.tags must be a map of strings (from %s).", ra.src("assume_role.tags"))
		}
	}
	return a, nil
}

// topLevelAssumeRole reads OpenTofu's deprecated top-level role arguments.
func (ra s3RoleArgs) topLevelAssumeRole() (*s3.AssumeRole, hcl.Diagnostics) {
	args := ra.args
	a := &s3.AssumeRole{
		TopLevel: true, RoleARN: args["role_arn"], SessionName: args["session_name"],
		ExternalID: args["external_id"], Policy: strings.TrimSpace(args["assume_role_policy"]),
	}
	if v := args["assume_role_duration_seconds"]; v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return nil, ra.bad("The s3 backend's assume_role_duration_seconds must be a whole number of seconds, not %q (from %s).", v, ra.src("assume_role_duration_seconds"))
		}
		a.Duration = time.Duration(n) * time.Second
	}
	var ds hcl.Diagnostics
	if a.PolicyARNs, ds = ra.list("assume_role_policy_arns"); ds.HasErrors() {
		return nil, ds
	}
	if a.TransitiveTagKeys, ds = ra.list("assume_role_transitive_tag_keys"); ds.HasErrors() {
		return nil, ds
	}
	for k, v := range args {
		if tag, ok := strings.CutPrefix(k, "assume_role_tags."); ok {
			if a.Tags == nil {
				a.Tags = map[string]string{}
			}
			a.Tags[tag] = v
		}
	}
	return a, nil
}

// webIdentity reads the assume_role_with_web_identity block, with the AWS
// SDK's environment variables filling what it leaves out.
func (ra s3RoleArgs) webIdentity(env map[string]string) (*s3.AssumeRoleWithWebIdentity, hcl.Diagnostics) {
	const p = "assume_role_with_web_identity."
	args := ra.args
	w := &s3.AssumeRoleWithWebIdentity{
		RoleARN: args[p+"role_arn"], SessionName: args[p+"session_name"],
		Policy:           strings.TrimSpace(args[p+"policy"]),
		WebIdentityToken: args[p+"web_identity_token"], WebIdentityTokenFile: args[p+"web_identity_token_file"],
	}
	if w.RoleARN == "" {
		w.RoleARN = env["AWS_ROLE_ARN"]
	}
	if w.SessionName == "" {
		w.SessionName = env["AWS_ROLE_SESSION_NAME"]
	}
	if w.WebIdentityToken == "" && w.WebIdentityTokenFile == "" {
		w.WebIdentityTokenFile = env["AWS_WEB_IDENTITY_TOKEN_FILE"]
		if w.WebIdentityTokenFile == "" {
			w.WebIdentityToken = env["AWS_WEB_IDENTITY_TOKEN"]
		}
	}
	var ds hcl.Diagnostics
	if w.Duration, ds = ra.duration(p + "duration"); ds.HasErrors() {
		return nil, ds
	}
	if w.PolicyARNs, ds = ra.list(p + "policy_arns"); ds.HasErrors() {
		return nil, ds
	}
	return w, nil
}

// s3RoleRecord adds the roles to the plan archive's record, as NAME.ATTR
// arguments (the deprecated top-level ones as assume_role's), without the
// web identity token.
func s3RoleRecord(r map[string]string, cfg s3.Config) {
	put := func(k, v string) {
		if v != "" && !s3RoleSecret[k] {
			r[k] = v
		}
	}
	putList := func(k string, l []string) {
		if len(l) > 0 {
			j, _ := json.Marshal(l)
			r[k] = string(j)
		}
	}
	dur := func(d time.Duration) string {
		if d == 0 {
			return ""
		}
		return d.String()
	}
	if a := cfg.AssumeRole; a != nil {
		put("assume_role.role_arn", a.RoleARN)
		put("assume_role.session_name", a.SessionName)
		put("assume_role.external_id", a.ExternalID)
		put("assume_role.duration", dur(a.Duration))
		put("assume_role.policy", a.Policy)
		put("assume_role.source_identity", a.SourceIdentity)
		putList("assume_role.policy_arns", a.PolicyARNs)
		putList("assume_role.transitive_tag_keys", a.TransitiveTagKeys)
		if len(a.Tags) > 0 {
			j, _ := json.Marshal(a.Tags)
			r["assume_role.tags"] = string(j)
		}
	}
	if w := cfg.AssumeRoleWithWebIdentity; w != nil {
		const p = "assume_role_with_web_identity."
		put(p+"role_arn", w.RoleARN)
		put(p+"session_name", w.SessionName)
		put(p+"duration", dur(w.Duration))
		put(p+"policy", w.Policy)
		put(p+"web_identity_token_file", w.WebIdentityTokenFile)
		putList(p+"policy_arns", w.PolicyARNs)
	}
	if cfg.STSEndpoint != "" {
		r["endpoints.sts"] = cfg.STSEndpoint
	}
	if cfg.STSRegion != "" {
		r["sts_region"] = cfg.STSRegion
	}
}
