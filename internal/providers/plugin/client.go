package plugin

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"
	"github.com/hashicorp/hcl/v2"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/tfdiags"
)

// Meta identifies one installed provider binary.
type Meta struct {
	Provider addrs.Provider
	// Version is the provider version (from the installation layout);
	// informational.
	Version string
	// Executable is the path of the binary.
	Executable string
}

// Options tune how provider processes run.
type Options struct {
	// Stderr receives the provider's raw stderr. Nil discards it, unless
	// TF_LOG or TF_LOG_PROVIDER is set: then it is logged to os.Stderr.
	Stderr io.Writer
	// Env is added to plankit's environment for the provider process
	// (later entries win).
	Env []string
}

// handshake is Terraform's go-plugin handshake: a provider binary refuses
// to run unless the magic cookie is set, and the protocol version is
// negotiated among VersionedPlugins.
var handshake = goplugin.HandshakeConfig{
	MagicCookieKey:   "TF_PLUGIN_MAGIC_COOKIE",
	MagicCookieValue: "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2",
}

// maxMessageSize bounds gRPC messages both ways; large schemas (the AWS
// provider's is tens of MiB) and states need far more than gRPC's 4 MiB.
const maxMessageSize = 256 << 20

// flowWindow is the gRPC flow-control window, per call and per
// connection, that plankit grants a provider (see clientConfig).
const flowWindow = 16 << 20

// Grace periods: how long Close waits for StopProvider before killing, and
// how long a failed call waits for a crashing process to exit (so its
// stderr is complete).
const (
	stopTimeout  = 5 * time.Second
	crashTimeout = 3 * time.Second
)

// Factory returns a providers.Factory that starts the binary m.Executable
// on each call and returns a providers.Interface speaking the negotiated
// protocol version to it.
func Factory(m Meta, opts Options) providers.Factory {
	return func() (providers.Interface, error) {
		if key, ok := prestartKey(m, opts); ok {
			if inst, ok, err := takePrestarted(key); ok {
				return inst, err
			}
		}
		return start(m, opts)
	}
}

// CleanupClients stops and kills every provider process still running.
// Safe to call more than once and concurrently with Close.
func CleanupClients() {
	// Prestarted processes nobody took: wait for those still starting,
	// so that none is left running.
	DiscardPrestarted()
	// Wait for launches in flight, so none escapes the cleanup.
	starting.Lock()
	defer starting.Unlock()
	live.mu.Lock()
	procs := make([]*process, 0, len(live.m))
	for p := range live.m {
		procs = append(procs, p)
	}
	live.mu.Unlock()
	var wg sync.WaitGroup
	for _, p := range procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.close()
		}()
	}
	wg.Wait()
}

// started counts the provider processes launched (tests and benchmarks
// check that one process serves a whole run).
var started atomic.Int64

// starting is held (shared) by every launch until its process is in live.
var starting sync.RWMutex

// live is every process started and not yet closed.
var live = struct {
	mu sync.Mutex
	m  map[*process]struct{}
}{m: map[*process]struct{}{}}

// process is one running provider binary.
type process struct {
	meta   Meta
	client *goplugin.Client
	pid    int
	stderr *tailBuffer
	// tls is the connection's TLS configuration (clientTLS); go-plugin
	// sets its RootCAs to the provider's certificate.
	tls *tls.Config
	// stop sends StopProvider (set by the protocol translation).
	stop func(ctx context.Context) error

	closeOnce sync.Once
	closing   atomic.Bool   // set when close starts: calls failing now were cut short
	done      chan struct{} // closed by close; releases the start thread
}

// start launches one provider process and returns the translation for
// the protocol version it negotiated.
func start(m Meta, opts Options) (providers.Interface, error) {
	if m.Executable == "" {
		return nil, fmt.Errorf("provider %s: no executable", m.Provider)
	}
	exe, err := filepath.Abs(m.Executable)
	if err != nil {
		return nil, err
	}
	tail := newTailBuffer(64 << 10)
	cfg, err := clientConfig(m, exe, opts, tail)
	if err != nil {
		return nil, err
	}

	starting.RLock()
	defer starting.RUnlock()
	p := &process{meta: m, stderr: tail, tls: cfg.TLSConfig, done: make(chan struct{})}
	p.client = goplugin.NewClient(cfg)
	raw, err := p.launch(cfg.Cmd)
	if err != nil {
		return nil, p.startError(err)
	}
	live.mu.Lock()
	live.m[p] = struct{}{}
	live.mu.Unlock()
	started.Add(1)
	return p.translation(raw)
}

