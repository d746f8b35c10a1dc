package operation

import (
	"strings"
	"testing"
	"time"
)

func TestPlanClock(t *testing.T) {
	tests := []struct {
		name    string
		env     []string
		want    time.Time // zero: the wall clock
		wantErr string
	}{
		{"unset", []string{"HOME=/x"}, time.Time{}, ""},
		{"set", []string{"SOURCE_DATE_EPOCH=1700000000"}, time.Unix(1700000000, 0).UTC(), ""},
		{"last wins", []string{"SOURCE_DATE_EPOCH=1", "SOURCE_DATE_EPOCH=2"}, time.Unix(2, 0).UTC(), ""},
		{"invalid", []string{"SOURCE_DATE_EPOCH=yesterday"}, time.Time{}, "Invalid SOURCE_DATE_EPOCH"},
		{"negative", []string{"SOURCE_DATE_EPOCH=-5"}, time.Time{}, "Invalid SOURCE_DATE_EPOCH"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock, diags := PlanClock(tt.env)
			if tt.wantErr != "" {
				if !diags.HasErrors() || !strings.Contains(diags[0].Summary, tt.wantErr) {
					t.Fatalf("diags = %v, want %q", diags, tt.wantErr)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			got := clock()
			if tt.want.IsZero() {
				if time.Since(got) > time.Minute || time.Since(got) < 0 {
					t.Errorf("wall clock gave %v", got)
				}
			} else if !got.Equal(tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}
