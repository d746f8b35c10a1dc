package e2etest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/internal/backend/s3/s3test"
)

// The tests in this file run plan and apply with their state in a real S3
// server (s3test: versitygw on loopback), with the same configuration as
// the pg tests (pgConfig) but an s3 backend.

// s3Backend is the backend block for bucket on the test server (endpoint
// given, or the server's).
func s3Backend(endpoint, bucket string) string {
	return `
terraform {
  backend "s3" {
    bucket         = "` + bucket + `"
    key            = "proj/terraform.tfstate"
    region         = "us-east-1"
    endpoints      = { s3 = "` + endpoint + `" }
    use_path_style = true
    use_lockfile   = true
  }
}
`
}

// s3Dir writes pgConfig with an s3 backend on a new bucket to a new
// directory; it returns the directory, the bucket and the environment
// (the server's credentials, through the AWS SDK's default chain).
func s3Dir(t *testing.T) (string, string, []string) {
	t.Helper()
	srv := s3test.Shared(t)
	bucket := s3test.NewBucket(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), strings.Replace(pgConfig, "terraform {\n  backend \"pg\" {}\n}\n", s3Backend(srv.Endpoint, bucket), 1))
	return dir, bucket, srv.Env()
}

func s3Keys(t *testing.T, bucket string) []string {
	t.Helper()
	out, err := s3test.Shared(t).Client().ListObjectsV2(context.Background(), &s3.ListObjectsV2Input{Bucket: aws.String(bucket)})
	if err != nil {
		t.Fatal(err)
	}
	var ks []string
	for _, o := range out.Contents {
		ks = append(ks, *o.Key)
	}
	sort.Strings(ks)
	return ks
}

func s3Get(t *testing.T, bucket, key string) []byte {
	t.Helper()
	out, err := s3test.Shared(t).Client().GetObject(context.Background(), &s3.GetObjectInput{Bucket: aws.String(bucket), Key: aws.String(key)})
	if err != nil {
		t.Fatalf("GET %s: %v", key, err)
	}
	defer out.Body.Close()
	b, _ := io.ReadAll(out.Body)
	return b
}

// TestS3PlanApplyReplan: init checks the server, plan in one directory,
// apply the archive alone in another with only credentials in the
// environment, re-plan: no changes. The state is the object KEY; the
// archive records the backend without the credentials.
func TestS3PlanApplyReplan(t *testing.T) {
	t.Parallel()
	dir, bucket, env := s3Dir(t)
	r := withEnv(t, dir, "plan", env, "init", "-no-color")
	must(t, r, 0, "init")
	contains(t, r.stdout, "init", "Initializing the backend...", "refused a second conditional PUT", `Successfully configured the backend "s3"!`)
	must(t, withEnv(t, dir, "plan", env, "-no-color", "-out=p.tfplan"), 0, "plan")

	record := archiveRecord(t, filepath.Join(dir, "p.tfplan"), s3test.SecretKey, s3test.AccessKey)
	contains(t, record, "tfbackend.json", `"type": "s3"`, `"bucket": "`+bucket+`"`, `"key": "proj/terraform.tfstate"`, `"endpoints.s3": "http://127.0.0.1:`, `"use_lockfile": "true"`)

	other := t.TempDir()
	copyFile(t, filepath.Join(dir, "p.tfplan"), filepath.Join(other, "p.tfplan"))
	ap := withEnv(t, other, "apply", env, "-no-color", "p.tfplan")
	must(t, ap, 0, "apply in another directory")
	contains(t, ap.stdout, "apply", "Apply complete! Resources: 2 added, 0 changed, 0 destroyed.", `ws = "default"`)
	if exists(filepath.Join(other, "terraform.tfstate")) {
		t.Errorf("apply wrote a local state file instead of using the s3 backend")
	}
	if d := cmp.Diff([]string{"proj/terraform.tfstate"}, s3Keys(t, bucket)); d != "" {
		t.Errorf("objects after apply (-want +got):\n%s", d)
	}
	s, _ := pull(t, dir, env)
	if !s.has("terraform_data.a") || !s.has("terraform_data.b") || s.Serial < 1 {
		t.Errorf("stored state after apply: %+v", s)
	}
	must(t, withEnv(t, dir, "plan", env, "-no-color", "-detailed-exitcode"), 0, "re-plan")
	// Without credentials the apply fails, saying so.
	noCreds := withEnv(t, other, "apply", []string{"AWS_EC2_METADATA_DISABLED=true", "AWS_CONFIG_FILE=/nonexistent", "AWS_SHARED_CREDENTIALS_FILE=/nonexistent"}, "-no-color", "p.tfplan")
	must(t, noCreds, 1, "apply without credentials")
	contains(t, noCreds.stderr, "apply without credentials", "no usable AWS credentials")
}

