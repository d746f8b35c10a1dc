package s3test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/plankit/plankit/internal/backend/internal/testserver"
)

// moto's STS checks neither signatures nor that a role exists: any key
// signs, any role ARN is assumed. These are the base credentials the role
// tests start from; they must never be the ones S3 sees.
const (
	MotoAccessKey = "AKIDPLANKITBASE00001"
	MotoSecretKey = "plankit-moto-base-secret"
)

// Moto is a running moto_server (Python's moto, `moto[server]`): STS and
// S3 (and the rest of AWS's API, in memory) on one port of 127.0.0.1, for
// the tests of assume_role and assume_role_with_web_identity. versitygw
// cannot serve them: it has no STS and refuses keys it did not issue.
type Moto struct {
	Dir      string
	Endpoint string // http://127.0.0.1:PORT
	cmd      *exec.Cmd
	done     chan struct{}
	log      *os.File
}

var sharedMoto = testserver.Shared[*Moto]{
	Start:    StartMoto,
	NoServer: ErrNoMoto,
	Skip:     "%v (moto_server comes with Python's moto[server]; .ci/run checks for it)",
	What:     "moto (STS)",
}

// ErrNoMoto is returned by StartMoto when moto_server is not on PATH.
var ErrNoMoto = errors.New("moto_server not found on PATH")

// findMoto finds moto_server on PATH, else in pyenv's shims under $HOME (a
// CI shell may start without pyenv's PATH set up).
func findMoto() (string, error) {
	if bin, err := exec.LookPath("moto_server"); err == nil {
		return bin, nil
	}
	if home, err := os.UserHomeDir(); err == nil {
		bin := filepath.Join(home, ".pyenv", "shims", "moto_server")
		if fi, err := os.Stat(bin); err == nil && fi.Mode()&0o111 != 0 {
			return bin, nil
		}
	}
	return "", ErrNoMoto
}

// SharedMoto returns the package's moto server, starting it on first use.
// A missing moto_server skips the test, or fails it when CI=true.
func SharedMoto(t testing.TB) *Moto {
	t.Helper()
	return sharedMoto.Get(t)
}

// StartMoto starts moto_server on a free loopback port and waits until it
// answers; Stop ends it.
func StartMoto() (*Moto, error) {
	bin, err := findMoto()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "s3test-moto-")
	if err != nil {
		return nil, err
	}
	var lastErr error
	for range 5 {
		port, err := freePort()
		if err != nil {
			break
		}
		m, err := startMotoOn(bin, dir, port)
		if err == nil {
			return m, nil
		}
		lastErr = err
	}
	os.RemoveAll(dir)
	return nil, lastErr
}

func startMotoOn(bin, dir string, port int) (*Moto, error) {
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	logf, err := os.Create(filepath.Join(dir, fmt.Sprintf("moto-%d.log", port)))
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "-H", "127.0.0.1", "-p", fmt.Sprint(port))
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// None of the test's AWS_* settings: moto's boto3 reads them too, and
	// an empty AWS_ACCESS_KEY_ID makes its S3 fail with 500.
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "AWS_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	if err := cmd.Start(); err != nil {
		logf.Close()
		return nil, fmt.Errorf("starting %s: %w", bin, err)
	}
	m := &Moto{Dir: dir, Endpoint: "http://" + addr, cmd: cmd, done: make(chan struct{}), log: logf}
	go func() { cmd.Wait(); close(m.done) }()
	// Python's start is slow on a loaded machine.
	if err := waitReady("moto_server", m.Endpoint+"/moto-api/", true, 60*time.Second, m.done, logf); err != nil {
		m.stopProcess()
		return nil, err
	}
	return m, nil
}

func (m *Moto) stopProcess() {
	if m.cmd.Process != nil {
		// The process group: moto_server may be a wrapper (pyenv's shim)
		// around the Python process.
		syscall.Kill(-m.cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-m.done:
		case <-time.After(10 * time.Second):
			syscall.Kill(-m.cmd.Process.Pid, syscall.SIGKILL)
			<-m.done
		}
	}
	m.log.Close()
}

// Stop stops the server and removes its directory.
func (m *Moto) Stop() {
	m.stopProcess()
	os.RemoveAll(m.Dir)
}

