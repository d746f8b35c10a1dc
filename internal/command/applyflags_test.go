package command

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestApplyDeclaresOnlyItsOptions: apply's flag set has the common
// options, what to plan and its own; plan's options about the plan it
// writes are not declared (apply explains them instead).
func TestApplyDeclaresOnlyItsOptions(t *testing.T) {
	var f applyFlags
	fs := f.flagSet("")
	for _, name := range []string{"chdir", "state", "parallelism", "lock", "lock-timeout", "json", "no-color", "input",
		"var", "var-file", "target", "replace", "destroy", "refresh-only", "refresh", "plugin-dir", "backend-config",
		"auto-approve", "verify-key"} {
		if fs.Lookup(name) == nil {
			t.Errorf("apply does not declare -%s", name)
		}
	}
	for _, name := range []string{"out", "detailed-exitcode", "sign-key"} {
		if fs.Lookup(name) != nil {
			t.Errorf("apply declares plan's -%s", name)
		}
		if fs.refused[name] == "" {
			t.Errorf("apply gives no reason for refusing -%s", name)
		}
	}
}

// TestChdirParsedOnce: the -chdir before the options is the default of
// the -chdir option, which a later -chdir overrides; both plan and apply.
func TestChdirParsedOnce(t *testing.T) {
	tests := []struct {
		args  []string
		chdir string
	}{
		{[]string{"-chdir=a", "-no-color"}, "a"},
		{[]string{"-no-color", "-chdir=b"}, "b"},
		{[]string{"-chdir", "a", "-no-color", "-chdir=b"}, "b"},
		{[]string{"-no-color"}, ""},
	}
	for _, tt := range tests {
		chdir, rest := splitChdir(tt.args)
		var af applyFlags
		afs := af.flagSet(chdir)
		if err := afs.Parse(rest); err != nil {
			t.Fatal(err)
		}
		var pf planFlags
		pfs := newFlagSetT("plan", nil, planUsage)
		pf.register(pfs, chdir)
		if err := pfs.Parse(rest); err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff([]string{tt.chdir, tt.chdir}, []string{af.chdir, pf.chdir}); d != "" {
			t.Errorf("%q: -chdir (apply, plan) (-want +got):\n%s", tt.args, d)
		}
	}
}
