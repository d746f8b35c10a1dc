package planfile

import "testing"

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
