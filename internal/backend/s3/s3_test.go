package s3

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/backend/s3/s3test"
	"github.com/plankit/plankit/internal/states/statemgr"
	"github.com/plankit/plankit/states"
)

func TestMain(m *testing.M) { os.Exit(s3test.Run(m)) }

func testConfig(t *testing.T) Config {
	t.Helper()
	srv := s3test.Shared(t)
	return Config{
		Bucket: s3test.NewBucket(t), Key: "proj/terraform.tfstate", Region: s3test.Region,
		Endpoint: srv.Endpoint, UsePathStyle: true, UseLockfile: true,
		AccessKey: s3test.AccessKey, SecretKey: s3test.SecretKey,
		SkipMetadataAPICheck: true,
	}
}

func openBackend(t *testing.T, cfg Config) *Backend {
	t.Helper()
	b, err := New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

func keys(t *testing.T, bucket string) []string {
	t.Helper()
	out, err := s3test.Shared(t).Client().ListObjectsV2(context.Background(), &s3.ListObjectsV2Input{Bucket: aws.String(bucket)})
	if err != nil {
		t.Fatal(err)
	}
	var ks []string
	for _, o := range out.Contents {
		ks = append(ks, *o.Key)
	}
	return ks
}

func getObject(t *testing.T, bucket, key string) []byte {
	t.Helper()
	out, err := s3test.Shared(t).Client().GetObject(context.Background(), &s3.GetObjectInput{Bucket: aws.String(bucket), Key: aws.String(key)})
	if err != nil {
		t.Fatalf("GET %s: %v", key, err)
	}
	defer out.Body.Close()
	data, _ := io.ReadAll(out.Body)
	return data
}

func putObject(t *testing.T, bucket, key string, data []byte) {
	t.Helper()
	_, err := s3test.Shared(t).Client().PutObject(context.Background(), &s3.PutObjectInput{Bucket: aws.String(bucket), Key: aws.String(key), Body: bytes.NewReader(data)})
	if err != nil {
		t.Fatalf("PUT %s: %v", key, err)
	}
}

func instAddr(name string) addrs.AbsResourceInstance {
	return addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "null_resource", Name: name}.Instance(addrs.NoKey).Absolute(nil)
}

func stateWith(name string) *states.State {
	s := states.NewState()
	s.SetResourceInstanceCurrent(instAddr(name),
		&states.ResourceInstanceObjectSrc{Status: states.ObjectReady, AttrsJSON: []byte(`{"id":"1"}`)},
		addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("null")})
	return s
}

// The server the tests use refuses a second conditional PUT: the premise
// of every lock test below.
func TestServerRefusesSecondConditionalPut(t *testing.T) {
	cfg := testConfig(t)
	c := s3test.Shared(t).Client()
	put := func() error {
		_, err := c.PutObject(context.Background(), &s3.PutObjectInput{Bucket: aws.String(cfg.Bucket), Key: aws.String("x"), Body: strings.NewReader("x"), IfNoneMatch: aws.String("*")})
		return err
	}
	if err := put(); err != nil {
		t.Fatalf("first conditional PUT: %v", err)
	}
	if err := put(); !isPreconditionFailed(err) {
		t.Fatalf("second conditional PUT: got %v, want 412 Precondition Failed", err)
	}
}

