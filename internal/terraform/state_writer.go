package terraform

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/states"
)

// StateWriter persists the state while Apply changes it. The core only
// announces changes; where and how they are stored (the local state file
// and its journal, a database) is the caller's business: command/ wires
// one built on states/statemgr's BackgroundPersister.
//
// Apply calls Start with the live state before the walk; then, from the
// walk's workers, for different instances at once: Begin before a provider
// is asked to change or destroy an object of addr (an error stops that
// operation before the provider call), Changed after addr's objects in the
// live state changed, and End when the operation that Begin announced is
// over (whether or not it changed anything). Changed should return once
// the change is durable: the walk waits, so at most the operations in
// flight (the parallelism) can be unrecorded when the process dies. Close
// is called once after the walk, when the live state is final.
type StateWriter interface {
	Start(live *states.SyncState)
	Begin(addr addrs.AbsResourceInstance, deposed addrs.DeposedKey, action plans.Action) error
	Changed(addr addrs.AbsResourceInstance)
	End(addr addrs.AbsResourceInstance)
	Close() error
}

// changed tells the state writer, if any, that addr's objects changed.
func (aw *applyWalk) changed(addr addrs.AbsResourceInstance) {
	if aw.writer != nil {
		aw.writer.Changed(addr)
	}
}

// beginOp tells the state writer that an operation on addr is starting.
func (aw *applyWalk) beginOp(addr addrs.AbsResourceInstance, dk addrs.DeposedKey, action plans.Action) error {
	if aw.writer == nil {
		return nil
	}
	return aw.writer.Begin(addr, dk, action)
}

// ProvisionersWriter is a StateWriter that tells the start of an object's
// creation provisioners from the start of an operation: Apply calls
// BeginProvisioners instead of Begin once the created object is recorded
// (Changed) and before its provisioners run. A process that dies before
// the End that follows has created the object and not finished
// provisioning it, which Terraform stores as tainted (a failed
// provisioner); a writer that keeps a journal can do the same when it
// replays it.
type ProvisionersWriter interface {
	BeginProvisioners(addr addrs.AbsResourceInstance, action plans.Action) error
}

// beginProvisioners tells the state writer that addr's object is created
// and its provisioners are starting.
func (aw *applyWalk) beginProvisioners(addr addrs.AbsResourceInstance, action plans.Action) error {
	if pw, ok := aw.writer.(ProvisionersWriter); ok {
		return pw.BeginProvisioners(addr, action)
	}
	return aw.beginOp(addr, addrs.NotDeposed, action)
}

// endOp tells the state writer that the operation on addr is over.
func (aw *applyWalk) endOp(addr addrs.AbsResourceInstance) {
	if aw.writer != nil {
		aw.writer.End(addr)
	}
}

// stateWriteDiag reports that an operation was not started because the
// state writer could not record its start.
func (ai *applyInstance) stateWriteDiag(err error) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Failed to record the operation in the state",
		Detail:  fmt.Sprintf("%s was not changed: recording that the change is starting failed (%s). Unrecorded, a crash during the change would leave its outcome unknown. Check that the state's storage is writable and apply again.", ai.w.addr, err),
		Subject: ai.declRange()}
}
