package command

import (
	"strings"
	"sync/atomic"
	"testing"
)

// TestRequiredVariableBeforeRefresh: a root variable with no default and
// no value fails plan, and apply without a plan file, before any provider
// starts or any object in the state is refreshed; every such variable is
// named, in declaration order, and one given by -var, a .tfvars file or
// TF_VAR_ is not.
func TestRequiredVariableBeforeRefresh(t *testing.T) {
	dir := writeConfig(t, map[string]string{
		"main.tf": `variable "b_need" {
  type = string
}
variable "a_need" {
  type = string
}
variable "given" {
  type = string
}
variable "env" {
  type = string
}
variable "opt" {
  type    = string
  default = null
}
resource "terraform_data" "a" {
  input = "${var.a_need}${var.b_need}${var.given}${var.env}"
}
`,
		"terraform.tfvars": "given = \"g\"\n",
	})
	all := []string{"-var=a_need=1", "-var=b_need=2"}
	m, out, errb := countingMeta(t, new(atomic.Int64))
	m.Env = []string{"TF_VAR_env=e"}
	if code := Apply(m, append([]string{"-chdir=" + dir, "-auto-approve", "-no-color"}, all...)); code != ExitOK {
		t.Fatalf("first apply: exit %d\n%s\n%s", code, out, errb)
	}
	for name, run := range map[string]func(m *Meta) int{
		"plan":  func(m *Meta) int { return Plan(m, []string{"-chdir=" + dir, "-no-color", "-var=a_need=1"}) },
		"apply": func(m *Meta) int { return Apply(m, []string{"-chdir=" + dir, "-no-color", "-auto-approve"}) },
	} {
		t.Run(name, func(t *testing.T) {
			calls := new(atomic.Int64)
			m, out, errb := countingMeta(t, calls)
			m.Env = []string{"TF_VAR_env=e"}
			if code := run(m); code != ExitError {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, ExitError, out, errb)
			}
			if n := calls.Load(); n != 0 {
				t.Errorf("%d providers started before the missing variable was reported", n)
			}
			if strings.Contains(out.String(), "Refreshing state") {
				t.Errorf("objects were refreshed first:\n%s", out)
			}
			var named []string
			for _, line := range strings.Split(errb.String(), "\n") {
				if _, v, ok := strings.Cut(line, `input variable "`); ok {
					named = append(named, strings.SplitN(v, `"`, 2)[0])
				}
			}
			want := "b_need a_need"
			if name == "plan" {
				want = "b_need"
			}
			if got := strings.Join(named, " "); got != want || !strings.Contains(errb.String(), "Error: No value for required variable") {
				t.Errorf("variables reported: %q, want %q\n%s", got, want, errb)
			}
		})
	}
}
