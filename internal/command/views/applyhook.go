package views

import (
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/lang/marks"
	"github.com/plankit/plankit/internal/terraform"
	"github.com/plankit/plankit/jsonplan"
	"github.com/plankit/plankit/plans"
)

// progressHook shows counts of refreshed and planned instances on one
// terminal line, redrawn at most every 100ms; a line per resource is not
// wanted on large configurations. Used only when stderr is a terminal.
type ProgressHook struct {
	terraform.NilHook
	w io.Writer

	mu                 sync.Mutex
	refreshed, planned int
	last               time.Time
	drawn              bool
}

var _ terraform.Hook = (*ProgressHook)(nil)

func (h *ProgressHook) draw(force bool) {
	if !force && time.Since(h.last) < 100*time.Millisecond {
		return
	}
	h.last = time.Now()
	h.drawn = true
	fmt.Fprintf(h.w, "\r\x1b[KRefreshed %d, planned %d resource instances...", h.refreshed, h.planned)
}

func (h *ProgressHook) PostRefresh(addrs.AbsResourceInstance, addrs.DeposedKey, cty.Value, cty.Value) (terraform.HookAction, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.refreshed++
	h.draw(false)
	return terraform.HookActionContinue, nil
}

func (h *ProgressHook) PostDiff(addrs.AbsResourceInstance, addrs.DeposedKey, plans.Action, cty.Value, cty.Value) (terraform.HookAction, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.planned++
	h.draw(false)
	return terraform.HookActionContinue, nil
}

// NewProgressHook draws the refresh and plan counts on w, a terminal.
func NewProgressHook(w io.Writer) *ProgressHook { return &ProgressHook{w: w} }

// Done clears the progress line.
func (h *ProgressHook) Done() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.drawn {
		fmt.Fprint(h.w, "\r\x1b[K")
	}
}

// applyHook prints each resource operation as it starts, every 10 s while
// it runs ("Still creating... [10s elapsed]"), and when it completes, in
// human text or as -json messages.
type ApplyHook struct {
	terraform.NilHook
	mu       sync.Mutex
	w        io.Writer
	json     *JSONView
	interval time.Duration
	// inflight are the operations between PreApply and PostApply; the
	// core calls PostApply after the provisioners, so "Still creating..."
	// keeps counting while they run.
	inflight map[string]*op
	// started holds the HookKey of every operation the core began, so the
	// command can name the planned ones that never ran (WithSkippedInstances).
	started map[string]bool
	// line is the human output's scratch line (under mu): the writer
	// copies what it is given.
	line []byte
	// ephemeral holds when each ephemeral resource operation in flight
	// started (ephemeralhook.go).
	ephemeral map[string]time.Time
}

type op struct {
	action plans.Action
	start  time.Time
	// timer prints the next "Still ..." line; done (under the hook's
	// mutex) stops it. A timer, not a goroutine with a ticker, per
	// operation: a large apply starts hundreds of thousands.
	timer *time.Timer
	done  bool
	idKey string
	idVal string
}

// finish stops o's progress lines; h.mu is held.
func (o *op) finish() {
	o.done = true
	o.timer.Stop()
}

var _ terraform.Hook = (*ApplyHook)(nil)

// NewApplyHook writes the operations' lines to w, or their -json
// messages to jv when it is set.
func NewApplyHook(w io.Writer, jv *JSONView) *ApplyHook {
	return &ApplyHook{w: w, json: jv, interval: 10 * time.Second, inflight: map[string]*op{}, started: map[string]bool{}}
}

// HookKey names one operation: the instance, and its deposed object if
// any.
func HookKey(addr addrs.AbsResourceInstance, dk addrs.DeposedKey) string {
	if dk != addrs.NotDeposed {
		return addr.String() + " (deposed object " + string(dk) + ")"
	}
	return addr.String()
}

// idOf returns the "id" attribute of an object when it is a known string.
func idOf(v cty.Value) (string, string) {
	if v == cty.NilVal {
		return "", ""
	}
	if v.HasMark(marks.Sensitive) {
		return "", ""
	}
	v, _ = v.Unmark()
	if v.IsNull() || !v.IsKnown() || !v.Type().IsObjectType() || !v.Type().HasAttribute("id") {
		return "", ""
	}
	// A sensitive id is not shown, as in Terraform.
	id := v.GetAttr("id")
	if marks.Contains(id, marks.Sensitive) {
		return "", ""
	}
	id, _ = id.UnmarkDeep()
	if id.IsNull() || !id.IsKnown() || id.Type() != cty.String {
		return "", ""
	}
	return "id", id.AsString()
}

