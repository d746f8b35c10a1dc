package views

import (
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

// PreEphemeral prints "ADDR: Opening..." (Renewing, Closing) in human
// output; -json output has no message for it.
func (h *ApplyHook) PreEphemeral(addr addrs.AbsResourceInstance, op terraform.EphemeralOp) (terraform.HookAction, error) {
	if h.json != nil {
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
	h.writeLine(append(append(append(h.line[:0], addr.String()...), ": "...), ephemeralVerbs[op][0]...))
	return terraform.HookActionContinue, nil
}

// PostEphemeral prints "ADDR: Open complete after 1s" when the operation
// succeeded (a failure is reported by its diagnostics).
func (h *ApplyHook) PostEphemeral(addr addrs.AbsResourceInstance, op terraform.EphemeralOp, err error) (terraform.HookAction, error) {
	if h.json != nil {
		return terraform.HookActionContinue, nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	key := ephemeralKey(addr, op)
	start, ok := h.ephemeral[key]
	delete(h.ephemeral, key)
	if !ok || err != nil {
		return terraform.HookActionContinue, nil
	}
	b := append(append(append(append(h.line[:0], addr.String()...), ": "...), ephemeralVerbs[op][1]...), " after "...)
	h.writeLine(appendElapsed(b, time.Since(start).Truncate(time.Second)))
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
