package e2etest

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/plankit/plankit/internal/backend/s3/s3test"
)

// The tests in this file assume roles through a real STS API: moto_server
// on loopback (s3test.SharedMoto), which serves S3 too, behind a proxy
// that records who signed each request. moto checks neither signatures
// nor that the role exists, so what they prove is what plankit sends:
// the STS call with the configured role, and S3 requests signed with the
// key that call returned.

// motoEnv is the environment of a process reaching moto with the base
// credentials, nothing read from the machine's AWS files.
func motoEnv(dir string) []string {
	return []string{
		"AWS_ACCESS_KEY_ID=" + s3test.MotoAccessKey,
		"AWS_SECRET_ACCESS_KEY=" + s3test.MotoSecretKey,
		"AWS_REGION=" + s3test.Region,
		"AWS_CONFIG_FILE=" + filepath.Join(dir, "no-aws-config"),
		"AWS_SHARED_CREDENTIALS_FILE=" + filepath.Join(dir, "no-aws-credentials"),
		"AWS_EC2_METADATA_DISABLED=true",
	}
}

// checkAssumed checks the recorded requests: each STS call is the
// action wanted, with the parameters wanted, signed by signer ("" for
// unsigned), and every S3 request is signed by a key one of them
// returned. It returns the number of STS calls.
func checkAssumed(t *testing.T, rec *s3test.Recorder, signer string, want map[string]string) int {
	t.Helper()
	issued := map[string]bool{}
	var n, s3Requests int
	for _, c := range rec.Calls() {
		if c.Service != "sts" {
			continue
		}
		n++
		for k, v := range want {
			if got := c.Form.Get(k); got != v {
				t.Errorf("STS call %d: %s = %q, want %q", n, k, got, v)
			}
		}
		if c.AccessKeyID != signer {
			t.Errorf("STS call %d signed by %q, want %q", n, c.AccessKeyID, signer)
		}
		if c.Returned == "" || c.Returned == s3test.MotoAccessKey {
			t.Errorf("STS call %d returned key %q", n, c.Returned)
		}
		issued[c.Returned] = true
	}
	for _, c := range rec.Calls() {
		if c.Service == "sts" {
			continue
		}
		s3Requests++
		if c.Service != "s3" || !issued[c.AccessKeyID] {
			t.Errorf("S3 request %s %s: service %q signed by %q, not by a key STS issued for the role", c.Method, c.Path, c.Service, c.AccessKeyID)
		}
	}
	if s3Requests == 0 {
		t.Errorf("no S3 request went through the recorder")
	}
	return n
}

// TestS3AssumeRole: init, plan, apply of the archive in another directory
// and a re-plan, with the backend block's assume_role: each process
// assumes the role with the base credentials, and reaches S3 with the
// role's only. The archive records the role, not the credentials.
func TestS3AssumeRole(t *testing.T) {
	t.Parallel()
	moto := s3test.SharedMoto(t)
	rec := s3test.NewRecorder(t, moto.Endpoint)
	bucket := moto.NewBucket(t)
	const role = "arn:aws:iam::123456789012:role/plankit-e2e"
	backend := `
terraform {
  backend "s3" {
    bucket         = "` + bucket + `"
    key            = "proj/terraform.tfstate"
    region         = "us-east-1"
    endpoints      = { s3 = "` + rec.URL + `", sts = "` + rec.URL + `" }
    use_path_style = true
    use_lockfile   = true
    assume_role = {
      role_arn     = "` + role + `"
      session_name = "plankit-e2e"
      external_id  = "e2e-external-id"
      duration     = "30m"
    }
  }
}
`
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), strings.Replace(pgConfig, "terraform {\n  backend \"pg\" {}\n}\n", backend, 1))
	env := motoEnv(dir)
	must(t, withEnv(t, dir, "plan", env, "init", "-no-color"), 0, "init")
	must(t, withEnv(t, dir, "plan", env, "-no-color", "-out=p.tfplan"), 0, "plan")
	record := archiveRecord(t, filepath.Join(dir, "p.tfplan"), s3test.MotoSecretKey)
	contains(t, record, "tfbackend.json", `"assume_role.role_arn": "`+role+`"`, `"assume_role.session_name": "plankit-e2e"`, `"assume_role.duration": "30m0s"`, `"endpoints.sts": "`+rec.URL+`"`)

	other := t.TempDir()
	copyFile(t, filepath.Join(dir, "p.tfplan"), filepath.Join(other, "p.tfplan"))
	ap := withEnv(t, other, "apply", motoEnv(other), "-no-color", "p.tfplan")
	must(t, ap, 0, "apply in another directory")
	contains(t, ap.stdout, "apply", "Apply complete! Resources: 2 added, 0 changed, 0 destroyed.")
	must(t, withEnv(t, dir, "plan", env, "-no-color", "-detailed-exitcode"), 0, "re-plan")

	n := checkAssumed(t, rec, s3test.MotoAccessKey, map[string]string{
		"Action": "AssumeRole", "RoleArn": role, "RoleSessionName": "plankit-e2e", "ExternalId": "e2e-external-id", "DurationSeconds": "1800",
	})
	if n < 4 {
		t.Errorf("%d AssumeRole calls; want one per process at least (init, plan, apply, re-plan)", n)
	}
	if got := string(moto.GetObject(t, bucket, "proj/terraform.tfstate")); !strings.Contains(got, `"terraform_data"`) {
		t.Errorf("state object after apply: %s", got)
	}
}