func TestLayoutAndWorkspaces(t *testing.T) {
	cfg := testConfig(t)
	b := openBackend(t, cfg)
	ctx := context.Background()
	def, err := b.StateMgr(ctx, "default")
	if err != nil {
		t.Fatal(err)
	}
	if err := def.WriteState(stateWith("a")); err != nil {
		t.Fatal(err)
	}
	if err := def.PersistState(); err != nil {
		t.Fatal(err)
	}
	if _, err := b.StateMgr(ctx, "prod"); err != nil {
		t.Fatal(err)
	}
	// An object OpenTofu would not list as a workspace either.
	putObject(t, cfg.Bucket, "env:/other/different.tfstate", []byte("{}"))

	got := keys(t, cfg.Bucket)
	want := []string{"env:/other/different.tfstate", "env:/prod/proj/terraform.tfstate", "proj/terraform.tfstate"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("objects (-want +got):\n%s", d)
	}
	ws, err := b.Workspaces(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"default", "prod"}, ws); d != "" {
		t.Errorf("workspaces (-want +got):\n%s", d)
	}
	var doc map[string]any
	if err := json.Unmarshal(getObject(t, cfg.Bucket, "proj/terraform.tfstate"), &doc); err != nil {
		t.Fatal(err)
	}
	if doc["version"] != float64(4) || doc["serial"] != float64(1) || doc["lineage"] == "" {
		t.Errorf("state object: %v", doc)
	}
	if err := b.DeleteWorkspace(ctx, "prod"); err != nil {
		t.Fatal(err)
	}
	ws, _ = b.Workspaces(ctx)
	if d := cmp.Diff([]string{"default"}, ws); d != "" {
		t.Errorf("workspaces after delete (-want +got):\n%s", d)
	}

	// A custom prefix, and the empty one (NAME/KEY).
	for _, prefix := range []string{"states", ""} {
		cfg2 := cfg
		cfg2.Key = "k.tfstate"
		cfg2.WorkspaceKeyPrefix = &prefix
		b2 := openBackend(t, cfg2)
		if _, err := b2.StateMgr(ctx, "dev"); err != nil {
			t.Fatal(err)
		}
		want := "states/dev/k.tfstate"
		if prefix == "" {
			want = "dev/k.tfstate"
		}
		getObject(t, cfg.Bucket, want)
		ws, _ := b2.Workspaces(ctx)
		if d := cmp.Diff([]string{"default", "dev"}, ws); d != "" {
			t.Errorf("prefix %q: workspaces (-want +got):\n%s", prefix, d)
		}
	}
}

func TestLockObject(t *testing.T) {
	cfg := testConfig(t)
	b := openBackend(t, cfg)
	ctx := context.Background()
	m1, _ := b.stateMgr(ctx, "default")
	m2, _ := b.stateMgr(ctx, "default")
	info := statemgr.NewLockInfo()
	info.Operation = "apply"
	id, err := m1.Lock(info)
	if err != nil {
		t.Fatal(err)
	}
	var li map[string]any
	if err := json.Unmarshal(getObject(t, cfg.Bucket, "proj/terraform.tfstate.tflock"), &li); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"ID", "Operation", "Info", "Who", "Version", "Created", "Path"} {
		if _, ok := li[k]; !ok {
			t.Errorf("lock info has no %s: %v", k, li)
		}
	}
	if li["ID"] != id || li["Path"] != cfg.Bucket+"/proj/terraform.tfstate" {
		t.Errorf("lock info: %v", li)
	}

	_, err = m2.Lock(statemgr.NewLockInfo())
	var le *LockError
	if !errors.Is(err, statemgr.ErrLocked) || !errors.As(err, &le) || le.Info == nil || le.Info.ID != id {
		t.Fatalf("second lock: %v", err)
	}
	if !strings.Contains(err.Error(), "plan force-unlock -force "+id) || !strings.Contains(err.Error(), info.Who) {
		t.Errorf("the refusal names neither the holder nor force-unlock:\n%s", err)
	}
	if err := m2.Unlock("wrong"); !errors.Is(err, statemgr.ErrLockIDMismatch) {
		t.Errorf("force-unlock with a wrong ID: %v", err)
	}
	// force-unlock from another manager (another process).
	if err := m2.Unlock(id); err != nil {
		t.Fatal(err)
	}
	if _, err := m2.Lock(statemgr.NewLockInfo()); err != nil {
		t.Fatalf("lock after force-unlock: %v", err)
	}
	if err := m2.Close(); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string(nil), keys(t, cfg.Bucket)); d != "" {
		t.Errorf("objects left after unlock (-want +got):\n%s", d)
	}
}