var verbs = map[plans.Action][3]string{
	plans.Create: {"Creating...", "Still creating...", "Creation complete"},
	plans.Update: {"Modifying...", "Still modifying...", "Modifications complete"},
	plans.Delete: {"Destroying...", "Still destroying...", "Destruction complete"},
	plans.Read:   {"Reading...", "Still reading...", "Read complete"},
}

func resourceJSON(addr addrs.AbsResourceInstance) map[string]any {
	res := addr.Resource.Resource
	return map[string]any{
		"addr": addr.String(), "module": addr.Module.String(), "resource": addr.Resource.String(),
		"implied_provider": res.ImpliedProvider(), "resource_type": res.Type, "resource_name": res.Name,
		"resource_key": jsonplan.InstanceKey(addr.Resource.Key),
	}
}

func actionWord(a plans.Action) string {
	return jsonplan.Actions(a)[0]
}

func (h *ApplyHook) PreApply(addr addrs.AbsResourceInstance, dk addrs.DeposedKey, action plans.Action, prior, planned cty.Value) (terraform.HookAction, error) {
	key := HookKey(addr, dk)
	if action.IsReplace() {
		// The core reports the two halves of a replace separately.
		action = plans.Create
		if planned == cty.NilVal || planned.IsNull() {
			action = plans.Delete
		}
	}
	v, ok := verbs[action]
	if !ok {
		h.mu.Lock()
		h.started[key] = true
		h.mu.Unlock()
		return terraform.HookActionContinue, nil
	}
	idKey, idVal := idOf(prior)
	o := &op{action: action, start: time.Now(), idKey: idKey, idVal: idVal}
	h.mu.Lock()
	h.started[key] = true
	h.inflight[key] = o
	b := append(append(append(h.line[:0], key...), ": "...), v[0]...)
	if action != plans.Create {
		b = appendID(b, idKey, idVal)
	}
	if h.json != nil {
		h.json.Emit("info", "apply_start", string(b), map[string]any{"hook": withID(map[string]any{
			"resource": resourceJSON(addr), "action": actionWord(action)}, idKey, idVal)})
	}
	h.writeLine(b)
	interval, still := h.interval, v[1]
	// Set under h.mu: the first tick waits for it.
	o.timer = time.AfterFunc(interval, func() { h.tick(addr, o, still, interval) })
	h.mu.Unlock()
	return terraform.HookActionContinue, nil
}

// tick reports a running operation and sets its timer for the next
// report, every interval until it completes.
func (h *ApplyHook) tick(addr addrs.AbsResourceInstance, o *op, still string, interval time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if o.done {
		return
	}
	elapsed := time.Since(o.start).Truncate(time.Second)
	msg := fmt.Sprintf("%s: %s [%s elapsed]", addr, still, formatElapsed(elapsed))
	if h.json != nil {
		h.json.Emit("info", "apply_progress", msg, map[string]any{"hook": map[string]any{
			"resource": resourceJSON(addr), "action": actionWord(o.action), "elapsed_seconds": int(elapsed.Seconds())}})
	} else {
		fmt.Fprintln(h.w, msg)
	}
	o.timer.Reset(interval)
}

func formatElapsed(d time.Duration) string {
	return string(appendElapsed(nil, d))
}

// appendElapsed appends d, whole seconds, as Terraform shows it: "7s",
// "2m5s".
func appendElapsed(b []byte, d time.Duration) []byte {
	s := int64(d.Seconds())
	if s >= 60 {
		b = strconv.AppendInt(b, s/60, 10)
		b = append(b, 'm')
		s %= 60
	}
	b = strconv.AppendInt(b, s, 10)
	return append(b, 's')
}

