package command

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/states/statemgr"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/states/statefile"
)

// writeInterruptedJournal leaves what an apply killed mid-way leaves: a
// state file without null_resource.a, and a journal recording a's
// creation and b's creation begun.
func writeInterruptedJournal(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "terraform.tfstate")
	mgr := statemgr.NewFilesystem(path)
	if err := mgr.PersistState(); err != nil { // an empty state with a lineage
		t.Fatal(err)
	}
	j, err := mgr.Journal()
	if err != nil {
		t.Fatal(err)
	}
	res := func(name string) addrs.AbsResourceInstance {
		return addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "null_resource", Name: name}.Instance(addrs.NoKey).Absolute(addrs.RootModuleInstance)
	}
	live := states.NewState()
	live.SetResourceInstanceCurrent(res("a"), &states.ResourceInstanceObjectSrc{AttrsJSON: []byte(`{"id":"4242","triggers":null}`), Status: states.ObjectReady},
		addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("null")})
	set, err := statemgr.EncodeSet(live, res("a"))
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range [][]byte{statemgr.EncodeBegin(res("a"), "create"), set, statemgr.EncodeBegin(res("b"), "create")} {
		if err := j.Append(rec); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

func journalLeft(t *testing.T, dir string) []string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(dir, ".terraform.tfstate.journal.*"))
	return m
}

