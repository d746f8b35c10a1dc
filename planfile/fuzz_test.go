package planfile

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/plankit/plankit/plans/planstest"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/states/statefile"
)

var update = flag.Bool("update", false, "rewrite the FuzzOpen seed corpus in testdata/fuzz/FuzzOpen")

// FuzzOpen feeds archive bytes to the opener and, when they pass its
// checks, to every reader. Nothing may panic or hang.
func FuzzOpen(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := OpenBytes(data)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("Open returned %T, want *Error: %v", err, err)
			}
			return
		}
		r.ReadPlan()
		r.ReadStateFile()
		r.ReadPrevStateFile()
		r.ReadConfigSnapshot()
		r.ReadConfig()
		r.ReadDependencyLocks()
		r.ReadBackend()
	})
}

// seedArchives are the seed corpus: a small valid archive and damaged
// variants of it, each reaching a different check.
func seedArchives(t *testing.T) map[string][]byte {
	st := states.NewState()
	args := &CreateArgs{
		Plan:                 planstest.LargePlan(2),
		StateFile:            &statefile.File{Lineage: "l", Serial: 1, State: st},
		PreviousRunStateFile: &statefile.File{Lineage: "l", Serial: 1, State: st},
		ConfigSnapshot:       testSnapshot(t),
		DependencyLocks:      testLocks(),
		SignKey:              testKey(9),
	}
	var buf bytes.Buffer
	if err := WriteTo(&buf, args); err != nil {
		t.Fatal(err)
	}
	valid := bytes.Clone(buf.Bytes())
	r, err := OpenBytes(valid)
	if err != nil {
		t.Fatal(err)
	}
	stored := rezip(t, r.entries, false)
	flipped := bytes.Clone(stored)
	flipped[len(flipped)/3] ^= 1
	ents := r.entries
	ents[EntryPlan] = planHeader(99, 0)
	v99 := rezip(t, ents, true)
	withFiles := *args
	planWithFiles := *args.Plan
	planWithFiles.Files = testFiles()
	withFiles.Plan = &planWithFiles
	buf.Reset()
	if err := WriteTo(&buf, &withFiles); err != nil {
		t.Fatal(err)
	}
	return map[string][]byte{
		"files":     bytes.Clone(buf.Bytes()),
		"valid":     valid,
		"stored":    stored,
		"truncated": valid[:len(valid)*2/3],
		"flipped":   flipped,
		"version99": v99,
		"traversal": makeZip(t, []zipEntry{{name: "../x", data: []byte("x")}, {name: EntryPlan, data: []byte("x")}}),
		"duplicate": makeZip(t, []zipEntry{{name: EntryPlan, data: []byte("a")}, {name: EntryPlan, data: []byte("b")}}),
		"empty":     {},
	}
}

// TestFuzzOpenCorpus keeps the committed seed corpus in step with the
// writer: with -update it rewrites it; without, it checks every seed is
// still there (so a format change cannot silently leave the fuzzer with
// only stale inputs).
func TestFuzzOpenCorpus(t *testing.T) {
	dir := filepath.Join("testdata", "fuzz", "FuzzOpen")
	for name, data := range seedArchives(t) {
		path := filepath.Join(dir, name)
		content := fmt.Sprintf("go test fuzz v1\n[]byte(%s)\n", strconv.Quote(string(data)))
		if *update {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if _, err := os.Stat(path); err != nil {
			t.Errorf("seed %s is missing (run go test ./planfile -run TestFuzzOpenCorpus -update): %v", name, err)
		}
	}
}
