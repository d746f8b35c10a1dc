package terraform

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/plans"
)

// HookAction tells the core whether to go on after a hook call.
type HookAction int

const (
	// HookActionContinue lets the operation go on.
	HookActionContinue HookAction = iota
	// HookActionHalt asks the core to stop starting new work, as a
	// cancellation does.
	HookActionHalt
)

// Hook receives progress; all methods may be called concurrently. Embed
// NilHook to implement a subset.
type Hook interface {
	PreRefresh(addr addrs.AbsResourceInstance, deposed addrs.DeposedKey, prior cty.Value) (HookAction, error)
	PostRefresh(addr addrs.AbsResourceInstance, deposed addrs.DeposedKey, prior, new cty.Value) (HookAction, error)
	PreDiff(addr addrs.AbsResourceInstance, deposed addrs.DeposedKey, prior, proposed cty.Value) (HookAction, error)
	PostDiff(addr addrs.AbsResourceInstance, deposed addrs.DeposedKey, action plans.Action, prior, planned cty.Value) (HookAction, error)
	PreApply(addr addrs.AbsResourceInstance, deposed addrs.DeposedKey, action plans.Action, prior, planned cty.Value) (HookAction, error)
	PostApply(addr addrs.AbsResourceInstance, deposed addrs.DeposedKey, new cty.Value, err error) (HookAction, error)
	PreProvisionInstanceStep(addr addrs.AbsResourceInstance, typeName string) (HookAction, error)
	ProvisionOutput(addr addrs.AbsResourceInstance, typeName string, line string)
	PostProvisionInstanceStep(addr addrs.AbsResourceInstance, typeName string, err error) (HookAction, error)
}

// NilHook implements Hook doing nothing and always continuing.
type NilHook struct{}

var _ Hook = NilHook{}

func (NilHook) PreRefresh(addrs.AbsResourceInstance, addrs.DeposedKey, cty.Value) (HookAction, error) {
	return HookActionContinue, nil
}
func (NilHook) PostRefresh(addrs.AbsResourceInstance, addrs.DeposedKey, cty.Value, cty.Value) (HookAction, error) {
	return HookActionContinue, nil
}
func (NilHook) PreDiff(addrs.AbsResourceInstance, addrs.DeposedKey, cty.Value, cty.Value) (HookAction, error) {
	return HookActionContinue, nil
}
func (NilHook) PostDiff(addrs.AbsResourceInstance, addrs.DeposedKey, plans.Action, cty.Value, cty.Value) (HookAction, error) {
	return HookActionContinue, nil
}
func (NilHook) PreApply(addrs.AbsResourceInstance, addrs.DeposedKey, plans.Action, cty.Value, cty.Value) (HookAction, error) {
	return HookActionContinue, nil
}
func (NilHook) PostApply(addrs.AbsResourceInstance, addrs.DeposedKey, cty.Value, error) (HookAction, error) {
	return HookActionContinue, nil
}
func (NilHook) PreProvisionInstanceStep(addrs.AbsResourceInstance, string) (HookAction, error) {
	return HookActionContinue, nil
}
func (NilHook) ProvisionOutput(addrs.AbsResourceInstance, string, string) {}
func (NilHook) PostProvisionInstanceStep(addrs.AbsResourceInstance, string, error) (HookAction, error) {
	return HookActionContinue, nil
}

// EphemeralOp is what is done to an ephemeral resource instance.
type EphemeralOp int

const (
	EphemeralOpen EphemeralOp = iota
	EphemeralRenew
	EphemeralClose
	// EphemeralDefer: the instance is not opened while planning, its
	// configuration not being known yet (PreEphemeral only).
	EphemeralDefer
)

// EphemeralHook is a Hook that also hears of ephemeral resource
// instances being opened, renewed and closed (optional, like ImportHook).
// No value is passed: an ephemeral value is never reported.
type EphemeralHook interface {
	PreEphemeral(addr addrs.AbsResourceInstance, op EphemeralOp) (HookAction, error)
	PostEphemeral(addr addrs.AbsResourceInstance, op EphemeralOp, err error) (HookAction, error)
}