// clientConfig is go-plugin's configuration for running exe: the
// command with its environment, logging and stderr, and mutual TLS.
func clientConfig(m Meta, exe string, opts Options, tail *tailBuffer) (*goplugin.ClientConfig, error) {
	var rawOut io.Writer = tail
	if opts.Stderr != nil {
		rawOut = io.MultiWriter(tail, opts.Stderr)
	}
	logger := hclog.New(&hclog.LoggerOptions{
		Name:   "plugin",
		Level:  logLevel(opts),
		Output: logOutput(opts),
	})
	if opts.Stderr != nil {
		logger.SetLevel(hclog.Off)
	}

	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), opts.Env...)
	if logger.GetLevel() == hclog.Off && opts.Stderr == nil {
		cmd.Env = quietProviderLogs(cmd.Env)
	}
	setProcAttr(cmd)
	warmP521()
	tlsConfig, certPEM, err := clientTLS()
	if err != nil {
		return nil, fmt.Errorf("provider %s: %w", m.Provider, err)
	}
	cmd.Env = append(cmd.Env, "PLUGIN_CLIENT_CERT="+string(certPEM))

	return &goplugin.ClientConfig{
		Cmd:             cmd,
		HandshakeConfig: handshake,
		VersionedPlugins: map[int]goplugin.PluginSet{
			5: {"provider": grpcPlugin5{}},
			6: {"provider": grpcPlugin6{}},
		},
		AllowedProtocols: []goplugin.Protocol{goplugin.ProtocolGRPC},
		// Mutual TLS as AutoMTLS does it, with a cheaper key (clientTLS).
		TLSConfig:   tlsConfig,
		SkipHostEnv: true,
		Logger:      logger,
		Stderr:      rawOut,
		SyncStdout:  io.Discard,
		SyncStderr:  rawOut,
		GRPCDialOptions: []grpc.DialOption{
			grpc.WithDefaultCallOptions(
				grpc.MaxCallRecvMsgSize(maxMessageSize),
				grpc.MaxCallSendMsgSize(maxMessageSize),
			),
			// A provider is a local process on a Unix socket: nothing
			// to retry, and retry support would keep a copy of every
			// request until its response arrives.
			grpc.WithDisableRetry(),
			// Fixed flow-control windows: grpc-go's default estimates
			// the bandwidth-delay product with a PING on the first DATA
			// frame of each burst, which on a chain of sequential calls
			// is one extra PING and PING ACK (frames, syscalls and
			// wake-ups on both sides) per call. A local socket has no
			// delay to estimate; these are the estimator's own ceiling.
			grpc.WithStaticStreamWindowSize(flowWindow),
			grpc.WithStaticConnWindowSize(flowWindow),
		},
	}, nil
}

// launch starts cmd through p.client, completes the handshake and returns
// the dispensed protocol client. On failure the process is gone.
//
// Pdeathsig fires when the thread that started the child exits, not the
// process; start from a locked thread that stays alive (parked on done)
// for as long as the process does.
func (p *process) launch(cmd *exec.Cmd) (any, error) {
	type result struct {
		raw any
		err error
	}
	res := make(chan result, 1)
	go func() {
		lockThread()
		defer unlockThread()
		rpc, err := p.client.Client()
		if err != nil {
			res <- result{err: err}
			return
		}
		raw, err := rpc.Dispense("provider")
		res <- result{raw: raw, err: err}
		<-p.done
	}()
	r := <-res
	if cmd.Process != nil {
		p.pid = cmd.Process.Pid
	}
	if r.err != nil {
		p.client.Kill()
		killGroup(p.pid)
		close(p.done)
		return nil, r.err
	}
	return r.raw, nil
}

// translation returns the provider for the protocol version p negotiated,
// raw being the dispensed client.
func (p *process) translation(raw any) (providers.Interface, error) {
	switch v := p.client.NegotiatedVersion(); v {
	case 5:
		return newProvider5(raw, p), nil
	case 6:
		return newProvider6(raw, p), nil
	default:
		p.close()
		return nil, fmt.Errorf("provider %s negotiated unsupported plugin protocol version %d", p.meta.Provider, v)
	}
}

// startError explains a failed launch, quoting what the binary printed.
func (p *process) startError(err error) error {
	msg := fmt.Sprintf("failed to start provider %s (%s): %v", p.meta.Provider, p.meta.Executable, err)
	if out := strings.TrimSpace(p.stderr.String()); out != "" {
		msg += "\n\nIts output ended with:\n" + indent(lastLines(out, 30))
	}
	if strings.Contains(err.Error(), "Incompatible API version") {
		msg += "\n\nplankit supports plugin protocol versions 5 and 6; this provider offers neither."
	}
	return errors.New(msg)
}