// TestS3TwoAppliesAtOnce: two applies of plans for the same workspace
// from two directories; exactly one proceeds, the other fails naming the
// holder and the lock object; with -lock-timeout a plan waits for the
// lock and then sees the applied state.
func TestS3TwoAppliesAtOnce(t *testing.T) {
	t.Parallel()
	dir, _, env := s3Dir(t)
	dir2 := t.TempDir()
	copyFile(t, filepath.Join(dir, "main.tf"), filepath.Join(dir2, "main.tf"))
	gate := filepath.Join(t.TempDir(), "gate")
	must(t, withEnv(t, dir, "plan", env, "-no-color", "-var", "gate="+gate, "-out=one.tfplan"), 0, "plan one")
	must(t, withEnv(t, dir2, "plan", env, "-no-color", "-var", "gate="+gate, "-out=two.tfplan"), 0, "plan two")

	c1, out1, err1 := startGated(t, dir, env, "-no-color", "one.tfplan")
	c2, out2, err2 := startGated(t, dir2, env, "-no-color", "two.tfplan")
	waitFor(t, "the first apply's provisioner", func() bool { return exists(gate + ".started") })
	done := make(chan *exec.Cmd, 2)
	go func() { c1.Wait(); done <- c1 }()
	go func() { c2.Wait(); done <- c2 }()
	var loser *exec.Cmd
	select {
	case loser = <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("neither apply finished while the other held the lock")
	}
	lout, lerr := out1, err1
	if loser == c2 {
		lout, lerr = out2, err2
	}
	if loser.ProcessState.ExitCode() != 1 {
		t.Fatalf("the second apply exited %d while the first held the lock\n%s\n%s", loser.ProcessState.ExitCode(), lout, lerr)
	}
	contains(t, lerr.String(), "refused apply", "Error acquiring the state lock", "the state is locked by another process", "Operation: OperationTypeApply", "Who:", "proj/terraform.tfstate.tflock")

	waiter := command(dir, "plan", env, "-no-color", "-lock-timeout=2m", "-detailed-exitcode")
	var wout, werr bytes.Buffer
	waiter.Stdout, waiter.Stderr = &wout, &werr
	if err := waiter.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond)
	writeFile(t, gate+".release", "")
	winner := <-done
	if winner.ProcessState.ExitCode() != 0 {
		t.Fatalf("the apply holding the lock failed\n%s\n%s", out1, err1)
	}
	if err := waiter.Wait(); err != nil {
		t.Fatalf("the waiting plan failed: %v\n%s\n%s", err, wout.String(), werr.String())
	}
	contains(t, wout.String(), "waiting plan", "No changes.")
}

// TestS3KilledApply: kill -9 during an apply loses nothing that finished
// (the journal objects beside the state hold it) and leaves the lock
// object, which the next plan reports with its holder and the
// force-unlock command; after force-unlock the next plan says the state
// lacks the interrupted apply's changes and writes nothing, and the next
// apply folds the journal into the state (the instance whose provisioner
// was cut off tainted) and deletes the journal objects.
func TestS3KilledApply(t *testing.T) {
	t.Parallel()
	dir, bucket, env := s3Dir(t)
	gate := filepath.Join(t.TempDir(), "gate")
	must(t, withEnv(t, dir, "plan", env, "-no-color", "-var", "gate="+gate, "-out=p.tfplan"), 0, "plan")
	cmd, _, _ := startGated(t, dir, env, "-no-color", "p.tfplan")
	waitFor(t, "the provisioner", func() bool { return exists(gate + ".started") })
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	var journal int
	hasLock := false
	for _, k := range s3Keys(t, bucket) {
		if strings.HasPrefix(k, "proj/terraform.tfstate.plankit-journal/") {
			journal++
		}
		hasLock = hasLock || k == "proj/terraform.tfstate.tflock"
	}
	if journal == 0 || !hasLock {
		t.Fatalf("the killed apply left %d journal objects, lock object %v: %v", journal, hasLock, s3Keys(t, bucket))
	}

	p := withEnv(t, dir, "plan", env, "-no-color")
	must(t, p, 1, "plan with the dead apply's lock")
	contains(t, p.stderr, "plan with the dead apply's lock", "the state is locked by another process", "OperationTypeApply", "proj/terraform.tfstate.tflock")
	m := lockIDRe.FindStringSubmatch(p.stderr)
	if m == nil {
		t.Fatalf("no force-unlock command in:\n%s", p.stderr)
	}
	must(t, withEnv(t, dir, "plan", env, "force-unlock", "-force", m[1]), 0, "force-unlock")
	p = withEnv(t, dir, "plan", env, "-no-color")
	must(t, p, 0, "plan after force-unlock")
	all := strings.Join(strings.Fields(p.stdout+p.stderr), " ")
	for _, want := range []string{"The state file lacks the changes of an interrupted apply", "does not write them to the state",
		"- terraform_data.b", "terraform_data.b is tainted, so must be replaced"} {
		if !strings.Contains(all, want) {
			t.Errorf("the plan after the kill lacks %q:\n%s%s", want, p.stdout, p.stderr)
		}
	}
	if strings.Contains(p.stdout, "terraform_data.a will be created") {
		t.Errorf("the re-plan creates again what the killed apply created:\n%s", p.stdout)
	}
	// A plan writes nothing: the journal objects stay for the apply.
	if !slices.ContainsFunc(s3Keys(t, bucket), func(k string) bool {
		return strings.HasPrefix(k, "proj/terraform.tfstate.plankit-journal/")
	}) {
		t.Errorf("the plan removed the journal objects: %v", s3Keys(t, bucket))
	}
	// The apply folds the journal in first, saying so, then replaces the
	// tainted object; the journal objects go.
	ap := withEnv(t, dir, "apply", env, "-no-color", "-auto-approve")
	must(t, ap, 0, "apply after the kill")
	contains(t, strings.Join(strings.Fields(ap.stdout+ap.stderr), " "), "apply after the kill", "Recovered the state of an interrupted apply", "now written to the state (serial")
	s, _ := pull(t, dir, env)
	if !s.has("terraform_data.a") || !s.has("terraform_data.b") {
		t.Errorf("stored state after the recovery lacks what was done: %+v", s)
	}
	if d := cmp.Diff([]string{"proj/terraform.tfstate"}, s3Keys(t, bucket)); d != "" {
		t.Errorf("objects after the recovery (-want +got):\n%s", d)
	}
	p = withEnv(t, dir, "plan", env, "-no-color")
	must(t, p, 0, "second plan")
	if strings.Contains(p.stderr, "Interrupted apply") {
		t.Errorf("the recovery is reported twice:\n%s", p.stderr)
	}
}