func (h *ApplyHook) PostApply(addr addrs.AbsResourceInstance, dk addrs.DeposedKey, newVal cty.Value, err error) (terraform.HookAction, error) {
	key := HookKey(addr, dk)
	h.mu.Lock()
	defer h.mu.Unlock()
	o := h.inflight[key]
	if o == nil {
		return terraform.HookActionContinue, nil
	}
	delete(h.inflight, key)
	o.finish()
	elapsed := time.Since(o.start).Truncate(time.Second)
	if err != nil {
		if h.json != nil {
			h.json.Emit("error", "apply_errored", fmt.Sprintf("%s: %s errored after %s", key, actionWord(o.action), formatElapsed(elapsed)),
				map[string]any{"hook": map[string]any{"resource": resourceJSON(addr), "action": actionWord(o.action), "elapsed_seconds": int(elapsed.Seconds())}})
		}
		return terraform.HookActionContinue, nil
	}
	idKey, idVal := idOf(newVal)
	// Only the start line names a deposed object's key; the completion
	// is the instance's, as in OpenTofu's apply log (log scrapers pair
	// the lines by address).
	b := append(append(append(append(h.line[:0], addr.String()...), ": "...), verbs[o.action][2]...), " after "...)
	b = appendElapsed(b, elapsed)
	if o.action != plans.Delete {
		b = appendID(b, idKey, idVal)
	}
	if h.json != nil {
		h.json.Emit("info", "apply_complete", string(b), map[string]any{"hook": withID(map[string]any{
			"resource": resourceJSON(addr), "action": actionWord(o.action),
			"elapsed_seconds": int(elapsed.Seconds())}, idKey, idVal)})
	}
	h.writeLine(b)
	return terraform.HookActionContinue, nil
}

// appendID appends " [idKey=idVal]" to a progress line, when the object
// has an id.
func appendID(b []byte, idKey, idVal string) []byte {
	if idVal == "" {
		return b
	}
	return append(append(append(append(append(b, " ["...), idKey...), '='), idVal...), ']')
}

// writeLine keeps b, a progress line built in h.line, for the next one
// and, in the human view, writes it. h.mu is held.
func (h *ApplyHook) writeLine(b []byte) {
	h.line = append(b, '\n')
	if h.json == nil {
		_, _ = h.w.Write(h.line)
	}
}

func (h *ApplyHook) PreProvisionInstanceStep(addr addrs.AbsResourceInstance, typeName string) (terraform.HookAction, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.json == nil {
		fmt.Fprintf(h.w, "%s: Provisioning with '%s'...\n", addr, typeName)
	} else {
		h.json.Emit("info", "provision_start", fmt.Sprintf("%s: Provisioning with '%s'...", addr, typeName),
			map[string]any{"hook": map[string]any{"resource": resourceJSON(addr), "provisioner": typeName}})
	}
	return terraform.HookActionContinue, nil
}

// PostProvisionInstanceStep reports a provisioner's end in -json output
// (the human view has no line for it, as in Terraform).
func (h *ApplyHook) PostProvisionInstanceStep(addr addrs.AbsResourceInstance, typeName string, err error) (terraform.HookAction, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.json != nil {
		typ, level, msg := "provision_complete", "info", fmt.Sprintf("%s: (%s) Provisioning complete", addr, typeName)
		if err != nil {
			typ, level, msg = "provision_errored", "error", fmt.Sprintf("%s: (%s) Provisioning errored", addr, typeName)
		}
		h.json.Emit(level, typ, msg, map[string]any{"hook": map[string]any{"resource": resourceJSON(addr), "provisioner": typeName}})
	}
	return terraform.HookActionContinue, nil
}

func (h *ApplyHook) ProvisionOutput(addr addrs.AbsResourceInstance, typeName string, line string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.json != nil {
		h.json.Emit("info", "provision_progress", fmt.Sprintf("%s: (%s): %s", addr, typeName, line),
			map[string]any{"hook": map[string]any{"resource": resourceJSON(addr), "provisioner": typeName, "output": line}})
		return
	}
	fmt.Fprintf(h.w, "%s (%s): %s\n", addr, typeName, line)
}

// stopAll ends the progress tickers of operations that never completed.
// Stop stops every operation's progress lines once the core has
// returned, and gives the HookKey of every operation the core began, so
// the command can name the planned ones that never ran.
func (h *ApplyHook) Stop() (started map[string]bool) {
	h.stopAll()
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.started
}

func (h *ApplyHook) stopAll() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for k, o := range h.inflight {
		o.finish()
		delete(h.inflight, k)
	}
}
