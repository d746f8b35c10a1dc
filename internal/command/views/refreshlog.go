package views

import (
	"fmt"
	"io"
	"sync"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/terraform"
	"github.com/plankit/plankit/plans"
)

// refreshLog prints "ADDR: Refreshing state... [id=ID]" for each managed
// resource instance refreshed during plan, as Terraform does when the
// output is not a terminal (on a terminal a single progress line counts
// them instead; see progressHook). Lines come in the order the parallel
// walk refreshes the instances. Its mutex orders the workers' writes.
//
// With -json it emits Terraform's refresh_start and refresh_complete
// messages instead.
type RefreshLog struct {
	terraform.NilHook
	mu   sync.Mutex
	w    io.Writer
	json *JSONView // -json: messages instead of lines

	// readsOnce makes reads, which reports the data sources read during
	// plan as apply reports operations: "data.X: Reading...", "Still
	// reading...", "Read complete after 1s [id=...]", as Terraform does.
	readsOnce sync.Once
	reads     *ApplyHook
}

func (h *RefreshLog) readHook() *ApplyHook {
	h.readsOnce.Do(func() {
		var jv *JSONView
		if h.json != nil {
			jv = &JSONView{W: lockedWriter{&h.mu, h.json.W}, Now: h.json.Now}
		}
		h.reads = NewApplyHook(lockedWriter{&h.mu, h.w}, jv)
	})
	return h.reads
}

// PreApply reports the start of a data source read; the core reads data
// sources during plan and reports them as an apply of action Read.
func (h *RefreshLog) PreApply(addr addrs.AbsResourceInstance, dk addrs.DeposedKey, action plans.Action, prior, planned cty.Value) (terraform.HookAction, error) {
	if action != plans.Read {
		return terraform.HookActionContinue, nil
	}
	return h.readHook().PreApply(addr, dk, action, prior, planned)
}

// PostApply reports the end of a data source read.
func (h *RefreshLog) PostApply(addr addrs.AbsResourceInstance, dk addrs.DeposedKey, nv cty.Value, err error) (terraform.HookAction, error) {
	if addr.Resource.Resource.Mode != addrs.DataResourceMode {
		return terraform.HookActionContinue, nil
	}
	return h.readHook().PostApply(addr, dk, nv, err)
}

// lockedWriter writes under mu, so the read lines and the refresh lines,
// written by different hooks, never interleave.
type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

var _ terraform.Hook = (*RefreshLog)(nil)

// NewRefreshLog writes the refresh lines to w, or, when json is set, its
// -json messages instead.
func NewRefreshLog(w io.Writer, json *JSONView) *RefreshLog { return &RefreshLog{w: w, json: json} }

// PreRefresh prints the line for a current object (deposed objects are
// refreshed silently, as in Terraform).
func (h *RefreshLog) PreRefresh(addr addrs.AbsResourceInstance, dk addrs.DeposedKey, prior cty.Value) (terraform.HookAction, error) {
	if dk != addrs.NotDeposed || addr.Resource.Resource.Mode != addrs.ManagedResourceMode {
		return terraform.HookActionContinue, nil
	}
	line := addr.String() + ": Refreshing state..."
	k, v := idOf(prior)
	if k != "" {
		line += fmt.Sprintf(" [%s=%s]", k, v)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.json != nil {
		h.json.Emit("info", "refresh_start", line, map[string]any{"hook": withID(map[string]any{"resource": resourceJSON(addr)}, k, v)})
		return terraform.HookActionContinue, nil
	}
	fmt.Fprintln(h.w, line)
	return terraform.HookActionContinue, nil
}

// PostRefresh emits refresh_complete in -json mode (the human output has
// no line for it, as in Terraform).
func (h *RefreshLog) PostRefresh(addr addrs.AbsResourceInstance, dk addrs.DeposedKey, _, nv cty.Value) (terraform.HookAction, error) {
	if h.json == nil || dk != addrs.NotDeposed || addr.Resource.Resource.Mode != addrs.ManagedResourceMode {
		return terraform.HookActionContinue, nil
	}
	line := addr.String() + ": Refresh complete"
	k, v := idOf(nv)
	if k != "" {
		line += fmt.Sprintf(" [%s=%s]", k, v)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.json.Emit("info", "refresh_complete", line, map[string]any{"hook": withID(map[string]any{"resource": resourceJSON(addr)}, k, v)})
	return terraform.HookActionContinue, nil
}
