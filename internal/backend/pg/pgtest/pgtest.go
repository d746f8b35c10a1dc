// Package pgtest runs a real, throwaway PostgreSQL server for tests: it
// finds the server binaries (initdb, pg_ctl: on PATH, PG_BINDIR, or
// Debian's /usr/lib/postgresql/<version>/bin), creates a cluster in a
// temporary directory listening only on a unix socket there, and removes
// it all when the package's tests end. initdb refuses to run as root, so
// as root the cluster belongs to, and the server runs as, an unprivileged
// user (postgres, which Debian's package creates, else nobody).
//
// Without the binaries the tests are skipped, except in CI (CI=true), where
// a missing server is a failure: .ci/run installs Debian's postgresql.
//
// Use it from TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(pgtest.Run(m)) }
//
// and in a test, pgtest.NewDatabase(t) returns the connection string of a
// fresh database on the shared server.
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/plankit/plankit/internal/backend/internal/testserver"
)

// Server is a running throwaway cluster.
type Server struct {
	Dir     string // the temporary directory holding everything
	Socket  string // the unix socket directory (the host in conn strings)
	binDir  string
	cred    *syscall.Credential
	dataDir string
	opts    string // server options given to pg_ctl
}

var (
	shared = testserver.Shared[*Server]{
		Start:    Start,
		NoServer: ErrNoServer,
		Skip:     "no PostgreSQL server binaries: %v (install Debian's postgresql package; .ci/run does)",
		What:     "PostgreSQL",
	}
	dbSeq atomic.Int64
)

// Run runs the package's tests and stops the shared server, if one was
// started, afterwards. It returns the exit code for os.Exit.
func Run(m *testing.M) int { return shared.Run(m) }

// Shared returns the package's server, starting it on first use. Missing
// binaries skip the test, or fail it when CI=true.
func Shared(t testing.TB) *Server {
	t.Helper()
	return shared.Get(t)
}

// NewDatabase creates a fresh database on the shared server and returns
// its connection string (key=value form, unix socket, user postgres, no
// password: the cluster trusts local connections).
func NewDatabase(t testing.TB) string {
	t.Helper()
	s := Shared(t)
	name := fmt.Sprintf("t%d_%d", os.Getpid(), dbSeq.Add(1))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := pgx.Connect(ctx, s.ConnStr("postgres"))
	if err != nil {
		t.Fatalf("connecting to the test server: %v", err)
	}
	defer c.Close(ctx)
	if _, err := c.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("creating database %s: %v", name, err)
	}
	return s.ConnStr(name)
}

// ConnStr returns the connection string of a database on the server.
func (s *Server) ConnStr(db string) string {
	return fmt.Sprintf("host=%s user=postgres dbname=%s sslmode=disable", s.Socket, db)
}

// ErrNoServer is returned by Start when the server binaries are missing.
var ErrNoServer = errors.New("initdb and pg_ctl not found")

