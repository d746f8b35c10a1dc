package plugin

import (
	"path/filepath"
	"strings"
	"sync"

	"github.com/plankit/plankit/providers"
)

// Starting a provider process (launch, handshake, GetProviderSchema) takes
// a noticeable time, the longest for the providers with the largest
// schemas, and the operation needs the schema before it can build its
// graph. A command that knows early which providers it will need (from the
// lock file, before it has loaded the configuration and the state) can
// start them in the background with Prestart; the first Factory call for
// the same binary, provider and options then takes the process started
// early (waiting for it if it is still starting) instead of launching
// another. A process nobody takes is closed by DiscardPrestarted, and by
// CleanupClients, which every command defers: a command that fails before
// it needs its providers leaves no process behind.

// prestarted is one provider process started ahead of its Factory call.
type prestarted struct {
	launched chan struct{} // closed when inst/err are set
	done     chan struct{} // closed when the schema has been fetched too
	inst     providers.Interface
	err      error
}

// early holds the processes prestarted and not yet taken: at most one
// per key (Prestart starts no second while one waits), and the keys whose
// prestarted process was taken, so that a late Prestart (a command's
// early start from the lock file finishing after the core took the
// process its resolution prestarted) does not launch a spare nobody
// takes. DiscardPrestarted forgets both.
var early = struct {
	mu    sync.Mutex
	m     map[string]*prestarted
	taken map[string]bool
}{m: map[string]*prestarted{}, taken: map[string]bool{}}

// prestartKey identifies what a process was started as: the executable
// (absolute), the provider it serves and the options' environment. A
// process started with other options (a Stderr writer) is never
// prestarted.
func prestartKey(m Meta, opts Options) (string, bool) {
	if opts.Stderr != nil {
		return "", false
	}
	exe, err := filepath.Abs(m.Executable)
	if err != nil || m.Executable == "" {
		return "", false
	}
	return exe + "\x00" + m.Provider.String() + "\x00" + m.Version + "\x00" + strings.Join(opts.Env, "\x00"), true
}

// Prestart launches the provider m in the background and fetches its
// schema, for the next Factory(m, opts) call to take. It returns at once,
// and does nothing when a process prestarted for the same m and opts is
// still waiting to be taken or was taken already. Errors are not reported here: the Factory
// call that takes the process returns the start error, as it would have
// had it started the process itself.
func Prestart(m Meta, opts Options) {
	key, ok := prestartKey(m, opts)
	if !ok {
		return
	}
	ps := &prestarted{launched: make(chan struct{}), done: make(chan struct{})}
	early.mu.Lock()
	if early.m[key] != nil || early.taken[key] {
		early.mu.Unlock()
		return
	}
	early.m[key] = ps
	early.mu.Unlock()
	go func() {
		defer close(ps.done)
		ps.inst, ps.err = start(m, opts)
		close(ps.launched)
		if ps.err == nil {
			// Cached by the instance: the operation's GetProviderSchema
			// is answered without a call.
			ps.inst.GetProviderSchema()
		}
	}()
}

// takePrestarted returns a process Prestart started for key, waiting for
// it to be ready, or nil, false when there is none.
func takePrestarted(key string) (providers.Interface, bool, error) {
	early.mu.Lock()
	ps := early.m[key]
	if ps != nil {
		delete(early.m, key)
		early.taken[key] = true
	}
	early.mu.Unlock()
	if ps == nil {
		return nil, false, nil
	}
	<-ps.done
	return ps.inst, true, ps.err
}

// DiscardPrestarted closes every process Prestart started that no Factory
// call took, waiting for those still launching (not for their schemas: a
// schema request in flight fails when its process is closed, so the
// second Ctrl-C's CleanupClients is not held up by a large schema). Safe
// to call at any time; later Factory calls start processes of their own.
func DiscardPrestarted() {
	early.mu.Lock()
	m := early.m
	early.m, early.taken = map[string]*prestarted{}, map[string]bool{}
	early.mu.Unlock()
	for _, ps := range m {
		<-ps.launched
		if ps.inst != nil {
			_ = ps.inst.Close()
		}
	}
}

// PrestartedPending is the number of prestarted processes not yet taken
// (tests).
func PrestartedPending() int {
	early.mu.Lock()
	defer early.mu.Unlock()
	return len(early.m)
}
