package s3

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/arn"
	"github.com/aws/aws-sdk-go-v2/credentials/stscreds"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	ststypes "github.com/aws/aws-sdk-go-v2/service/sts/types"
)

// AssumeRole is the assume_role block (or OpenTofu's older top-level
// role_arn, session_name, ... arguments): a role assumed with STS
// AssumeRole, using the credentials found before it (the default chain,
// the block's keys, or assume_role_with_web_identity's role).
type AssumeRole struct {
	RoleARN           string
	SessionName       string
	ExternalID        string
	Duration          time.Duration // 0: STS's default (one hour)
	Policy            string
	PolicyARNs        []string
	SourceIdentity    string
	Tags              map[string]string
	TransitiveTagKeys []string
	// TopLevel: set with the deprecated top-level arguments, which
	// messages then name.
	TopLevel bool
}

// AssumeRoleWithWebIdentity is the assume_role_with_web_identity block: a
// role assumed with STS AssumeRoleWithWebIdentity and an OpenID Connect or
// OAuth token, which needs no other credentials.
type AssumeRoleWithWebIdentity struct {
	RoleARN     string
	SessionName string
	Duration    time.Duration
	Policy      string
	PolicyARNs  []string
	// Exactly one of WebIdentityToken (the token itself) and
	// WebIdentityTokenFile (a file holding it, read at each refresh).
	WebIdentityToken     string
	WebIdentityTokenFile string
}

// topLevelNames are the deprecated top-level arguments that stand for
// assume_role's.
var topLevelNames = map[string]string{
	"role_arn": "role_arn", "session_name": "session_name", "external_id": "external_id",
	"duration": "assume_role_duration_seconds", "policy": "assume_role_policy",
	"policy_arns": "assume_role_policy_arns", "tags": "assume_role_tags",
	"transitive_tag_keys": "assume_role_transitive_tag_keys",
}

func (a *AssumeRole) name(attr string) string {
	if a.TopLevel {
		if n, ok := topLevelNames[attr]; ok {
			return n
		}
	}
	return "assume_role." + attr
}

// STS's limits on the values (AssumeRole's API reference).
var (
	roleSessionNameRE = regexp.MustCompile(`^[\w+=,.@-]{2,64}$`)
	externalIDRE      = regexp.MustCompile(`^[\w+=,.@:/-]+$`)
)

const (
	minRoleDuration = 15 * time.Minute
	maxRoleDuration = 12 * time.Hour
)

func (a *AssumeRole) validate() error {
	if err := validateRoleARN(a.name("role_arn"), a.RoleARN); err != nil {
		return err
	}
	if err := validateCommon(a.name, a.SessionName, a.Duration, a.Policy, a.PolicyARNs); err != nil {
		return err
	}
	if a.ExternalID != "" && (len(a.ExternalID) < 2 || len(a.ExternalID) > 1224 || !externalIDRE.MatchString(a.ExternalID)) {
		return fmt.Errorf("the s3 backend's %s must be 2 to 1224 letters, digits or =,.@:/-_+ characters", a.name("external_id"))
	}
	if a.SourceIdentity != "" && !roleSessionNameRE.MatchString(a.SourceIdentity) {
		return fmt.Errorf("the s3 backend's %s must be 2 to 64 letters, digits or =,.@-_+ characters, not %q", a.name("source_identity"), a.SourceIdentity)
	}
	for _, k := range a.TransitiveTagKeys {
		if _, ok := a.Tags[k]; !ok {
			return fmt.Errorf("the s3 backend's %s names %q, which is not a key of %s", a.name("transitive_tag_keys"), k, a.name("tags"))
		}
	}
	return nil
}

func (w *AssumeRoleWithWebIdentity) name(attr string) string {
	return "assume_role_with_web_identity." + attr
}

func (w *AssumeRoleWithWebIdentity) validate() error {
	if err := validateRoleARN(w.name("role_arn")+" (or AWS_ROLE_ARN)", w.RoleARN); err != nil {
		return err
	}
	if err := validateCommon(w.name, w.SessionName, w.Duration, w.Policy, w.PolicyARNs); err != nil {
		return err
	}
	switch {
	case w.WebIdentityToken != "" && w.WebIdentityTokenFile != "":
		return fmt.Errorf("the s3 backend's %s and %s cannot both be set: give the token or the file holding it", w.name("web_identity_token"), w.name("web_identity_token_file"))
	case w.WebIdentityToken == "" && w.WebIdentityTokenFile == "":
		return fmt.Errorf("the s3 backend's assume_role_with_web_identity needs web_identity_token_file (or AWS_WEB_IDENTITY_TOKEN_FILE) or web_identity_token (or AWS_WEB_IDENTITY_TOKEN)")
	}
	return nil
}

func validateRoleARN(name, v string) error {
	if v == "" {
		return fmt.Errorf("the s3 backend's %s is required: the ARN of the IAM role to assume (arn:aws:iam::ACCOUNT:role/NAME)", name)
	}
	a, err := arn.Parse(v)
	if err != nil || a.Service != "iam" || !strings.HasPrefix(a.Resource, "role/") {
		return fmt.Errorf("the s3 backend's %s %q is not an IAM role ARN (arn:aws:iam::ACCOUNT:role/NAME)", name, v)
	}
	return nil
}

