package planfile

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/plans/planstest"
)

// TestReadPlanDeferred: the plan read without its values is the plan
// ReadPlan gives once each change is loaded, without the state entries;
// a value that does not decode (in an archive whose manifest matches) is
// reported by Load as ReadPlan reports it: corrupt, naming the file, the
// entry and the change.
func TestReadPlanDeferred(t *testing.T) {
	args := testArgs(t)
	const marker = "CORRUPT-ME-HERE"
	bad := -1
	for i, rc := range args.Plan.Changes.Resources {
		if rc.After.Type().IsObjectType() && rc.After.IsKnown() && !rc.After.IsNull() {
			m := rc.After.AsValueMap()
			m["name"] = cty.StringVal(marker)
			rc.After, bad = cty.ObjectVal(m), i
			break
		}
	}
	if bad < 0 {
		t.Fatal("no change to corrupt")
	}
	var buf bytes.Buffer
	if err := WriteTo(&buf, args); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(t.TempDir(), "good.tfplan")
	if err := os.WriteFile(good, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Open(good)
	if err != nil {
		t.Fatal(err)
	}
	want, err := r.ReadPlan()
	if err != nil {
		t.Fatal(err)
	}
	got, changes, err := r.ReadPlanDeferred()
	if err != nil {
		t.Fatal(err)
	}
	if got.PriorState != nil || got.PrevRunState != nil || got.Files != nil {
		t.Error("the states or files were read")
	}
	for i := range got.Changes.Resources {
		if got.Changes.Resources[i], err = changes.Load(i); err != nil {
			t.Fatal(err)
		}
	}
	got.PriorState, got.PrevRunState, got.Files = want.PriorState, want.PrevRunState, want.Files
	if diff := cmp.Diff(want, got, planstest.CmpOptions()); diff != "" {
		t.Errorf("ReadPlanDeferred + Load differs from ReadPlan (-want +got):\n%s", diff)
	}

	ents := r.entries
	needle := append([]byte{0xa0 | byte(len(marker))}, marker...)
	if n := bytes.Count(ents[EntryPlan], needle); n != 1 {
		t.Fatalf("marker found %d times", n)
	}
	ents[EntryPlan] = bytes.ReplaceAll(ents[EntryPlan], needle, append([]byte{0xc1}, marker...))
	path := filepath.Join(t.TempDir(), "bad.tfplan")
	if err := os.WriteFile(path, rezip(t, ents, true), 0o644); err != nil {
		t.Fatal(err)
	}
	br, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	_, wantErr := br.ReadPlan()
	if wantErr == nil {
		t.Fatal("ReadPlan accepted the bad value")
	}
	_, changes, err = br.ReadPlanDeferred()
	if err != nil {
		t.Fatalf("ReadPlanDeferred: %v, want the bad value left for Load", err)
	}
	_, err = changes.Load(bad)
	var pe *Error
	if !errors.As(err, &pe) || pe.Kind != KindCorrupt || pe.Entry != EntryPlan || pe.Path != path || err.Error() != wantErr.Error() {
		t.Errorf("Load(%d) = %v, want ReadPlan's %v", bad, err, wantErr)
	}
}
