package planfile

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/plans/planstest"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/states/statefile"
)

// bigState is a state of n resources whose attributes hold pseudo-random
// text, so that its encoding (several MB for large n) spans many deflate
// windows and many of the state writer's flushes.
func bigState(n int, seed uint64) *states.State {
	s := states.NewState()
	x := seed | 1
	for i := range n {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		addr := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: fmt.Sprintf("r%d", i)}.Instance(addrs.NoKey).Absolute(nil)
		s.SetResourceInstanceCurrent(addr, &states.ResourceInstanceObjectSrc{
			AttrsJSON: fmt.Appendf(nil, `{"id":"%x","input":"v%d","output":"%x%x","triggers_replace":null}`, x, i, x*31, x>>3),
			Status:    states.ObjectReady,
		}, addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")})
	}
	return s
}

// TestWriteToMatchesReference: the streaming writer gives exactly the
// bytes of the reference (every entry encoded whole, then zipped with
// CreateHeader), for archives small and large, signed, with files, a
// backend, non-ASCII configuration file names, shared and distinct
// states, and another modification time.
func TestWriteToMatchesReference(t *testing.T) {
	big := bigState(30_000, 7)
	tests := []struct {
		name string
		args func(t *testing.T) *CreateArgs
	}{
		{"full", func(t *testing.T) *CreateArgs { return testArgs(t) }},
		{"signed", func(t *testing.T) *CreateArgs { a := testArgs(t); a.SignKey = testKey(3); return a }},
		{"files", func(t *testing.T) *CreateArgs { return argsWithFiles(t) }},
		{"backend", func(t *testing.T) *CreateArgs {
			a := testArgs(t)
			a.Backend = &Backend{Type: "local", Workspace: "dev", Config: map[string]string{"path": "x.tfstate"}}
			return a
		}},
		{"no state, no snapshot, no locks", func(t *testing.T) *CreateArgs {
			a := testArgs(t)
			a.StateFile.State, a.PreviousRunStateFile.State = nil, nil
			a.ConfigSnapshot, a.DependencyLocks = nil, nil
			return a
		}},
		{"non-ASCII file names", func(t *testing.T) *CreateArgs {
			a := testArgs(t)
			a.ConfigSnapshot = &configs.Snapshot{Modules: map[string]*configs.SnapshotModule{"": {Dir: ".", Files: map[string][]byte{
				"main.tf": []byte("# x\n"), "réseau.tf": []byte("# é\n"), "日本.tf": []byte("# 日本\n"), "a~b.tf": []byte("#\n"), "empty.tf": {},
			}}}}
			return a
		}},
		{"mtime", func(t *testing.T) *CreateArgs {
			a := testArgs(t)
			a.Time = time.Date(2031, 7, 9, 13, 45, 17, 0, time.FixedZone("x", 3600))
			return a
		}},
		{"large shared state", func(t *testing.T) *CreateArgs {
			a := testArgs(t)
			a.Plan = planstest.LargePlan(20_000)
			a.StateFile = &statefile.File{Lineage: "l", Serial: 4, State: big}
			a.PreviousRunStateFile = &statefile.File{Lineage: "l", Serial: 4, State: big}
			return a
		}},
		{"large distinct states", func(t *testing.T) *CreateArgs {
			a := testArgs(t)
			a.StateFile = &statefile.File{Lineage: "l", Serial: 4, State: big}
			a.PreviousRunStateFile = &statefile.File{Lineage: "l", Serial: 4, State: bigState(2_000, 9)}
			return a
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var want, got bytes.Buffer
			if err := writeToBuffered(&want, tt.args(t)); err != nil {
				t.Fatal(err)
			}
			if err := WriteTo(&got, tt.args(t)); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(want.Bytes(), got.Bytes()) {
				i := 0
				for i < min(want.Len(), got.Len()) && want.Bytes()[i] == got.Bytes()[i] {
					i++
				}
				t.Fatalf("archives differ: %d bytes (reference) vs %d, first difference at offset %d", want.Len(), got.Len(), i)
			}
			if _, err := OpenBytes(got.Bytes()); err != nil {
				t.Fatalf("the archive does not open: %v", err)
			}
		})
	}
}