// TestS3AssumeRoleWithWebIdentity: the role and token file given with
// -backend-config, no credentials at all in the environment; the apply of
// the archive assumes the same role from its record, reading the token
// file again, and the token never enters the archive.
func TestS3AssumeRoleWithWebIdentity(t *testing.T) {
	t.Parallel()
	moto := s3test.SharedMoto(t)
	rec := s3test.NewRecorder(t, moto.Endpoint)
	bucket := moto.NewBucket(t)
	const role = "arn:aws:iam::123456789012:role/plankit-oidc"
	const token = "eyJhbGciOiJSUzI1NiJ9.e2e-oidc-token.signature"
	dir := t.TempDir()
	tokenFile := filepath.Join(dir, "token")
	writeFile(t, tokenFile, token)
	writeFile(t, filepath.Join(dir, "main.tf"), strings.Replace(pgConfig, "terraform {\n  backend \"pg\" {}\n}\n", `
terraform {
  backend "s3" {
    bucket         = "`+bucket+`"
    key            = "proj/terraform.tfstate"
    region         = "us-east-1"
    endpoint       = "`+rec.URL+`"
    sts_endpoint   = "`+rec.URL+`"
    use_path_style = true
  }
}
`, 1))
	env := []string{
		"AWS_REGION=" + s3test.Region,
		"AWS_CONFIG_FILE=" + filepath.Join(dir, "no-aws-config"),
		"AWS_SHARED_CREDENTIALS_FILE=" + filepath.Join(dir, "no-aws-credentials"),
		"AWS_EC2_METADATA_DISABLED=true",
	}
	bcfg := `-backend-config=assume_role_with_web_identity={ role_arn = "` + role + `", session_name = "oidc-e2e", web_identity_token_file = "` + tokenFile + `" }`
	must(t, withEnv(t, dir, "plan", env, "-no-color", bcfg, "-out=p.tfplan"), 0, "plan")
	record := archiveRecord(t, filepath.Join(dir, "p.tfplan"), token)
	contains(t, record, "tfbackend.json", `"assume_role_with_web_identity.role_arn": "`+role+`"`, `"assume_role_with_web_identity.web_identity_token_file": "`+tokenFile+`"`)
	ap := withEnv(t, dir, "apply", env, "-no-color", "p.tfplan")
	must(t, ap, 0, "apply")
	contains(t, ap.stdout, "apply", "Apply complete! Resources: 2 added, 0 changed, 0 destroyed.")
	if n := checkAssumed(t, rec, "", map[string]string{
		"Action": "AssumeRoleWithWebIdentity", "RoleArn": role, "RoleSessionName": "oidc-e2e", "WebIdentityToken": token,
	}); n < 2 {
		t.Errorf("%d AssumeRoleWithWebIdentity calls; want one for plan and one for apply at least", n)
	}
}
