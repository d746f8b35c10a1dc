package operation

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/states/statemgr"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/states/statefile"
)

// TestSaveErroredState: the recovery copy carries the state's lineage and
// the next serial, never overwrites an earlier one, and when no file can be
// written the state is printed whole, readable as a state file.
func TestSaveErroredState(t *testing.T) {
	st := states.NewState()
	st.SetOutputValue(addrs.OutputValue{Name: "x"}.Absolute(nil), cty.StringVal("kept"), false)
	cur := &statefile.File{Lineage: "lin", Serial: 7, State: states.NewState()}
	read := func(t *testing.T, src []byte) *statefile.File {
		t.Helper()
		f, err := statefile.Read(bytes.NewReader(src))
		if err != nil {
			t.Fatalf("recovery copy is not a state file: %v\n%s", err, src)
		}
		return f
	}

	tests := []struct {
		name      string
		existing  []string // files already in the working directory
		missingWD bool
		wantFile  string // "" when the state must be printed instead
		wantDiag  string
	}{
		{name: "first failure", wantFile: "errored.tfstate", wantDiag: "cp "},
		{name: "earlier recovery file kept", existing: []string{"errored.tfstate", "errored-1.tfstate"}, wantFile: "errored-2.tfstate", wantDiag: "errored-2.tfstate"},
		{name: "unwritable working directory", missingWD: true, wantDiag: "printed above"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wd := t.TempDir()
			for _, e := range tt.existing {
				if err := os.WriteFile(filepath.Join(wd, e), []byte("earlier"), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if tt.missingWD {
				wd = filepath.Join(wd, "gone")
			}
			var dump bytes.Buffer
			diags := SaveErroredState(wd, "s.tfstate", cur, st, &dump)
			if len(diags) != 1 || !strings.Contains(diags[0].Detail, tt.wantDiag) {
				t.Fatalf("diagnostics %v, want one mentioning %q", diags, tt.wantDiag)
			}
			var got []byte
			if tt.wantFile != "" {
				var err error
				if got, err = os.ReadFile(filepath.Join(wd, tt.wantFile)); err != nil {
					t.Fatal(err)
				}
				if dump.Len() > 0 {
					t.Errorf("state printed although the file was written:\n%s", dump.String())
				}
			} else {
				_, body, ok := strings.Cut(dump.String(), "---\n")
				body, _, ok2 := strings.Cut(body, "--- end of state ---")
				if !ok || !ok2 {
					t.Fatalf("no framed state in the output:\n%s", dump.String())
				}
				got = []byte(body)
			}
			f := read(t, got)
			if f.Lineage != "lin" || f.Serial != 8 {
				t.Errorf("lineage %q serial %d, want lin 8", f.Lineage, f.Serial)
			}
			if v := f.State.RootOutputValues()["x"]; v == nil || !v.Value.RawEquals(cty.StringVal("kept")) {
				t.Errorf("output x = %#v, want \"kept\"", v)
			}
			for _, e := range tt.existing {
				if b, _ := os.ReadFile(filepath.Join(wd, e)); string(b) != "earlier" {
					t.Errorf("%s was overwritten", e)
				}
			}
		})
	}
}

// TestStateSaverFlushLast: the second Ctrl-C's flush writes the last
// snapshot to the state file, or, when that fails, to a recovery file;
// with no snapshot yet it writes nothing.
func TestStateSaverFlushLast(t *testing.T) {
	st := states.NewState()
	st.SetOutputValue(addrs.OutputValue{Name: "x"}.Absolute(nil), cty.StringVal("kept"), false)
	tests := []struct {
		name     string
		blocked  bool // the state path is a directory, so writing it fails
		snapshot bool
		wantFile string // where the snapshot ends up; "" for nowhere
	}{
		{name: "written", snapshot: true, wantFile: "terraform.tfstate"},
		{name: "write fails", blocked: true, snapshot: true, wantFile: "errored.tfstate"},
		{name: "no snapshot", blocked: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wd := t.TempDir()
			spath := filepath.Join(wd, "terraform.tfstate")
			if tt.blocked {
				if err := os.Mkdir(spath, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			var dump bytes.Buffer
			s := &StateSaver{mgr: statemgr.NewFilesystem(spath), wd: wd, spath: spath, dump: &dump}
			if tt.snapshot {
				s.last = st
			}
			diags := s.FlushLast()
			if got, want := diags.HasErrors(), tt.blocked && tt.snapshot; got != want {
				t.Fatalf("errors = %v, want %v: %v", got, want, diags)
			}
			if tt.wantFile == "" {
				if _, err := os.Stat(filepath.Join(wd, "errored.tfstate")); !os.IsNotExist(err) {
					t.Errorf("errored.tfstate: err = %v, want none written", err)
				}
				return
			}
			sf := readStateFile(t, filepath.Join(wd, tt.wantFile))
			if got := sf.State.RootOutputValues()["x"]; got == nil || got.Value.AsString() != "kept" {
				t.Errorf("output x in %s = %v, want \"kept\"", tt.wantFile, got)
			}
			if tt.blocked && !strings.Contains(diags[len(diags)-1].Detail, "cp ") {
				t.Errorf("the last diagnostic does not say how to restore the state: %v", diags)
			}
		})
	}
}

func readStateFile(t *testing.T, path string) *statefile.File {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sf, err := statefile.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	return sf
}
