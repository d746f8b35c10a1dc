package s3

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/internal/backend/s3/s3test"
	"github.com/plankit/plankit/internal/states/statemgr"
)

// roleEnv keeps the AWS SDK's default chain from finding anything of the
// machine's: the credentials are the ones each test gives.
func roleEnv(t *testing.T) {
	dir := t.TempDir()
	for k, v := range map[string]string{
		"AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "", "AWS_SESSION_TOKEN": "", "AWS_PROFILE": "",
		"AWS_ROLE_ARN": "", "AWS_WEB_IDENTITY_TOKEN_FILE": "", "AWS_ENDPOINT_URL": "", "AWS_ENDPOINT_URL_STS": "",
		"AWS_CONFIG_FILE":             filepath.Join(dir, "none"),
		"AWS_SHARED_CREDENTIALS_FILE": filepath.Join(dir, "none"),
		"AWS_EC2_METADATA_DISABLED":   "true",
	} {
		t.Setenv(k, v)
	}
}

// TestAssumeRoleThroughSTS assumes roles with moto's STS and checks, from
// the requests a recording proxy saw, that STS got the configured role,
// session and token, and that every S3 request was signed with the key
// STS returned, never with the base credentials.
func TestAssumeRoleThroughSTS(t *testing.T) {
	roleEnv(t)
	moto := s3test.SharedMoto(t)
	tokenFile := filepath.Join(t.TempDir(), "token")
	const fileToken = "eyJ-file-token.payload.signature"
	if err := os.WriteFile(tokenFile, []byte(fileToken), 0o600); err != nil {
		t.Fatal(err)
	}
	const role = "arn:aws:iam::123456789012:role/plankit-deploy"
	const webRole = "arn:aws:iam::123456789012:role/plankit-oidc"
	base := func(c *Config) { c.AccessKey, c.SecretKey = s3test.MotoAccessKey, s3test.MotoSecretKey }
	tests := []struct {
		name string
		set  func(*Config)
		// want are the STS calls: the parameters checked, and the key
		// that signed each ("" unsigned).
		want []stsCall
	}{
		{
			name: "assume_role",
			set: func(c *Config) {
				base(c)
				c.AssumeRole = &AssumeRole{RoleARN: role, SessionName: "plankit-ci", ExternalID: "ext-42", Duration: 20 * time.Minute,
					SourceIdentity: "alice", Tags: map[string]string{"team": "infra"}, TransitiveTagKeys: []string{"team"},
					PolicyARNs: []string{"arn:aws:iam::aws:policy/ReadOnlyAccess"}}
			},
			want: []stsCall{{Signer: s3test.MotoAccessKey, Form: map[string]string{
				"Action": "AssumeRole", "RoleArn": role, "RoleSessionName": "plankit-ci", "ExternalId": "ext-42",
				"DurationSeconds": "1200", "SourceIdentity": "alice", "Tags.member.1.Key": "team", "Tags.member.1.Value": "infra",
				"TransitiveTagKeys.member.1": "team", "PolicyArns.member.1.arn": "arn:aws:iam::aws:policy/ReadOnlyAccess"}}},
		},
		{
			name: "assume_role_with_web_identity, token file, no other credentials",
			set: func(c *Config) {
				c.AssumeRoleWithWebIdentity = &AssumeRoleWithWebIdentity{RoleARN: webRole, SessionName: "oidc-session", WebIdentityTokenFile: tokenFile, Duration: time.Hour}
			},
			want: []stsCall{{Form: map[string]string{"Action": "AssumeRoleWithWebIdentity", "RoleArn": webRole, "RoleSessionName": "oidc-session", "WebIdentityToken": fileToken, "DurationSeconds": "3600"}}},
		},
		{
			name: "web identity token inline, then assume_role with its credentials",
			set: func(c *Config) {
				c.AssumeRoleWithWebIdentity = &AssumeRoleWithWebIdentity{RoleARN: webRole, SessionName: "oidc-session", WebIdentityToken: "inline-token-value"}
				c.AssumeRole = &AssumeRole{RoleARN: role, SessionName: "second-hop"}
			},
			want: []stsCall{
				{Form: map[string]string{"Action": "AssumeRoleWithWebIdentity", "RoleArn": webRole, "WebIdentityToken": "inline-token-value"}},
				{Signer: "previous", Form: map[string]string{"Action": "AssumeRole", "RoleArn": role, "RoleSessionName": "second-hop"}},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := s3test.NewRecorder(t, moto.Endpoint)
			cfg := Config{
				Bucket: moto.NewBucket(t), Key: "proj/terraform.tfstate", Region: s3test.Region,
				Endpoint: rec.URL, STSEndpoint: rec.URL, UsePathStyle: true, UseLockfile: true,
				SkipMetadataAPICheck: true,
			}
			tc.set(&cfg)
			b := openBackend(t, cfg)
			ctx := context.Background()
			m, err := b.StateMgr(ctx, "default")
			if err != nil {
				t.Fatal(err)
			}
			id, err := m.Lock(statemgr.NewLockInfo())
			if err != nil {
				t.Fatal(err)
			}
			m.WriteState(stateWith("a"))
			if err := m.PersistState(); err != nil {
				t.Fatal(err)
			}
			if err := m.Unlock(id); err != nil {
				t.Fatal(err)
			}

			var sts, s3Calls []s3test.Call
			for _, c := range rec.Calls() {
				if c.Service == "sts" {
					sts = append(sts, c)
				} else {
					s3Calls = append(s3Calls, c)
				}
			}
			if len(sts) != len(tc.want) {
				t.Fatalf("STS calls: %+v; want %d", sts, len(tc.want))
			}
			prev := ""
			for i, w := range tc.want {
				got := map[string]string{}
				for k := range w.Form {
					got[k] = sts[i].Form.Get(k)
				}
				if d := cmp.Diff(w.Form, got); d != "" {
					t.Errorf("STS call %d (-want +got):\n%s", i, d)
				}
				signer := w.Signer
				if signer == "previous" {
					signer = prev
				}
				if sts[i].AccessKeyID != signer {
					t.Errorf("STS call %d signed by %q, want %q", i, sts[i].AccessKeyID, signer)
				}
				if sts[i].Returned == "" || sts[i].Returned == s3test.MotoAccessKey {
					t.Fatalf("STS call %d returned key %q", i, sts[i].Returned)
				}
				prev = sts[i].Returned
			}
			// The probe, the lock, the state and the unlock: all with the
			// last role's key.
			if len(s3Calls) < 5 {
				t.Fatalf("only %d S3 requests: %+v", len(s3Calls), s3Calls)
			}
			for _, c := range s3Calls {
				if c.Service != "s3" || c.AccessKeyID != prev {
					t.Errorf("S3 request %s %s: service %q signed by %q, want s3 signed by the assumed role's key %q", c.Method, c.Path, c.Service, c.AccessKeyID, prev)
				}
			}
			if got := string(moto.GetObject(t, cfg.Bucket, cfg.Key)); !strings.Contains(got, `"serial": 1`) && !strings.Contains(got, `"serial":1`) {
				t.Errorf("state object: %s", got)
			}
		})
	}
}

