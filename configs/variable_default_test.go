package configs

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestVariableDefaultTypeErrorPath: a default that does not fit the type
// constraint names the offending element as users write it ([0].a), not
// as cty's Go syntax ([cty.NumberIntVal(0)]).
func TestVariableDefaultTypeErrorPath(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"list of objects", `variable "v" {
  type    = list(object({ a = number }))
  default = [{ a = "nope" }]
}`, `This default value is not compatible with the variable's type constraint list(object({a=number})): attribute [0].a: a number is required.`},
		{"map of objects", `variable "v" {
  type    = map(object({ a = number }))
  default = { k = { a = "nope" } }
}`, `This default value is not compatible with the variable's type constraint map(object({a=number})): attribute ["k"].a: a number is required.`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := loadInline(t, map[string]string{"main.tf": tt.src})
			if !diags.HasErrors() {
				t.Fatal("no error")
			}
			var got []string
			for _, d := range diags {
				got = append(got, d.Detail)
			}
			if d := cmp.Diff([]string{tt.want}, got); d != "" {
				t.Errorf("details (-want +got):\n%s", d)
			}
		})
	}
}