// FindBinDir returns the directory holding initdb and pg_ctl: PG_BINDIR,
// PATH, or the newest /usr/lib/postgresql/*/bin.
func FindBinDir() (string, error) {
	if d := os.Getenv("PG_BINDIR"); d != "" {
		return d, nil
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		if _, err := exec.LookPath("pg_ctl"); err == nil {
			if r, err := filepath.EvalSymlinks(p); err == nil {
				p = r
			}
			return filepath.Dir(p), nil
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return versionOf(dirs[i]) > versionOf(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d, nil
		}
	}
	return "", ErrNoServer
}

func versionOf(binDir string) float64 {
	v, _ := strconv.ParseFloat(filepath.Base(filepath.Dir(binDir)), 64)
	return v
}

// Start creates and starts a cluster tuned for tests: no fsync, as a
// throwaway cluster needs no durability. Stop removes it.
func Start() (*Server, error) { return start(false) }

// StartDurable starts a cluster with PostgreSQL's default durability
// (fsync, synchronous commit), for benchmarks that compare with files
// written with fsync.
func StartDurable() (*Server, error) { return start(true) }

func start(durable bool) (*Server, error) {
	bin, err := FindBinDir()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "pgtest-")
	if err != nil {
		return nil, err
	}
	s := &Server{Dir: dir, Socket: filepath.Join(dir, "s"), binDir: bin, dataDir: filepath.Join(dir, "data")}
	fail := func(err error) (*Server, error) {
		os.RemoveAll(dir)
		return nil, err
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		return fail(err)
	}
	for _, d := range []string{s.Socket, s.dataDir} {
		if err := os.Mkdir(d, 0o700); err != nil {
			return fail(err)
		}
	}
	if os.Geteuid() == 0 {
		cred, err := unprivileged()
		if err != nil {
			return fail(err)
		}
		s.cred = cred
		for _, d := range []string{s.Socket, s.dataDir} {
			if err := os.Chown(d, int(cred.Uid), int(cred.Gid)); err != nil {
				return fail(err)
			}
		}
	}
	if out, err := s.run("initdb", "-D", s.dataDir, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-locale", "--no-sync"); err != nil {
		return fail(fmt.Errorf("initdb: %v\n%s", err, out))
	}
	s.opts = fmt.Sprintf("-k %s -c listen_addresses='' -c max_connections=100", s.Socket)
	if !durable {
		s.opts += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
	}
	opts := s.opts
	if out, err := s.run("pg_ctl", "-D", s.dataDir, "-l", filepath.Join(s.dataDir, "server.log"), "-o", opts, "-w", "-t", "60", "start"); err != nil {
		log, _ := os.ReadFile(filepath.Join(s.dataDir, "server.log"))
		return fail(fmt.Errorf("pg_ctl start: %v\n%s\n%s", err, out, log))
	}
	return s, nil
}

// Stop stops the server at once and removes its directory.
func (s *Server) Stop() {
	s.run("pg_ctl", "-D", s.dataDir, "-m", "immediate", "-w", "stop")
	os.RemoveAll(s.Dir)
}

// Restart stops the server (fast: open sessions are ended) and starts it
// again, for tests of lost connections.
func (s *Server) Restart() error {
	if out, err := s.run("pg_ctl", "-D", s.dataDir, "-m", "fast", "-o", s.opts, "-w", "restart"); err != nil {
		return fmt.Errorf("pg_ctl restart: %v\n%s", err, out)
	}
	return nil
}

// Pause stops the server (fast) until Resume; connections fail meanwhile.
func (s *Server) Pause() error {
	if out, err := s.run("pg_ctl", "-D", s.dataDir, "-m", "fast", "-w", "stop"); err != nil {
		return fmt.Errorf("pg_ctl stop: %v\n%s", err, out)
	}
	return nil
}

// Resume starts the server Pause stopped.
func (s *Server) Resume() error {
	if out, err := s.run("pg_ctl", "-D", s.dataDir, "-l", filepath.Join(s.dataDir, "server.log"), "-o", s.opts, "-w", "start"); err != nil {
		return fmt.Errorf("pg_ctl start: %v\n%s", err, out)
	}
	return nil
}

func (s *Server) run(name string, args ...string) ([]byte, error) {
	cmd := exec.Command(filepath.Join(s.binDir, name), args...)
	cmd.Dir = s.Dir
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	if s.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.cred}
	}
	return cmd.CombinedOutput()
}

// unprivileged returns the credentials the cluster runs under as root.
func unprivileged() (*syscall.Credential, error) {
	for _, name := range []string{"postgres", "nobody"} {
		u, err := user.Lookup(name)
		if err != nil {
			continue
		}
		uid, err1 := strconv.Atoi(u.Uid)
		gid, err2 := strconv.Atoi(u.Gid)
		if err1 != nil || err2 != nil || uid == 0 {
			continue
		}
		return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), NoSetGroups: true}, nil
	}
	return nil, fmt.Errorf("running as root, and no unprivileged user (postgres or nobody) to run the PostgreSQL test server as: %s", strings.TrimSpace("create one, e.g. useradd -r postgres"))
}