type stsCall struct {
	Signer string // "previous": the key the call before returned
	Form   map[string]string
}

// TestAssumeRoleErrors: a role that cannot be assumed fails when the
// backend is opened, naming the role and the setting.
func TestAssumeRoleErrors(t *testing.T) {
	roleEnv(t)
	moto := s3test.SharedMoto(t)
	bucket := moto.NewBucket(t)
	missing := filepath.Join(t.TempDir(), "no-token")
	tests := []struct {
		name string
		cfg  Config
		want []string
	}{
		{
			name: "token file missing",
			cfg:  Config{AssumeRoleWithWebIdentity: &AssumeRoleWithWebIdentity{RoleARN: "arn:aws:iam::1:role/r", WebIdentityTokenFile: missing}},
			want: []string{"assuming role arn:aws:iam::1:role/r with a web identity token (assume_role_with_web_identity)", "no-token"},
		},
		{
			name: "no base credentials to sign AssumeRole",
			cfg:  Config{AssumeRole: &AssumeRole{RoleARN: "arn:aws:iam::1:role/r"}},
			want: []string{"assuming role arn:aws:iam::1:role/r (assume_role)"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tc.cfg
			cfg.Bucket, cfg.Key, cfg.Region = bucket, "k", s3test.Region
			cfg.Endpoint, cfg.STSEndpoint, cfg.UsePathStyle, cfg.SkipMetadataAPICheck = moto.Endpoint, moto.Endpoint, true, true
			cfg.MaxRetries = 1
			_, err := New(context.Background(), cfg)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			if !strings.Contains(err.Error(), "the STS endpoint "+moto.Endpoint) {
				t.Errorf("error %q does not name the STS endpoint", err)
			}
		})
	}
}