// NewBucket creates a fresh bucket in moto's S3 and returns its name.
func (m *Moto) NewBucket(t testing.TB) string {
	t.Helper()
	name := fmt.Sprintf("plankit-role-%d-%d", os.Getpid(), seq.Add(1))
	_, err := m.Client().CreateBucket(context.Background(), &s3.CreateBucketInput{Bucket: aws.String(name)})
	if err != nil {
		t.Fatalf("creating bucket %s in moto: %v", name, err)
	}
	return name
}

// Client returns an S3 client for moto with the base credentials.
func (m *Moto) Client() *s3.Client {
	return s3.New(s3.Options{
		Region:       Region,
		BaseEndpoint: aws.String(m.Endpoint),
		UsePathStyle: true,
		Credentials:  credentials.NewStaticCredentialsProvider(MotoAccessKey, MotoSecretKey, ""),
	})
}

// Call is one request that went through a Recorder.
type Call struct {
	Service     string // from the signature's credential scope; "sts" for an unsigned STS call
	AccessKeyID string // the key that signed it; "" when unsigned
	Method      string
	Path        string
	// Form is an STS call's parameters (Action, RoleArn, ...).
	Form url.Values
	// Returned is the AccessKeyId in an STS call's response.
	Returned string
}

// Recorder is a loopback reverse proxy in front of a server that keeps
// every request's signing key, and for STS the call's parameters and the
// key it handed out: what a test needs to prove that S3 was reached with
// the assumed role's credentials.
type Recorder struct {
	URL   string
	mu    sync.Mutex
	calls []Call
}

var (
	credentialRE  = regexp.MustCompile(`Credential=([^/,\s]+)/[^/]+/[^/]+/([^/]+)/`)
	accessKeyIDRE = regexp.MustCompile(`<AccessKeyId>([^<]+)</AccessKeyId>`)
)

// NewRecorder starts a recorder in front of target (a URL); it stops with
// the test.
func NewRecorder(t testing.TB, target string) *Recorder {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	r := &Recorder{}
	proxy := httputil.NewSingleHostReverseProxy(u)
	proxy.ModifyResponse = func(resp *http.Response) error {
		c, ok := resp.Request.Context().Value(callKey{}).(*Call)
		if !ok || c.Service != "sts" {
			return nil
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return err
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		if m := accessKeyIDRE.FindSubmatch(body); m != nil {
			r.mu.Lock()
			c.Returned = string(m[1])
			r.mu.Unlock()
		}
		return nil
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		c := &Call{Method: req.Method, Path: req.URL.Path}
		if m := credentialRE.FindStringSubmatch(req.Header.Get("Authorization")); m != nil {
			c.AccessKeyID, c.Service = m[1], m[2]
		}
		if req.Method == http.MethodPost && strings.HasPrefix(req.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
			body, err := io.ReadAll(req.Body)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			req.Body = io.NopCloser(bytes.NewReader(body))
			if form, err := url.ParseQuery(string(body)); err == nil && form.Get("Action") != "" {
				c.Form = form
				if c.Service == "" {
					c.Service = "sts"
				}
			}
		}
		r.mu.Lock()
		r.calls = append(r.calls, *c)
		i := len(r.calls) - 1
		r.mu.Unlock()
		rec := c
		proxy.ServeHTTP(w, req.WithContext(context.WithValue(req.Context(), callKey{}, rec)))
		r.mu.Lock()
		r.calls[i].Returned = rec.Returned
		r.mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	r.URL = srv.URL
	return r
}

type callKey struct{}

// Calls returns the requests so far, in order.
func (r *Recorder) Calls() []Call {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Call(nil), r.calls...)
}

// GetObject reads an object from moto's S3 with the base credentials.
func (m *Moto) GetObject(t testing.TB, bucket, key string) []byte {
	t.Helper()
	out, err := m.Client().GetObject(context.Background(), &s3.GetObjectInput{Bucket: aws.String(bucket), Key: aws.String(key)})
	if err != nil {
		t.Fatalf("GET %s from moto: %v", key, err)
	}
	defer out.Body.Close()
	data, err := io.ReadAll(out.Body)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