// Many lockers at once: exactly one wins each round.
func TestLockExcludes(t *testing.T) {
	cfg := testConfig(t)
	b := openBackend(t, cfg)
	ctx := context.Background()
	var wg sync.WaitGroup
	var won atomic.Int32
	for range 8 {
		m, err := b.stateMgr(ctx, "default")
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := m.Lock(statemgr.NewLockInfo()); err == nil {
				won.Add(1)
			} else if !errors.Is(err, statemgr.ErrLocked) {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if won.Load() != 1 {
		t.Fatalf("%d lockers won, want 1", won.Load())
	}
}

// A server that ignores If-None-Match (versitygw behind a proxy that drops
// the header) is refused at New, naming the endpoint and use_lockfile.
func TestProbeRefusesServerIgnoringIfNoneMatch(t *testing.T) {
	cfg := testConfig(t)
	target, _ := url.Parse(cfg.Endpoint)
	rp := httputil.NewSingleHostReverseProxy(target)
	dropped := atomic.Int32{}
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-None-Match") != "" {
			dropped.Add(1)
			resign(t, r, func(h http.Header) { h.Del("If-None-Match") })
		}
		rp.ServeHTTP(w, r)
	}))
	defer proxy.Close()
	cfg.Endpoint = proxy.URL
	_, err := New(context.Background(), cfg)
	if !errors.Is(err, ErrConditionalWritesIgnored) {
		t.Fatalf("New through a proxy dropping If-None-Match: %v", err)
	}
	for _, want := range []string{proxy.URL, "use_lockfile", "If-None-Match"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not name %q:\n%s", want, err)
		}
	}
	if dropped.Load() != 2 {
		t.Errorf("the proxy dropped %d If-None-Match headers, want the probe's 2", dropped.Load())
	}
	if ks := keys(t, cfg.Bucket); len(ks) != 0 {
		t.Errorf("the probe left objects: %v", ks)
	}
	// Without use_lockfile nothing is probed (nor locked).
	cfg.UseLockfile = false
	if _, err := New(context.Background(), cfg); err != nil {
		t.Fatalf("without use_lockfile: %v", err)
	}
}

// resign changes r's headers with edit and signs it again with the test
// server's credentials (the SDK's signer), as a server that ignores a
// header would see it: a header dropped on the way breaks the signature.
func resign(t *testing.T, r *http.Request, edit func(http.Header)) {
	edit(r.Header)
	r.Header.Del("Authorization")
	payload := r.Header.Get("X-Amz-Content-Sha256")
	creds := aws.Credentials{AccessKeyID: s3test.AccessKey, SecretAccessKey: s3test.SecretKey}
	if err := v4.NewSigner().SignHTTP(r.Context(), creds, r, payload, "s3", s3test.Region, time.Now()); err != nil {
		t.Error(err)
	}
}

func TestJournalReplay(t *testing.T) {
	cfg := testConfig(t)
	b := openBackend(t, cfg)
	ctx := context.Background()
	m, _ := b.stateMgr(ctx, "default")
	m.WriteState(stateWith("a"))
	if err := m.PersistState(); err != nil {
		t.Fatal(err)
	}
	j, _ := m.Journal()
	after := stateWith("b")
	addr := instAddr("b")
	rec, err := statemgr.EncodeSet(after, addr)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range [][]byte{statemgr.EncodeBegin(addr, "create"), rec} {
		if err := j.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	if mk, _ := j.Checkpoint(); mk != 2 {
		t.Errorf("checkpoint %d, want 2", mk)
	}
	// A new manager (the next run) replays the records.
	m2, _ := b.stateMgr(ctx, "default")
	if err := m2.RefreshState(); err != nil {
		t.Fatal(err)
	}
	r := m2.Recovery()
	if r == nil || r.Records != 2 {
		t.Fatalf("recovery: %+v", r)
	}
	if m2.State().ResourceInstance(addr) == nil {
		t.Fatal("the replayed state lacks null_resource.b")
	}
	if err := m2.PersistState(); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"proj/terraform.tfstate"}, keys(t, cfg.Bucket)); d != "" {
		t.Errorf("objects after the recovered state was written (-want +got):\n%s", d)
	}
}

func TestConfigValidate(t *testing.T) {
	empty := ""
	slash := "a/"
	tests := []struct {
		name string
		cfg  Config
		want string
	}{
		{"no bucket", Config{Key: "k"}, "needs a bucket"},
		{"no key", Config{Bucket: "b"}, "needs a key"},
		{"key slash", Config{Bucket: "b", Key: "/k"}, "must not begin or end"},
		{"prefix slash", Config{Bucket: "b", Key: "k", WorkspaceKeyPrefix: &slash}, "workspace_key_prefix"},
		{"kms and sse-c", Config{Bucket: "b", Key: "k", KMSKeyID: "x", SSECustomerKey: "eA=="}, "cannot both"},
		{"bad sse-c", Config{Bucket: "b", Key: "k", SSECustomerKey: "c2VjcmV0"}, "256-bit"},
		{"half keys", Config{Bucket: "b", Key: "k", AccessKey: "a"}, "together"},
		{"region", Config{Bucket: "b", Key: "k", Region: "garage"}, "skip_region_validation"},
		{"ok", Config{Bucket: "b", Key: "k", Region: "garage", SkipRegionValidation: true, WorkspaceKeyPrefix: &empty}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.cfg.Validate()
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want an error containing %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "c2VjcmV0") {
				t.Errorf("the error shows the key: %v", err)
			}
		})
	}
}

