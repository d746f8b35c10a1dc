package terraform

import (
	"context"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
)

// TestPlanTimestamp pins plantimestamp(): known during plan, the same value
// at apply (even when the apply runs at another time), and recorded in
// the plan only when the configuration calls it, so plans of other
// configurations carry no clock time.
func TestPlanTimestamp(t *testing.T) {
	planTime := time.Date(2024, 8, 16, 12, 45, 5, 0, time.UTC)
	tests := []struct {
		name     string
		src      string
		wantTime time.Time
		wantName cty.Value
	}{
		{"used", `resource "test_thing" "a" { name = plantimestamp() }`, planTime, cty.StringVal("2024-08-16T12:45:05Z")},
		{"used in a local", `
locals { at = formatdate("YYYY", plantimestamp()) }
resource "test_thing" "a" { name = local.at }`, planTime, cty.StringVal("2024")},
		{"not used", `resource "test_thing" "a" { name = "x" }`, time.Time{}, cty.StringVal("x")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := loadConfig(t, map[string]string{"main.tf": tt.src})
			c := testContext(t, newTestProvider(), 0)
			reads := 0
			plan := mustPlan(t, c, cfg, nil, &PlanOpts{Timestamp: func() time.Time { reads++; return planTime }})
			if !plan.Timestamp.Equal(tt.wantTime) {
				t.Errorf("plan.Timestamp = %v, want %v", plan.Timestamp, tt.wantTime)
			}
			if want := map[bool]int{true: 1, false: 0}[!tt.wantTime.IsZero()]; reads != want {
				t.Errorf("clock read %d times, want %d", reads, want)
			}
			addr, _ := addrs.ParseAbsResourceInstanceStr("test_thing.a")
			planned := plan.Changes.ResourceInstance(addr).After.GetAttr("name")
			if !planned.RawEquals(tt.wantName) {
				t.Fatalf("planned name = %#v, want %#v", planned, tt.wantName)
			}
			st, diags := c.Apply(context.Background(), plan, cfg, &ApplyOpts{Timestamp: func() time.Time { return planTime.Add(time.Hour) }})
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			obj, err := st.ResourceInstance(addr).Current.Decode(thingSchema().ImpliedType())
			if err != nil {
				t.Fatal(err)
			}
			if got := obj.Value.GetAttr("name"); !got.RawEquals(tt.wantName) {
				t.Errorf("applied name = %#v, want the planned %#v", got, tt.wantName)
			}
		})
	}
}
