// Package s3test runs a real, throwaway S3 server for tests: versitygw
// (github.com/versity/versitygw, open source, S3 conditional writes
// included) with its posix backend in a temporary directory, listening on
// a free port on 127.0.0.1 with static credentials. It finds versitygw on
// PATH, in VERSITYGW, or in $(go env GOBIN) or $(go env GOPATH)/bin, where
//
//	go install github.com/versity/versitygw/cmd/versitygw@v1.8.0
//
// puts it (.ci/run does so when it is missing).
//
// Without the binary the tests are skipped, except in CI (CI=true), where
// a missing server is a failure.
//
// Use it from TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(s3test.Run(m)) }
//
// and in a test, s3test.NewBucket(t) returns a fresh bucket on the shared
// server. The role tests use moto_server instead (sts.go), which serves STS
// as well.
package s3test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/plankit/plankit/internal/backend/internal/testserver"
)

// The server's credentials and region. Test-only, loopback-only.
const (
	AccessKey = "plankittestaccess"
	SecretKey = "plankittestsecret"
	Region    = "us-east-1"
)

// Version is the versitygw release the project installs.
const Version = "v1.8.0"

// Server is a running versitygw.
type Server struct {
	Dir      string // the temporary directory holding everything
	Endpoint string // http://127.0.0.1:PORT
	cmd      *exec.Cmd
	done     chan struct{}
	log      *os.File
}

var (
	shared = testserver.Shared[*Server]{
		Start:    Start,
		NoServer: ErrNoServer,
		Skip:     "%v (go install github.com/versity/versitygw/cmd/versitygw@" + Version + "; .ci/run does)",
		What:     "S3",
	}
	seq atomic.Int64
)

// Run runs the package's tests and stops the shared servers (versitygw,
// moto), if they were started, afterwards. It returns the exit code for
// os.Exit.
func Run(m *testing.M) int {
	code := shared.Run(m)
	sharedMoto.Stop()
	return code
}

// StopShared stops the shared servers if they were started: for a
// TestMain that already wraps m.Run otherwise (Run does it itself).
func StopShared() {
	shared.Stop()
	sharedMoto.Stop()
}

// Shared returns the package's server, starting it on first use. A
// missing binary skips the test, or fails it when CI=true.
func Shared(t testing.TB) *Server {
	t.Helper()
	return shared.Get(t)
}

// NewBucket creates a fresh bucket on the shared server and returns its
// name.
func NewBucket(t testing.TB) string {
	t.Helper()
	s := Shared(t)
	name := fmt.Sprintf("plankit-%d-%d", os.Getpid(), seq.Add(1))
	if err := s.CreateBucket(context.Background(), name); err != nil {
		t.Fatalf("creating bucket %s: %v", name, err)
	}
	return name
}

// Client returns an S3 client for the server.
func (s *Server) Client() *s3.Client {
	return s3.New(s3.Options{
		Region:       Region,
		BaseEndpoint: aws.String(s.Endpoint),
		UsePathStyle: true,
		Credentials:  credentials.NewStaticCredentialsProvider(AccessKey, SecretKey, ""),
	})
}

// CreateBucket creates a bucket.
func (s *Server) CreateBucket(ctx context.Context, name string) error {
	_, err := s.Client().CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String(name)})
	return err
}

// Env is the environment a plankit process needs to reach the server
// through the AWS SDK's default chain, with nothing read from the user's
// AWS files or instance metadata.
func (s *Server) Env() []string {
	return []string{
		"AWS_ACCESS_KEY_ID=" + AccessKey,
		"AWS_SECRET_ACCESS_KEY=" + SecretKey,
		"AWS_REGION=" + Region,
		"AWS_CONFIG_FILE=" + filepath.Join(s.Dir, "no-aws-config"),
		"AWS_SHARED_CREDENTIALS_FILE=" + filepath.Join(s.Dir, "no-aws-credentials"),
		"AWS_EC2_METADATA_DISABLED=true",
	}
}