// TestS3Workspaces: workspace new/list/select/delete keep each workspace's
// state at env:/NAME/KEY, as Terraform and OpenTofu do.
func TestS3Workspaces(t *testing.T) {
	t.Parallel()
	dir, bucket, env := s3Dir(t)
	must(t, withEnv(t, dir, "plan", env, "workspace", "new", "staging"), 0, "workspace new")
	ap := withEnv(t, dir, "apply", env, "-no-color", "-auto-approve")
	must(t, ap, 0, "apply in staging")
	contains(t, ap.stdout, "apply in staging", `ws = "staging"`)
	must(t, withEnv(t, dir, "plan", env, "workspace", "select", "default"), 0, "select default")
	must(t, withEnv(t, dir, "apply", env, "-no-color", "-auto-approve"), 0, "apply in default")
	l := withEnv(t, dir, "plan", env, "workspace", "list")
	must(t, l, 0, "workspace list")
	contains(t, l.stdout, "workspace list", "* default", "  staging")
	if d := cmp.Diff([]string{"env:/staging/proj/terraform.tfstate", "proj/terraform.tfstate"}, s3Keys(t, bucket)); d != "" {
		t.Errorf("objects (-want +got):\n%s", d)
	}
	var st struct {
		Outputs map[string]struct{ Value string } `json:"outputs"`
	}
	if err := json.Unmarshal(s3Get(t, bucket, "env:/staging/proj/terraform.tfstate"), &st); err != nil || st.Outputs["ws"].Value != "staging" {
		t.Errorf("staging's state object: %v %+v", err, st)
	}
	del := withEnv(t, dir, "plan", env, "workspace", "delete", "staging")
	must(t, del, 1, "delete a non-empty workspace")
	contains(t, del.stderr, "delete a non-empty workspace", "Workspace is not empty")
	must(t, withEnv(t, dir, "plan", env, "workspace", "delete", "-force", "staging"), 0, "delete -force")
	if d := cmp.Diff([]string{"proj/terraform.tfstate"}, s3Keys(t, bucket)); d != "" {
		t.Errorf("objects after delete (-want +got):\n%s", d)
	}
}