// close sends StopProvider (bounded by stopTimeout), asks go-plugin to
// shut the process down (it kills after its own grace period), kills the
// process group for good measure and forgets the process.
func (p *process) close() {
	p.closeOnce.Do(func() {
		p.closing.Store(true)
		if p.stop != nil && !p.client.Exited() {
			ctx, cancel := context.WithTimeout(context.Background(), stopTimeout)
			_ = p.stop(ctx)
			cancel()
		}
		p.client.Kill()
		killGroup(p.pid)
		live.mu.Lock()
		delete(live.m, p)
		live.mu.Unlock()
		close(p.done)
	})
}

// callError turns a failed RPC into diagnostics. A process that exited
// (crashed) gets an error naming the provider and quoting its last output,
// the panic included.
func (p *process) callError(method string, err error) hcl.Diagnostics {
	deadline := time.Now().Add(crashTimeout)
	for !p.client.Exited() && time.Now().Before(deadline) && status.Code(err) == codes.Unavailable {
		time.Sleep(10 * time.Millisecond)
	}
	if p.closing.Load() {
		return hcl.Diagnostics{tfdiags.Errorf("Provider stopped",
			"The provider %s was stopped before %s finished (plankit was interrupted or is shutting down).", p.meta.Provider, method)}
	}
	if p.client.Exited() {
		out := crashOutput(p.stderr.String())
		detail := fmt.Sprintf("The provider %s exited unexpectedly during %s. This is a bug in the provider; report it to the provider's maintainers.", p.meta.Provider, method)
		if out != "" {
			detail += "\n\nIts output ended with:\n" + indent(out)
		}
		return hcl.Diagnostics{tfdiags.Error("Provider crashed", detail)}
	}
	if status.Code(err) == codes.Unimplemented {
		return hcl.Diagnostics{tfdiags.Errorf("Unsupported provider operation",
			"The provider %s does not implement %s; it may be too old for this configuration.", p.meta.Provider, method)}
	}
	return hcl.Diagnostics{tfdiags.Errorf("Provider call failed",
		"Calling %s on provider %s failed: %v", method, p.meta.Provider, err)}
}

// logOutput is where provider logs go with TF_LOG: the file TF_LOG_PATH
// names (appended to, as Terraform does), else plankit's stderr.
func logOutput(opts Options) io.Writer {
	path := envValue(opts, "TF_LOG_PATH")
	if path == "" {
		return os.Stderr
	}
	logFiles.mu.Lock()
	defer logFiles.mu.Unlock()
	if f, ok := logFiles.m[path]; ok {
		return f
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o666)
	if err != nil {
		fmt.Fprintf(os.Stderr, "plankit: cannot open TF_LOG_PATH %s: %v; provider logs go to stderr\n", path, err)
		return os.Stderr
	}
	logFiles.m[path] = f
	return f
}

// logFiles are the TF_LOG_PATH files opened, kept open for the process.
var logFiles = struct {
	mu sync.Mutex
	m  map[string]*os.File
}{m: map[string]*os.File{}}

// envValue reads k from opts.Env (last entry wins), else the environment.
func envValue(opts Options, k string) string {
	for i := len(opts.Env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(opts.Env[i], k+"="); ok {
			return v
		}
	}
	return os.Getenv(k)
}

// logLevel is the go-plugin log level: from TF_LOG_PROVIDER, else TF_LOG
// (in opts.Env first, then the environment); Off when neither is set.
func logLevel(opts Options) hclog.Level {
	v := envValue(opts, "TF_LOG_PROVIDER")
	if v == "" {
		v = envValue(opts, "TF_LOG")
	}
	switch strings.ToUpper(strings.TrimSpace(v)) {
	case "":
		return hclog.Off
	case "JSON", "TRACE":
		return hclog.Trace
	default:
		if l := hclog.LevelFromString(v); l != hclog.NoLevel {
			return l
		}
		return hclog.Trace
	}
}

// providerLogLevels are the variables with which providers built on
// terraform-plugin-go, -framework and -sdk choose their log levels; unset,
// they log every request at TRACE to stderr (several KiB per call), which
// is the largest cost of a call. When nobody will read those logs (no
// TF_LOG, no Options.Stderr), quietProviderLogs turns them off, except
// the ones the user set. Panics and other stderr output are unaffected.
var providerLogLevels = []string{
	"TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK",
	"TF_LOG_SDK_HELPER_SCHEMA", "TF_LOG_SDK_HELPER_RESOURCE", "TF_LOG_PROVIDER",
}

func quietProviderLogs(env []string) []string {
	set := map[string]bool{}
	for _, kv := range env {
		if k, _, ok := strings.Cut(kv, "="); ok {
			set[k] = true
		}
	}
	for _, k := range providerLogLevels {
		if !set[k] {
			env = append(env, k+"=off")
		}
	}
	return env
}