func validateCommon(name func(string) string, session string, d time.Duration, policy string, policyARNs []string) error {
	if session != "" && !roleSessionNameRE.MatchString(session) {
		return fmt.Errorf("the s3 backend's %s must be 2 to 64 letters, digits or =,.@-_+ characters, not %q", name("session_name"), session)
	}
	if d != 0 && (d < minRoleDuration || d > maxRoleDuration) {
		return fmt.Errorf("the s3 backend's %s must be between 15 minutes and 12 hours, not %s", name("duration"), d)
	}
	if policy != "" && !json.Valid([]byte(policy)) {
		return fmt.Errorf("the s3 backend's %s must be an IAM policy document in JSON", name("policy"))
	}
	for _, p := range policyARNs {
		a, err := arn.Parse(p)
		if err != nil || a.Service != "iam" || !strings.HasPrefix(a.Resource, "policy/") {
			return fmt.Errorf("the s3 backend's %s holds %q, which is not an IAM policy ARN (arn:aws:iam::ACCOUNT:policy/NAME)", name("policy_arns"), p)
		}
	}
	return nil
}

// inlineToken is web_identity_token given as a value.
type inlineToken string

func (t inlineToken) GetIdentityToken() ([]byte, error) { return []byte(t), nil }

func policyDescriptors(arns []string) []ststypes.PolicyDescriptorType {
	var out []ststypes.PolicyDescriptorType
	for _, a := range arns {
		out = append(out, ststypes.PolicyDescriptorType{Arn: aws.String(a)})
	}
	return out
}

// withRoles replaces awsCfg's credentials by the roles' when the
// configuration assumes any: first the web identity's role (which needs no
// credentials), then assume_role with whatever came before, as Terraform
// and OpenTofu chain them. Each provider is wrapped in a cache, so STS is
// called once per session and again shortly before it expires.
func withRoles(awsCfg aws.Config, cfg Config) aws.Config {
	stsClient := func(c aws.Config) *sts.Client {
		return sts.NewFromConfig(c, func(o *sts.Options) {
			if cfg.STSEndpoint != "" {
				o.BaseEndpoint = aws.String(cfg.STSEndpoint)
			}
			if cfg.STSRegion != "" {
				o.Region = cfg.STSRegion
			}
		})
	}
	if w := cfg.AssumeRoleWithWebIdentity; w != nil {
		var tok stscreds.IdentityTokenRetriever = stscreds.IdentityTokenFile(w.WebIdentityTokenFile)
		if w.WebIdentityToken != "" {
			tok = inlineToken(w.WebIdentityToken)
		}
		p := stscreds.NewWebIdentityRoleProvider(stsClient(awsCfg), w.RoleARN, tok, func(o *stscreds.WebIdentityRoleOptions) {
			o.RoleSessionName = w.SessionName
			o.Duration = w.Duration
			if w.Policy != "" {
				o.Policy = aws.String(w.Policy)
			}
			o.PolicyARNs = policyDescriptors(w.PolicyARNs)
		})
		awsCfg.Credentials = aws.NewCredentialsCache(p)
	}
	if a := cfg.AssumeRole; a != nil {
		p := stscreds.NewAssumeRoleProvider(stsClient(awsCfg), a.RoleARN, func(o *stscreds.AssumeRoleOptions) {
			o.RoleSessionName = a.SessionName
			o.Duration = a.Duration
			if a.ExternalID != "" {
				o.ExternalID = aws.String(a.ExternalID)
			}
			if a.Policy != "" {
				o.Policy = aws.String(a.Policy)
			}
			o.PolicyARNs = policyDescriptors(a.PolicyARNs)
			if a.SourceIdentity != "" {
				o.SourceIdentity = aws.String(a.SourceIdentity)
			}
			keys := make([]string, 0, len(a.Tags))
			for k := range a.Tags {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				o.Tags = append(o.Tags, ststypes.Tag{Key: aws.String(k), Value: aws.String(a.Tags[k])})
			}
			o.TransitiveTagKeys = a.TransitiveTagKeys
		})
		awsCfg.Credentials = aws.NewCredentialsCache(p)
	}
	return awsCfg
}

// rolesDescription names the roles assumed, for an error retrieving
// credentials.
func (c *Config) rolesDescription() string {
	var parts []string
	if w := c.AssumeRoleWithWebIdentity; w != nil {
		parts = append(parts, fmt.Sprintf("assuming role %s with a web identity token (assume_role_with_web_identity)", w.RoleARN))
	}
	if a := c.AssumeRole; a != nil {
		src := "assume_role"
		if a.TopLevel {
			src = "role_arn"
		}
		parts = append(parts, fmt.Sprintf("assuming role %s (%s)", a.RoleARN, src))
	}
	if len(parts) == 0 {
		return ""
	}
	sts := "AWS STS"
	if c.STSEndpoint != "" {
		sts = "the STS endpoint " + c.STSEndpoint
	}
	return strings.Join(parts, ", then ") + " through " + sts
}
