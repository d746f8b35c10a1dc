package depsfile

import (
	"testing"

	version "github.com/hashicorp/go-version"
)

// TestConstraintsString checks the canonical form Terraform writes in a
// lock file's constraints (the examples are what terraform init records
// for these required_providers constraints).
func TestConstraintsString(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"~> 3.0", "~> 3.0"},
		{"~> 3", "~> 3.0"},
		{"~> 3.1.2", "~> 3.1.2"},
		{">= 3.0, < 4.0", ">= 3.0.0, < 4.0.0"},
		{"< 4.0, >= 3.0, ~> 3.1", ">= 3.0.0, ~> 3.1, < 4.0.0"},
		{"1.2.3", "1.2.3"},
		{"= 1.2", "1.2.0"},
		{">= 2, >= 2.0.0, >=2.0", ">= 2.0.0"},
		{"!= 1.5.0, > 1.0", "> 1.0.0, != 1.5.0"},
		{">= 1.0.0-beta1", ">= 1.0.0-beta1"},
		{"~> 1.0, ~> 1.0", "~> 1.0"},
	} {
		var cs version.Constraints
		if tc.in != "" {
			var err error
			if cs, err = version.NewConstraint(tc.in); err != nil {
				t.Fatalf("%q: %v", tc.in, err)
			}
		}
		if got := ConstraintsString(cs); got != tc.want {
			t.Errorf("ConstraintsString(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
