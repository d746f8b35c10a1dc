package operation

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/plans"
)

// TestSavedPlanVariables: apply FILE takes the ephemeral variables from
// every source plan takes them from, requires those without a default,
// and refuses a non-ephemeral variable given a value other than the
// plan's.
func TestSavedPlanVariables(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"main.tf": `
variable "token" {
  type      = string
  ephemeral = true
}
variable "opt" {
  ephemeral = true
  default   = "d"
}
variable "region" { type = string }
variable "n" { type = number }
variable "unrecorded" {}
`,
		"given.tfvars": "token = \"from-file\"\nn = 3\n",
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
	plan := &plans.Plan{VariableValues: map[string]cty.Value{"region": cty.StringVal("eu"), "n": cty.NumberIntVal(3)}, ApplyTimeVariables: []string{"opt", "token"}}
	tests := []struct {
		name    string
		args    []VarArg
		env     []string
		want    map[string]cty.Value
		wantErr []string
	}{
		{name: "-var", args: []VarArg{{Value: "token=t1"}}, want: map[string]cty.Value{"token": cty.StringVal("t1")}},
		{name: "TF_VAR_", env: []string{"TF_VAR_token=t2", "TF_VAR_opt=o"}, want: map[string]cty.Value{"token": cty.StringVal("t2"), "opt": cty.StringVal("o")}},
		{name: "-var-file, with the plan's value of n", args: []VarArg{{File: true, Value: "given.tfvars"}}, want: map[string]cty.Value{"token": cty.StringVal("from-file")}},
		{name: "the plan's values again", args: []VarArg{{Value: "token=t"}, {Value: "region=eu"}, {Value: "n=3.0"}}, want: map[string]cty.Value{"token": cty.StringVal("t")}},
		{name: "a variable the plan does not record (encryption's)", args: []VarArg{{Value: "token=t"}}, env: []string{"TF_VAR_unrecorded=x"}, want: map[string]cty.Value{"token": cty.StringVal("t")}},
		{name: "missing", wantErr: []string{"No value for ephemeral variable: token"}},
		{name: "changed", args: []VarArg{{Value: "token=t"}, {Value: "region=us"}}, env: []string{"TF_VAR_n=4"},
			wantErr: []string{"Variable changed since the plan: n", "Variable changed since the plan: region"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, diags := SavedPlanVariables(config, plan, dir, tc.args, tc.env)
			var errs []string
			for _, d := range diags {
				name := ""
				if d.Subject != nil {
					for n, v := range config.Module.Variables {
						if v.DeclRange == *d.Subject {
							name = n
						}
					}
				}
				errs = append(errs, d.Summary+": "+name)
			}
			sort.Strings(errs)
			if diff := cmp.Diff(tc.wantErr, errs); diff != "" {
				t.Fatalf("diagnostics (-want +got):\n%s\n%s", diff, diags.Error())
			}
			if tc.wantErr != nil {
				return
			}
			vals := map[string]cty.Value{}
			for n, iv := range got {
				vals[n] = iv.Value
			}
			if diff := cmp.Diff(tc.want, vals, cmp.Comparer(func(a, b cty.Value) bool { return a.RawEquals(b) })); diff != "" {
				t.Errorf("values (-want +got):\n%s", diff)
			}
		})
	}
}
