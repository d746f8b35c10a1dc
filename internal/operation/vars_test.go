package operation

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/configs"
)

// TestRawVariableParsing checks Terraform's rule for -var and TF_VAR_
// values: literal strings for a variable with no type or a string type,
// converted for number and bool, parsed as HCL for any other declared type
// ("any" included, in .tf and .tf.json); -var-file values keep their HCL or
// JSON types whatever the declaration.
func TestRawVariableParsing(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"main.tf": `
variable "untyped" {}
variable "untyped_desc" { description = "no type" }
variable "str" { type = string }
variable "num" { type = number }
variable "flag" { type = bool }
variable "anything" { type = any }
variable "names" { type = list(string) }
variable "fromfile" {}
`,
		"vars.tf.json":   `{"variable": {"json_any": {"type": "any"}, "json_untyped": {}}}`,
		"in.tfvars":      "fromfile = 2\n",
		"in.tfvars.json": `{"untyped_desc": 3}`,
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	config, diags := configs.LoadConfigDir(dir)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	tests := []struct {
		name    string
		args    []VarArg
		env     []string
		want    map[string]cty.Value
		wantErr string
	}{
		{name: "untyped -var is a string", args: []VarArg{{Value: "untyped=2"}, {Value: "json_untyped={a=1}"}},
			want: map[string]cty.Value{"untyped": cty.StringVal("2"), "json_untyped": cty.StringVal("{a=1}")}},
		{name: "untyped TF_VAR_ is a string", env: []string{"TF_VAR_untyped=2", "TF_VAR_untyped_desc=true"},
			want: map[string]cty.Value{"untyped": cty.StringVal("2"), "untyped_desc": cty.StringVal("true")}},
		{name: "string is literal", args: []VarArg{{Value: "str=[1]"}}, env: []string{"TF_VAR_str=2"},
			want: map[string]cty.Value{"str": cty.StringVal("[1]")}},
		{name: "number and bool", args: []VarArg{{Value: "num=2"}}, env: []string{"TF_VAR_flag=true"},
			want: map[string]cty.Value{"num": cty.NumberIntVal(2), "flag": cty.True}},
		{name: "any parses HCL", args: []VarArg{{Value: "anything=2"}, {Value: `json_any=["a"]`}}, env: []string{"TF_VAR_names=[\"x\"]"},
			want: map[string]cty.Value{"anything": cty.NumberIntVal(2), "json_any": cty.TupleVal([]cty.Value{cty.StringVal("a")}),
				"names": cty.TupleVal([]cty.Value{cty.StringVal("x")})}},
		{name: "any rejects a bare word", args: []VarArg{{Value: "anything=hello"}}, wantErr: "Invalid value for variable anything"},
		{name: "var files keep their types", args: []VarArg{{File: true, Value: "in.tfvars"}, {File: true, Value: "in.tfvars.json"}},
			want: map[string]cty.Value{"fromfile": cty.NumberIntVal(2), "untyped_desc": cty.NumberIntVal(3)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, diags := CollectVariables(config, dir, tt.args, tt.env)
			if tt.wantErr != "" {
				if !diags.HasErrors() || diags[0].Summary != tt.wantErr {
					t.Fatalf("diags = %v, want %q", diags, tt.wantErr)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			gotVals := map[string]cty.Value{}
			for k, v := range got {
				gotVals[k] = v.Value
			}
			if diff := cmp.Diff(tt.want, gotVals, cmp.Comparer(func(a, b cty.Value) bool { return a.RawEquals(b) })); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
