package command

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/states/statefile"
)

// TestIgnoredFlagsRefused: options that would be silently ignored, or
// that contradict each other, are usage errors before anything is read
// or a provider started.
func TestIgnoredFlagsRefused(t *testing.T) {
	dir := writeConfig(t, map[string]string{"main.tf": `resource "null_resource" "a" {}`})
	tests := []struct {
		name string
		bin  func(*Meta, []string) int
		args []string
		want string
	}{
		{"plan -sign-key without -out", Plan, []string{"-sign-key=k.pem"}, "-sign-key signs the saved plan archive, so it needs -out=FILE"},
		{"plan -refresh-only -refresh=false", Plan, []string{"-refresh-only", "-refresh=false"}, "-refresh-only and -refresh=false cannot be used together"},
		{"apply -verify-key without a file", Apply, []string{"-verify-key=k.pub", "-auto-approve"}, "no plan file was given"},
		{"apply -out", Apply, []string{"-out=x.tfplan", "-auto-approve"}, "apply does not take -out"},
		{"apply -detailed-exitcode", Apply, []string{"-detailed-exitcode", "-auto-approve"}, "apply does not take -detailed-exitcode"},
		{"apply -sign-key", Apply, []string{"-sign-key=k.pem", "-auto-approve"}, "apply does not take -sign-key"},
		{"apply -refresh-only -refresh=false", Apply, []string{"-refresh-only", "-refresh=false", "-auto-approve"}, "cannot be used together"},
		{"plan with a missing -sign-key", Plan, []string{"-sign-key=nope.pem", "-out=p.tfplan"}, "Failed to load the signing key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int64
			m, out, errb := countingMeta(t, &calls)
			code := tt.bin(m, append([]string{"-chdir=" + dir, "-no-color"}, tt.args...))
			if code != ExitError {
				t.Errorf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, out, errb)
			}
			if !strings.Contains(errb.String(), tt.want) {
				t.Errorf("stderr lacks %q:\n%s", tt.want, errb)
			}
			if strings.Contains(out.String(), "null_resource.a") {
				t.Errorf("something was planned before the refusal:\n%s", out)
			}
			if n := calls.Load(); n != 0 {
				t.Errorf("%d providers started", n)
			}
			if _, err := os.Stat(filepath.Join(dir, "terraform.tfstate")); err == nil {
				t.Errorf("a state was written")
			}
		})
	}
}

func TestApplyHint(t *testing.T) {
	tests := []struct {
		f    planFlags
		want string
	}{
		{planFlags{out: "p.tfplan"}, `apply "p.tfplan"`},
		{planFlags{commonFlags: commonFlags{state: "/tmp/q.tfstate"}, out: "/tmp/q.tfplan"}, `apply -state=/tmp/q.tfstate "/tmp/q.tfplan"`},
		{planFlags{commonFlags: commonFlags{chdir: "infra/prod", state: "my state.tfstate"}, out: "p.tfplan"}, `apply -chdir=infra/prod -state='my state.tfstate' "p.tfplan"`},
	}
	for _, tt := range tests {
		if got := applyHint(&tt.f); got != tt.want {
			t.Errorf("applyHint = %s, want %s", got, tt.want)
		}
	}
}

// TestStateElsewhereWarning: a plan made from no state, applied to
// another path where there is no state either, is warned about; the same
// path, or a plan made from a real state, is not.
func TestStateElsewhereWarning(t *testing.T) {
	dir := t.TempDir()
	planned := filepath.Join(dir, "q.tfstate")
	other := filepath.Join(dir, "terraform.tfstate")
	empty := &statefile.File{State: states.NewState()}
	tests := []struct {
		name     string
		plan     *plans.Plan
		spath    string
		cur, was *statefile.File
		warn     bool
	}{
		{"other absent path", &plans.Plan{StatePath: planned}, other, nil, empty, true},
		{"same path", &plans.Plan{StatePath: planned}, planned, nil, empty, false},
		{"old plan without a path", &plans.Plan{}, other, nil, empty, false},
		{"plan from a real state", &plans.Plan{StatePath: planned}, other, nil, &statefile.File{Lineage: "l", State: states.NewState()}, false},
		{"a state exists there", &plans.Plan{StatePath: planned}, other, &statefile.File{Lineage: "x", State: states.NewState()}, empty, false},
	}
	for _, tt := range tests {
		ds := stateElsewhereWarning(tt.plan, tt.spath, tt.cur, tt.was)
		if got := len(ds) > 0; got != tt.warn {
			t.Errorf("%s: warning %v, want %v (%v)", tt.name, got, tt.warn, ds)
		}
		if tt.warn && !strings.Contains(ds[0].Detail, "-state="+planned) {
			t.Errorf("%s: the warning does not say which -state to use: %s", tt.name, ds[0].Detail)
		}
		// plan's hint after -out names -state only when plan was given
		// one (a plan of the default terraform.tfstate prints none), so
		// the warning must not send the user to it for the -state.
		if hint := applyHint(&planFlags{out: "p.tfplan"}); tt.warn && strings.Contains(ds[0].Detail, "hint") && !strings.Contains(hint, "-state") {
			t.Errorf("%s: the warning points to plan's hint, which lacks -state (%s): %s", tt.name, hint, ds[0].Detail)
		}
	}
}

