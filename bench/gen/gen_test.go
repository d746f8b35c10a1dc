package gen

import (
	"strings"
	"testing"
)

func TestConfig(t *testing.T) {
	tests := []struct {
		shape     Shape
		n         int
		blocks    int
		contains  string
		wantError bool
	}{
		{Independent, 3, 3, `resource "terraform_data" "r2"`, false},
		{Chain, 3, 3, `input = terraform_data.r1.output`, false},
		{FanIn, 12, 12, `input = [terraform_data.root0.output, terraform_data.root1.output]`, false},
		{Count, 5, 1, `count = 5`, false},
		{Hub, 6, 6, `input = "d2-${length(local.all)}"`, false},
		{Objects, 3, 3, `input = { idx = 2, name = "r2" }`, false},
		{"spiral", 1, 0, "", true},
	}
	for _, tc := range tests {
		src, err := Config(tc.shape, tc.n)
		if (err != nil) != tc.wantError {
			t.Fatalf("%s: err = %v", tc.shape, err)
		}
		if err != nil {
			continue
		}
		if got := strings.Count(src, "resource \""); got != tc.blocks {
			t.Errorf("%s: %d blocks, want %d", tc.shape, got, tc.blocks)
		}
		if !strings.Contains(src, tc.contains) {
			t.Errorf("%s: missing %q", tc.shape, tc.contains)
		}
	}
}