// TestPlanRecoversInterruptedApply: the next plan reads the state with the
// journal folded in, plans only what is missing and warns naming the
// journal and the operation whose outcome is unknown, but writes nothing
// (a plan never writes the state): the state file and the journal stay as
// the killed apply left them. The next apply, holding the lock, folds the
// journal in first as a step it reports and records.
func TestPlanRecoversInterruptedApply(t *testing.T) {
	for _, lock := range []bool{true, false} {
		t.Run(map[bool]string{true: "locked", false: "lock=false"}[lock], func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte("resource \"null_resource\" \"a\" {}\nresource \"null_resource\" \"b\" {}\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			path := writeInterruptedJournal(t, dir)
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var calls atomic.Int64
			m, out, errb := countingMeta(t, &calls)
			args := []string{"-chdir=" + dir, "-no-color"}
			if !lock {
				args = append(args, "-lock=false")
			}
			if code := Plan(m, args); code != ExitOK {
				t.Fatalf("plan: exit %d\n%s%s", code, out, errb)
			}
			all := strings.Join(strings.Fields(out.String()+errb.String()), " ")
			why := "a plan, like Terraform's, never writes the state"
			if !lock {
				why = "this one runs with -lock=false"
			}
			for _, want := range []string{"Interrupted apply: operations of unknown outcome", "The state file lacks the changes of an interrupted apply",
				"Its journal (" + filepath.Join(dir, ".terraform.tfstate.journal.") + "*, 3 record(s))", why, "null_resource.b (create)", "Plan: 1 to add"} {
				if !strings.Contains(all, want) {
					t.Errorf("plan output lacks %q:\n%s", want, all)
				}
			}
			if strings.Contains(all, "null_resource.a (create)") {
				t.Errorf("the finished create of null_resource.a is named as in flight:\n%s", all)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(after, before) {
				t.Errorf("the plan wrote the state file:\n%s", after)
			}
			if _, err := os.Stat(path + ".backup"); err == nil {
				t.Errorf("the plan wrote a state backup")
			}
			if left := journalLeft(t, dir); len(left) != 1 {
				t.Errorf("journal files %v after the plan, want the one left by the apply", left)
			}
		})
	}
}

// TestApplyFoldsInterruptedJournal: apply folds the journal in under the
// lock before it plans, as its own write of the state (the state as the
// interrupted apply left it becomes the backup), says what it recovered
// from which journal, and records the step in NAME.recovery.log.
func TestApplyFoldsInterruptedJournal(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte("resource \"null_resource\" \"a\" {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	path := writeInterruptedJournal(t, dir)
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var calls atomic.Int64
	m, out, errb := countingMeta(t, &calls)
	if code := Apply(m, []string{"-chdir=" + dir, "-no-color", "-auto-approve"}); code != ExitOK {
		t.Fatalf("apply: exit %d\n%s%s", code, out, errb)
	}
	all := strings.Join(strings.Fields(out.String()+errb.String()), " ")
	for _, want := range []string{"Recovered the state of an interrupted apply", "Its journal (" + filepath.Join(dir, ".terraform.tfstate.journal.") + "*, 3 record(s))",
		"now written to the state (serial 2)", "is in " + path + ".backup", "recorded in " + path + ".recovery.log", "null_resource.b (create)", "No changes."} {
		if !strings.Contains(all, want) {
			t.Errorf("apply output lacks %q:\n%s", want, all)
		}
	}
	if got := stateFileNames(t, path); len(got) != 1 || got[0] != "null_resource.a" {
		t.Errorf("state file holds %v after the fold, want null_resource.a", got)
	}
	if b, _ := os.ReadFile(path + ".backup"); !bytes.Equal(b, before) {
		t.Errorf("the backup is not the state the interrupted apply left:\n%s", b)
	}
	if left := journalLeft(t, dir); len(left) != 0 {
		t.Errorf("journal left after the fold: %v", left)
	}
	logged, err := os.ReadFile(path + ".recovery.log")
	if err != nil {
		t.Fatal(err)
	}
	var e struct {
		Journal  string              `json:"journal"`
		Records  int                 `json:"records"`
		Serial   uint64              `json:"serial"`
		Changed  []string            `json:"changed"`
		InFlight []statemgr.InFlight `json:"in_flight"`
	}
	if err := json.Unmarshal(logged, &e); err != nil {
		t.Fatalf("recovery log %q: %v", logged, err)
	}
	want := []statemgr.InFlight{{Instance: "null_resource.b", Action: "create"}}
	if e.Records != 3 || e.Serial != 2 || len(e.Changed) != 1 || e.Changed[0] != "null_resource.a" || !strings.HasSuffix(e.Journal, ".terraform.tfstate.journal.*") || fmt.Sprint(e.InFlight) != fmt.Sprint(want) {
		t.Errorf("recovery log entry %+v", e)
	}
}

// stateFileNames lists the instances in the state file itself (a manager
// would replay the journal too).
func stateFileNames(t *testing.T, path string) []string {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := statefile.Read(bytes.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, a := range f.State.AllResourceInstances() {
		names = append(names, a.String())
	}
	return names
}

// TestStatePushReplacesInterruptedJournal: the errored.tfstate an apply
// saved when its last write failed pushes as the message says, although
// the apply's journal is left too: push does not fold the journal in
// first (that write would take the pushed file's serial), and removes it.
func TestStatePushReplacesInterruptedJournal(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte("resource \"null_resource\" \"a\" {}\nresource \"null_resource\" \"b\" {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	path := writeInterruptedJournal(t, dir)
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cur, err := statefile.Read(bytes.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	errored := &statefile.File{Lineage: cur.Lineage, Serial: cur.Serial + 1, State: states.NewState()}
	for _, name := range []string{"a", "b"} {
		addr := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "null_resource", Name: name}.Instance(addrs.NoKey).Absolute(addrs.RootModuleInstance)
		errored.State.SetResourceInstanceCurrent(addr, &states.ResourceInstanceObjectSrc{AttrsJSON: []byte(`{"id":"1","triggers":null}`), Status: states.ObjectReady},
			addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("null")})
	}
	var buf bytes.Buffer
	if err := statefile.Write(errored, &buf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "errored.tfstate"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var calls atomic.Int64
	m, out, errb := countingMeta(t, &calls)
	if code := StatePush(m, dir, []string{"errored.tfstate"}); code != ExitOK {
		t.Fatalf("push: exit %d\n%s%s", code, out, errb)
	}
	if got := stateFileNames(t, path); strings.Join(got, " ") != "null_resource.a null_resource.b" {
		t.Errorf("state after the push holds %v", got)
	}
	if left := journalLeft(t, dir); len(left) != 0 {
		t.Errorf("journal left after the push: %v", left)
	}
}

// TestSavedPlanAcrossJournalFold: a plan saved while an interrupted
// apply's journal is pending (the plan writes nothing) applies after the
// apply folds the journal in, locked or not; a plan saved before the
// interrupted apply is stale once its journal is there.
func TestSavedPlanAcrossJournalFold(t *testing.T) {
	cases := []struct {
		name       string
		lock       bool
		planBefore bool // plan saved before the journal was left
		wantCode   int
		want       string
	}{
		{"locked", true, false, ExitOK, "Apply complete!"},
		{"lock=false", false, false, ExitOK, "Apply complete!"},
		{"saved before the interrupted apply: resumed", true, true, ExitOK, "1 of 2 changes already applied, 1 remaining"},
		{"saved before the interrupted apply: its create of unknown outcome named", true, true, ExitOK, "Resuming creates of unknown outcome An apply of plan"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte("resource \"null_resource\" \"a\" {}\nresource \"null_resource\" \"b\" {}\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			lockArg := "-lock=" + fmt.Sprint(tc.lock)
			var calls atomic.Int64
			plan := func() {
				m, out, errb := countingMeta(t, &calls)
				if code := Plan(m, []string{"-chdir=" + dir, "-no-color", lockArg, "-out=p.tfplan"}); code != ExitOK {
					t.Fatalf("plan: exit %d\n%s%s", code, out, errb)
				}
			}
			if tc.planBefore {
				// The state the interrupted apply started from, then the plan.
				if err := statemgr.NewFilesystem(filepath.Join(dir, "terraform.tfstate")).PersistState(); err != nil {
					t.Fatal(err)
				}
				plan()
				writeInterruptedJournal(t, dir)
			} else {
				writeInterruptedJournal(t, dir)
				plan()
			}
			m, out, errb := countingMeta(t, &calls)
			code := Apply(m, []string{"-chdir=" + dir, "-no-color", lockArg, "p.tfplan"})
			all := strings.Join(strings.Fields(out.String()+errb.String()), " ")
			if code != tc.wantCode || !strings.Contains(all, tc.want) {
				t.Errorf("apply: exit %d, want %d with %q:\n%s", code, tc.wantCode, tc.want, all)
			}
		})
	}
}
