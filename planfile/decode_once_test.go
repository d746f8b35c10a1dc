package planfile

import (
	"testing"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/states/statefile"
)

// TestStateDecodedOnce: applying a saved plan reads the plan and then the
// prior state file (for its lineage and serial); the state entry is
// decoded once, so both are the same object, and so are the previous-run
// ones.
func TestStateDecodedOnce(t *testing.T) {
	r, err := Open(writeArchive(t, testArgs(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	p, err := r.ReadPlan()
	if err != nil {
		t.Fatal(err)
	}
	sf, err := r.ReadStateFile()
	if err != nil {
		t.Fatal(err)
	}
	prev, err := r.ReadPrevStateFile()
	if err != nil {
		t.Fatal(err)
	}
	if sf.State != p.PriorState {
		t.Error("ReadStateFile decoded the prior state again: not the plan's PriorState")
	}
	if prev.State != p.PrevRunState {
		t.Error("ReadPrevStateFile decoded the previous-run state again: not the plan's PrevRunState")
	}
	if sf.Serial != 7 || prev.Serial != 6 {
		t.Errorf("serials = %d, %d; want 7, 6", sf.Serial, prev.Serial)
	}
}

// TestEqualStateEntriesDecodedOnce: when the prior and previous-run state
// entries hold the same bytes (a plan with no changes made outside
// plankit), reading both decodes one and shares it; entries that differ
// are decoded separately (TestStateDecodedOnce).
func TestEqualStateEntriesDecodedOnce(t *testing.T) {
	args := testArgs(t)
	args.Plan.PrevRunState = args.Plan.PriorState
	args.PreviousRunStateFile = &statefile.File{Lineage: args.StateFile.Lineage, Serial: args.StateFile.Serial, State: args.Plan.PriorState}
	r, err := Open(writeArchive(t, args))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	p, err := r.ReadPlan()
	if err != nil {
		t.Fatal(err)
	}
	if p.PrevRunState != p.PriorState {
		t.Error("equal state entries were decoded twice")
	}
	if p.PriorState.ResourceInstance(addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "null_resource", Name: "a"}.Instance(addrs.NoKey).Absolute(nil)) == nil {
		t.Error("the shared state lost the prior state's instance")
	}
}