// TestWriteToErrorsMatchReference: arguments the reference refuses are
// refused with the same error.
func TestWriteToErrorsMatchReference(t *testing.T) {
	tests := map[string]func(a *CreateArgs){
		"no plan":        func(a *CreateArgs) { a.Plan = nil },
		"no prior state": func(a *CreateArgs) { a.StateFile = nil },
		"no previous":    func(a *CreateArgs) { a.PreviousRunStateFile = nil },
		"bad key":        func(a *CreateArgs) { a.SignKey = []byte("short") },
		"nil module":     func(a *CreateArgs) { a.ConfigSnapshot.Modules["x"] = nil },
		"bad backend":    func(a *CreateArgs) { a.Backend = &Backend{Type: "local"} },
		"bad file name":  func(a *CreateArgs) { a.ConfigSnapshot.Modules[""].Files["../x.tf"] = nil },
		// Errors of the entries encoded on other goroutines, alone and
		// with a small entry's error: the plan's is still reported first.
		"marked plan value": markFirstChange,
		"marked plan value and bad file name": func(a *CreateArgs) {
			markFirstChange(a)
			a.ConfigSnapshot.Modules[""].Files["../x.tf"] = nil
		},
	}
	for name, mutate := range tests {
		t.Run(name, func(t *testing.T) {
			a, b := testArgs(t), testArgs(t)
			mutate(a)
			mutate(b)
			wantErr := writeToBuffered(new(bytes.Buffer), a)
			gotErr := WriteTo(new(bytes.Buffer), b)
			if wantErr == nil || gotErr == nil || wantErr.Error() != gotErr.Error() {
				t.Fatalf("error %v, reference %v", gotErr, wantErr)
			}
			if strings.TrimSpace(gotErr.Error()) == "" {
				t.Fatal("empty error")
			}
		})
	}
}

// markFirstChange marks the after value of a's first resource change,
// which the plan encoder refuses.
func markFirstChange(a *CreateArgs) {
	rc := *a.Plan.Changes.Resources[0]
	rc.After = rc.After.Mark("sensitive")
	cp := *a.Plan
	changes := *cp.Changes
	changes.Resources = append([]*plans.ResourceInstanceChange{&rc}, changes.Resources[1:]...)
	cp.Changes = &changes
	a.Plan = &cp
}

// FuzzWriteToMatchesReference: for any configuration file (name and
// bytes) and modification time, the streaming writer gives the bytes, or
// the error, of the reference writer.
func FuzzWriteToMatchesReference(f *testing.F) {
	f.Add("main.tf", []byte("resource \"x\" \"y\" {}\n"), int64(0))
	f.Add("é.tf", []byte{}, int64(1700000000))
	f.Add("a\\b.tf", bytes.Repeat([]byte("abc\x00\xff"), 5000), int64(-5))
	f.Fuzz(func(t *testing.T, name string, content []byte, mtime int64) {
		mk := func() *CreateArgs {
			a := testArgs(t)
			a.ConfigSnapshot.Modules[""].Files[name] = content
			if mtime > 0 {
				a.Time = time.Unix(mtime%(1<<32), 0)
			}
			return a
		}
		var want, got bytes.Buffer
		wantErr, gotErr := writeToBuffered(&want, mk()), WriteTo(&got, mk())
		if (wantErr == nil) != (gotErr == nil) || wantErr != nil && wantErr.Error() != gotErr.Error() {
			t.Fatalf("error %v, reference %v", gotErr, wantErr)
		}
		if !bytes.Equal(want.Bytes(), got.Bytes()) {
			t.Fatalf("archives differ: %d bytes (reference) vs %d", want.Len(), got.Len())
		}
	})
}