// ErrNoServer is returned by Start when versitygw is not installed.
var ErrNoServer = errors.New("versitygw not found (on PATH, in $VERSITYGW, $(go env GOBIN) or $(go env GOPATH)/bin)")

// FindBinary returns versitygw's path.
func FindBinary() (string, error) {
	if p := os.Getenv("VERSITYGW"); p != "" {
		return p, nil
	}
	if p, err := exec.LookPath("versitygw"); err == nil {
		return p, nil
	}
	var dirs []string
	if out, err := exec.Command("go", "env", "GOBIN", "GOPATH").Output(); err == nil {
		lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n") // GOBIN is often an empty first line
		if len(lines) == 2 {
			if lines[0] != "" {
				dirs = append(dirs, lines[0])
			}
			for _, d := range filepath.SplitList(lines[1]) {
				dirs = append(dirs, filepath.Join(d, "bin"))
			}
		}
	}
	for _, d := range dirs {
		p := filepath.Join(d, "versitygw")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", ErrNoServer
}

// Start starts a server in a new temporary directory; Stop removes it.
func Start() (*Server, error) {
	bin, err := FindBinary()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "s3test-")
	if err != nil {
		return nil, err
	}
	data, meta := filepath.Join(dir, "data"), filepath.Join(dir, "meta")
	for _, d := range []string{data, meta} {
		if err := os.Mkdir(d, 0o700); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
	}
	// A free port: listen, note it, close; versitygw binds it next. A
	// clash with another process is retried.
	var lastErr error
	for range 5 {
		port, err := freePort()
		if err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
		s, err := startOn(bin, dir, data, meta, port)
		if err == nil {
			return s, nil
		}
		lastErr = err
	}
	os.RemoveAll(dir)
	return nil, lastErr
}

func startOn(bin, dir, data, meta string, port int) (*Server, error) {
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	logf, err := os.Create(filepath.Join(dir, fmt.Sprintf("versitygw-%d.log", port)))
	if err != nil {
		return nil, err
	}
	// Metadata in a sidecar directory: the default, extended attributes,
	// is not available on every temporary file system.
	cmd := exec.Command(bin, "--access", AccessKey, "--secret", SecretKey, "--region", Region, "--port", addr, "--quiet",
		"posix", "--sidecar", meta, data)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.Env = append(os.Environ(), "ROOT_ACCESS_KEY_ID=", "ROOT_SECRET_ACCESS_KEY=")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		logf.Close()
		return nil, fmt.Errorf("starting %s: %w", bin, err)
	}
	s := &Server{Dir: dir, Endpoint: "http://" + addr, cmd: cmd, done: make(chan struct{}), log: logf}
	go func() { cmd.Wait(); close(s.done) }()
	if err := waitReady("versitygw", s.Endpoint+"/", false, 30*time.Second, s.done, logf); err != nil {
		s.stopProcess()
		return nil, err
	}
	return s, nil
}

// waitReady polls url until it answers (with 200 OK when wantOK) and
// returns nil; it fails, with the server's log, when the process exits
// (done closes) or timeout passes. The caller stops the process.
func waitReady(name, url string, wantOK bool, timeout time.Duration, done <-chan struct{}, logf *os.File) error {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		select {
		case <-done:
			logf.Close()
			out, _ := os.ReadFile(logf.Name())
			return fmt.Errorf("%s exited at start:\n%s", name, out)
		default:
		}
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			if !wantOK || resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	out, _ := os.ReadFile(logf.Name())
	return fmt.Errorf("%s did not answer on %s within %s:\n%s", name, url, timeout, out)
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func (s *Server) stopProcess() {
	if s.cmd.Process != nil {
		s.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-s.done:
		case <-time.After(10 * time.Second):
			s.cmd.Process.Kill()
			<-s.done
		}
	}
	s.log.Close()
}

// Stop stops the server and removes its directory.
func (s *Server) Stop() {
	s.stopProcess()
	os.RemoveAll(s.Dir)
}
