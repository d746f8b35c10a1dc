package plans

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestChecksRoundTrip: check results survive the plan encoding, and an
// unknown status in an archive is refused.
func TestChecksRoundTrip(t *testing.T) {
	checks := []*CheckResult{
		{Kind: "var", Name: "n", Status: CheckPass, Objects: []CheckObject{{Status: CheckPass}}},
		{Kind: "var", Module: "module.m", Name: "x", Status: CheckUnknown, Objects: []CheckObject{
			{Module: "module.m[0]", Status: CheckPass}, {Module: "module.m[1]", Status: CheckUnknown}}},
	}
	b, err := Marshal(&Plan{Changes: NewChanges(), Checks: checks}, "test")
	if err != nil {
		t.Fatal(err)
	}
	p, _, err := Unmarshal(b)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(checks, p.Checks); d != "" {
		t.Fatalf("(-want +got):\n%s", d)
	}
	if got := AggregateStatus([]CheckObject{{Status: CheckPass}, {Status: CheckUnknown}, {Status: CheckFail}}); got != CheckFail {
		t.Errorf("aggregate = %s", got)
	}
	bad := []*CheckResult{{Kind: "var", Name: "n", Status: "maybe"}}
	if b, err = Marshal(&Plan{Changes: NewChanges(), Checks: bad}, "test"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Unmarshal(b); err == nil {
		t.Error("an unknown check status was accepted")
	}
}