// skip_s3_checksum: uploads carry no checksum header; by default they
// carry a SHA-256 in a header (no aws-chunked trailer).
func TestChecksumSetting(t *testing.T) {
	for _, skip := range []bool{false, true} {
		cfg := testConfig(t)
		cfg.SkipS3Checksum = skip
		var mu sync.Mutex
		var seen []http.Header
		target, _ := url.Parse(cfg.Endpoint)
		rp := httputil.NewSingleHostReverseProxy(target)
		proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPut {
				mu.Lock()
				seen = append(seen, r.Header.Clone())
				mu.Unlock()
			}
			rp.ServeHTTP(w, r)
		}))
		cfg.Endpoint = proxy.URL
		b := openBackend(t, cfg)
		m, _ := b.stateMgr(context.Background(), "default")
		m.WriteState(stateWith("a"))
		if err := m.PersistState(); err != nil {
			t.Fatal(err)
		}
		proxy.Close()
		for _, h := range seen {
			has := h.Get("X-Amz-Checksum-Sha256") != "" || h.Get("X-Amz-Sdk-Checksum-Algorithm") != "" || h.Get("X-Amz-Trailer") != ""
			if has == skip {
				t.Errorf("skip_s3_checksum=%v: PUT headers %v", skip, h)
			}
			if strings.Contains(h.Get("Content-Encoding"), "aws-chunked") {
				t.Errorf("skip_s3_checksum=%v: aws-chunked upload", skip)
			}
		}
		if len(seen) == 0 {
			t.Fatal("no PUT seen")
		}
	}
}

func TestLockWithTimeoutWaits(t *testing.T) {
	cfg := testConfig(t)
	b := openBackend(t, cfg)
	ctx := context.Background()
	m1, _ := b.stateMgr(ctx, "default")
	m2, _ := b.stateMgr(ctx, "default")
	id, err := m1.Lock(nil)
	if err != nil {
		t.Fatal(err)
	}
	go func() { time.Sleep(300 * time.Millisecond); m1.Unlock(id) }()
	if _, err := m2.LockWithTimeout(ctx, nil, 10*time.Second); err != nil {
		t.Fatalf("waiting for the lock: %v", err)
	}
}

// TestJournalFoldTakesSerial: writing a state rebuilt from a journal
// takes the next serial even when the journal only repeats the stored
// state (an operation begun, nothing finished), as for the local file and
// pg: a plan saved from the recovered state records that serial.
func TestJournalFoldTakesSerial(t *testing.T) {
	cfg := testConfig(t)
	b := openBackend(t, cfg)
	ctx := context.Background()
	m, _ := b.stateMgr(ctx, "default")
	m.WriteState(stateWith("a"))
	if err := m.PersistState(); err != nil {
		t.Fatal(err)
	}
	before := m.StateFile().Serial
	j, _ := m.Journal()
	if err := j.Append(statemgr.EncodeBegin(instAddr("b"), "create")); err != nil {
		t.Fatal(err)
	}
	m2, _ := b.stateMgr(ctx, "default")
	if err := m2.RefreshState(); err != nil {
		t.Fatal(err)
	}
	if m2.Recovery() == nil {
		t.Fatal("nothing recovered from the journal")
	}
	if err := m2.PersistState(); err != nil {
		t.Fatal(err)
	}
	m3, _ := b.stateMgr(ctx, "default")
	if err := m3.RefreshState(); err != nil {
		t.Fatal(err)
	}
	if got := m3.StateFile().Serial; got != before+1 {
		t.Errorf("serial after the fold %d, want %d", got, before+1)
	}
}
