package views

import (
	"fmt"
	"time"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/terraform"
)

// ephemeralVerbs are the lines of an ephemeral resource's operations, as
// OpenTofu words them: start, then completion.
var ephemeralVerbs = map[terraform.EphemeralOp][2]string{
	terraform.EphemeralOpen:  {"Opening...", "Open complete"},
	terraform.EphemeralRenew: {"Renewing...", "Renew complete"},
	terraform.EphemeralClose: {"Closing...", "Close complete"},
	terraform.EphemeralDefer: {"Deferred due to unknown configuration"},
}

var _ terraform.EphemeralHook = (*ApplyHook)(nil)

func ephemeralKey(addr addrs.AbsResourceInstance, op terraform.EphemeralOp) string {
	return addr.String() + "\x00" + ephemeralVerbs[op][0]
}

// ephemeralActions are the -json "action" of each operation, as
// Terraform's ephemeral_op_* messages name them.
var ephemeralActions = map[terraform.EphemeralOp]string{
	terraform.EphemeralOpen: "open", terraform.EphemeralRenew: "renew", terraform.EphemeralClose: "close",
}

// PreEphemeral prints "ADDR: Opening..." (Renewing, Closing), or emits
// Terraform's ephemeral_op_start message.
func (h *ApplyHook) PreEphemeral(addr addrs.AbsResourceInstance, op terraform.EphemeralOp) (terraform.HookAction, error) {
	if h.json != nil && op == terraform.EphemeralDefer {
		return terraform.HookActionContinue, nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.ephemeral == nil {
		h.ephemeral = map[string]time.Time{}
	}
	if op != terraform.EphemeralDefer {
		h.ephemeral[ephemeralKey(addr, op)] = time.Now()
	}
	b := append(append(append(h.line[:0], addr.String()...), ": "...), ephemeralVerbs[op][0]...)
	if h.json != nil {
		h.json.Emit("info", "ephemeral_op_start", string(b), map[string]any{"hook": map[string]any{
			"resource": resourceJSON(addr), "action": ephemeralActions[op]}})
	}
	h.writeLine(b)
	return terraform.HookActionContinue, nil
}

// PostEphemeral prints "ADDR: Open complete after 1s" when the operation
// succeeded (a failure is reported by its diagnostics), or emits
// ephemeral_op_complete or ephemeral_op_errored.
func (h *ApplyHook) PostEphemeral(addr addrs.AbsResourceInstance, op terraform.EphemeralOp, err error) (terraform.HookAction, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	key := ephemeralKey(addr, op)
	start, ok := h.ephemeral[key]
	delete(h.ephemeral, key)
	if !ok {
		return terraform.HookActionContinue, nil
	}
	elapsed := time.Since(start).Truncate(time.Second)
	if h.json != nil {
		hook := map[string]any{"resource": resourceJSON(addr), "action": ephemeralActions[op], "elapsed_seconds": int(elapsed.Seconds())}
		if err != nil {
			h.json.Emit("error", "ephemeral_op_errored", fmt.Sprintf("%s: %s errored after %s", addr, ephemeralActions[op], formatElapsed(elapsed)), map[string]any{"hook": hook})
			return terraform.HookActionContinue, nil
		}
		b := append(append(append(append(h.line[:0], addr.String()...), ": "...), ephemeralVerbs[op][1]...), " after "...)
		h.json.Emit("info", "ephemeral_op_complete", string(appendElapsed(b, elapsed)), map[string]any{"hook": hook})
		return terraform.HookActionContinue, nil
	}
	if err != nil {
		return terraform.HookActionContinue, nil
	}
	b := append(append(append(append(h.line[:0], addr.String()...), ": "...), ephemeralVerbs[op][1]...), " after "...)
	h.writeLine(appendElapsed(b, elapsed))
	return terraform.HookActionContinue, nil
}

var _ terraform.EphemeralHook = (*RefreshLog)(nil)

// PreEphemeral reports an ephemeral resource operation during plan, as
// apply does.
func (h *RefreshLog) PreEphemeral(addr addrs.AbsResourceInstance, op terraform.EphemeralOp) (terraform.HookAction, error) {
	return h.readHook().PreEphemeral(addr, op)
}

// PostEphemeral reports the end of an ephemeral resource operation.
func (h *RefreshLog) PostEphemeral(addr addrs.AbsResourceInstance, op terraform.EphemeralOp, err error) (terraform.HookAction, error) {
	return h.readHook().PostEphemeral(addr, op, err)
}