// TestRecordPlanContext: the plan records its absolute state path and a
// time, SOURCE_DATE_EPOCH's when set.
func TestRecordPlanContext(t *testing.T) {
	p := &plans.Plan{}
	at := time.Unix(1700000000, 0).UTC()
	recordPlanContext(p, "rel/x.tfstate", func() time.Time { return at })
	abs, _ := filepath.Abs("rel/x.tfstate")
	if p.StatePath != abs || !p.Timestamp.Equal(at) {
		t.Errorf("StatePath %q Timestamp %v, want %q %v", p.StatePath, p.Timestamp, abs, at)
	}
	recorded := time.Unix(5, 0).UTC()
	p = &plans.Plan{Timestamp: recorded}
	recordPlanContext(p, "x", func() time.Time { return at })
	if !p.Timestamp.Equal(recorded) {
		t.Errorf("a time plantimestamp() recorded was replaced: %v", p.Timestamp)
	}
}

// TestInterspersedFlags: subcommand options may follow the arguments,
// and -chdir may follow the subcommand name.
func TestInterspersedFlags(t *testing.T) {
	tests := []struct {
		args      []string
		json      bool
		chdir     string
		positonal []string
	}{
		{[]string{"f.tfplan", "-json"}, true, "pre", []string{"f.tfplan"}},
		{[]string{"-chdir=d", "f.tfplan"}, false, "d", []string{"f.tfplan"}},
		{[]string{"a", "-json", "b", "-chdir", "x"}, true, "x", []string{"a", "b"}},
		{[]string{"a", "--", "-json"}, false, "pre", []string{"a", "-json"}},
	}
	for _, tt := range tests {
		fs := newSubFlagSet("t", "", "pre")
		j := fs.Bool("json", false, "")
		if err := fs.parseInterspersed(tt.args); err != nil {
			t.Fatalf("%q: %v", tt.args, err)
		}
		if *j != tt.json || fs.chdir != tt.chdir || !cmp.Equal(fs.Args(), tt.positonal) {
			t.Errorf("%q: json %v chdir %q args %q; want %v %q %q", tt.args, *j, fs.chdir, fs.Args(), tt.json, tt.chdir, tt.positonal)
		}
	}
}

// TestDefaultBackupPath: two state changes in the same second keep both
// backups.
func TestDefaultBackupPath(t *testing.T) {
	dir := t.TempDir()
	spath := filepath.Join(dir, "terraform.tfstate")
	now := time.Unix(1700000000, 0)
	first := defaultBackupPath(spath, now)
	if first != spath+".1700000000.backup" {
		t.Fatalf("first backup %s", first)
	}
	writeFileT(t, first)
	second := defaultBackupPath(spath, now)
	if second == first || second != spath+".1700000000-1.backup" {
		t.Errorf("second backup %s", second)
	}
}

func writeFileT(t *testing.T, p string) {
	t.Helper()
	if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestJSONStreamLikeTerraform: the -json UI stream uses Terraform's
// module name, change reasons and output actions (unchanged outputs
// included), and leaves out id_key/id_value when there is no id.
func TestJSONStreamLikeTerraform(t *testing.T) {
	dir := writeConfig(t, map[string]string{"main.tf": `
resource "null_resource" "a" {}
output "fixed" { value = "v" }
`})
	var calls atomic.Int64
	m, out, errb := countingMeta(t, &calls)
	if code := Apply(m, []string{"-chdir=" + dir, "-json", "-auto-approve"}); code != 0 {
		t.Fatalf("apply: exit %d\n%s\n%s", code, out, errb)
	}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var msg map[string]any
		if err := json.Unmarshal([]byte(line), &msg); err != nil {
			t.Fatalf("not JSON: %s", line)
		}
		if msg["@module"] != "terraform.ui" {
			t.Errorf("@module = %v", msg["@module"])
		}
		if msg["type"] == "apply_start" {
			hook := msg["hook"].(map[string]any)
			if _, ok := hook["id_key"]; ok {
				t.Errorf("apply_start of a create has id_key: %s", line)
			}
		}
	}
	m, out, errb = countingMeta(t, &calls)
	if code := Plan(m, []string{"-chdir=" + dir, "-json", "-replace=null_resource.a"}); code != 0 {
		t.Fatalf("plan: exit %d\n%s\n%s", code, out, errb)
	}
	var reason, outputAction any
	var refreshed []string
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var msg map[string]any
		if err := json.Unmarshal([]byte(line), &msg); err != nil {
			t.Fatalf("not JSON: %s", line)
		}
		switch msg["type"] {
		case "planned_change":
			reason = msg["change"].(map[string]any)["reason"]
		case "outputs":
			outputAction = msg["outputs"].(map[string]any)["fixed"].(map[string]any)["action"]
		case "refresh_start", "refresh_complete":
			refreshed = append(refreshed, msg["type"].(string)+" "+msg["@message"].(string))
		}
	}
	if len(refreshed) != 2 || !strings.HasPrefix(refreshed[0], "refresh_start null_resource.a: Refreshing state... [id=") || !strings.HasPrefix(refreshed[1], "refresh_complete null_resource.a: Refresh complete [id=") {
		t.Errorf("refresh messages: %q", refreshed)
	}
	if reason != "requested" || outputAction != "noop" {
		t.Errorf("reason %v, unchanged output's action %v; want requested, noop\n%s", reason, outputAction, out)
	}
}