// TestS3OpenTofuBucket: a bucket as OpenTofu 1.12.6 left it (fixture
// s3-opentofu-bucket: two workspaces' states and the lock object of an
// apply in "staging"). plankit lists both workspaces, reads their states
// (no changes to make), refuses staging naming OpenTofu's lock, removes
// it with force-unlock and then writes staging's state keeping its
// lineage.
func TestS3OpenTofuBucket(t *testing.T) {
	t.Parallel()
	srv := s3test.Shared(t)
	bucket := s3test.NewBucket(t)
	env := srv.Env()
	fx := filepath.Join("..", "..", "..", "testdata", "fixtures", "s3-opentofu-bucket")
	var objects map[string]string
	data, err := os.ReadFile(filepath.Join(fx, "objects.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &objects); err != nil {
		t.Fatal(err)
	}
	for key, file := range objects {
		body, err := os.ReadFile(filepath.Join(fx, file))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := srv.Client().PutObject(context.Background(), &s3.PutObjectInput{Bucket: aws.String(bucket), Key: aws.String(key), Body: bytes.NewReader(body)}); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	copyFile(t, filepath.Join(fx, "main.tf"), filepath.Join(dir, "main.tf"))
	bc := []string{"-backend-config=bucket=" + bucket, "-backend-config=endpoint=" + srv.Endpoint}

	in := withEnv(t, dir, "plan", env, append([]string{"init", "-no-color"}, bc...)...)
	must(t, in, 0, "init with -backend-config")
	contains(t, in.stdout, "init with -backend-config", `Successfully configured the backend "s3"!`)
	l := withEnv(t, dir, "plan", env, append([]string{"workspace", "list"}, bc...)...)
	must(t, l, 0, "workspace list")
	contains(t, l.stdout, "workspace list", "* default", "  staging")
	p := withEnv(t, dir, "plan", env, append([]string{"-no-color", "-detailed-exitcode"}, bc...)...)
	must(t, p, 0, "plan on OpenTofu's default state")

	staging := append([]string{"TF_WORKSPACE=staging"}, env...)
	p = withEnv(t, dir, "plan", staging, append([]string{"-no-color"}, bc...)...)
	must(t, p, 1, "plan while OpenTofu's lock is there")
	contains(t, p.stderr, "OpenTofu's lock", "the state is locked by another process", "ID:        23d53424-bb74-772b-6f04-0c7b57cdc1a9", "Who:       root@vm", "Version:   1.12.6", "env:/staging/proj/terraform.tfstate.tflock")
	must(t, withEnv(t, dir, "plan", staging, append([]string{"force-unlock", "-force", "23d53424-bb74-772b-6f04-0c7b57cdc1a9"}, bc...)...), 0, "force-unlock OpenTofu's lock")
	ap := withEnv(t, dir, "apply", staging, append([]string{"-no-color", "-auto-approve", "-replace=terraform_data.b"}, bc...)...)
	must(t, ap, 0, "apply in staging")
	var before, after struct {
		Lineage string `json:"lineage"`
		Serial  int    `json:"serial"`
	}
	json.Unmarshal(mustRead(t, filepath.Join(fx, "staging.tfstate")), &before)
	json.Unmarshal(s3Get(t, bucket, "env:/staging/proj/terraform.tfstate"), &after)
	if after.Lineage != before.Lineage || after.Serial <= before.Serial {
		t.Errorf("staging's state after apply: lineage %q serial %d; OpenTofu's: %q %d", after.Lineage, after.Serial, before.Lineage, before.Serial)
	}
	if d := cmp.Diff([]string{"env:/staging/proj/terraform.tfstate", "proj/terraform.tfstate"}, s3Keys(t, bucket)); d != "" {
		t.Errorf("objects (-want +got):\n%s", d)
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestS3InitProbe: plan init against a server that ignores If-None-Match
// (the test server behind a proxy that drops the header and signs the
// request again) fails naming the server and use_lockfile, and nothing is
// written to the state.
func TestS3InitProbe(t *testing.T) {
	t.Parallel()
	srv := s3test.Shared(t)
	target, _ := url.Parse(srv.Endpoint)
	rp := httputil.NewSingleHostReverseProxy(target)
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-None-Match") != "" {
			r.Header.Del("If-None-Match")
			r.Header.Del("Authorization")
			creds := aws.Credentials{AccessKeyID: s3test.AccessKey, SecretAccessKey: s3test.SecretKey}
			if err := v4.NewSigner().SignHTTP(r.Context(), creds, r, r.Header.Get("X-Amz-Content-Sha256"), "s3", s3test.Region, time.Now()); err != nil {
				t.Error(err)
			}
		}
		rp.ServeHTTP(w, r)
	}))
	defer proxy.Close()
	bucket := s3test.NewBucket(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), strings.Replace(pgConfig, "terraform {\n  backend \"pg\" {}\n}\n", s3Backend(proxy.URL, bucket), 1))
	r := withEnv(t, dir, "plan", srv.Env(), "init", "-no-color")
	must(t, r, 1, "init through the proxy")
	contains(t, r.stderr, "init through the proxy", "Failed to open the state backend", "ignores If-None-Match", proxy.URL, "use_lockfile")
	r = withEnv(t, dir, "apply", srv.Env(), "-no-color", "-auto-approve")
	must(t, r, 1, "apply through the proxy")
	contains(t, r.stderr, "apply through the proxy", "ignores If-None-Match")
	if ks := s3Keys(t, bucket); len(ks) != 0 {
		t.Errorf("objects written through a server that ignores conditional writes: %v", ks)
	}
}
