package variables

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/lang/marks"
)

func TestPrepare(t *testing.T) {
	tests := []struct {
		name    string
		v       *configs.Variable
		raw     cty.Value
		want    cty.Value
		wantErr string
	}{
		{"default", &configs.Variable{Name: "a", Type: cty.Number, Default: cty.NumberIntVal(1), Nullable: true}, cty.NilVal, cty.NumberIntVal(1), ""},
		{"converted", &configs.Variable{Name: "a", Type: cty.Number, Nullable: true}, cty.StringVal("5"), cty.NumberIntVal(5), ""},
		{"missing", &configs.Variable{Name: "a", Type: cty.String, Nullable: true}, cty.NilVal, cty.NilVal, "No value for required variable"},
		{"wrong type", &configs.Variable{Name: "a", Type: cty.Number, Nullable: true}, cty.StringVal("x"), cty.NilVal, "Invalid value for input variable"},
		{"not nullable", &configs.Variable{Name: "a", Type: cty.String, Default: cty.StringVal("d")}, cty.NullVal(cty.String), cty.StringVal("d"), ""},
		{"not nullable, null, no default", &configs.Variable{Name: "a", Type: cty.String}, cty.NullVal(cty.String), cty.NilVal, "not nullable"},
		{"nullable given null keeps null", &configs.Variable{Name: "a", Type: cty.String, Default: cty.StringVal("d"), Nullable: true}, cty.NullVal(cty.DynamicPseudoType), cty.NullVal(cty.String), ""},
		{"nullable given null, no default", &configs.Variable{Name: "a", Type: cty.String, Nullable: true}, cty.NullVal(cty.String), cty.NullVal(cty.String), ""},
		{"nullable unset, null default", &configs.Variable{Name: "a", Type: cty.String, Default: cty.NullVal(cty.String), Nullable: true}, cty.NilVal, cty.NullVal(cty.String), ""},
		{"sensitive", &configs.Variable{Name: "a", Type: cty.String, Sensitive: true, Nullable: true}, cty.StringVal("s"), cty.StringVal("s").Mark(marks.Sensitive), ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, diags := Prepare(tc.v, tc.raw, hcl.Range{}, "root module input variable")
			if tc.wantErr != "" {
				if !strings.Contains(diags.Error(), tc.wantErr) {
					t.Fatalf("diags %q lack %q", diags.Error(), tc.wantErr)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			if !got.RawEquals(tc.want) {
				t.Errorf("got %#v, want %#v", got, tc.want)
			}
		})
	}
}
