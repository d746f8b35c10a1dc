package statefile

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// samePieces checks readPieces against readFast on src: whenever the
// pieces are accepted, readFast accepts src too and both give the same
// file (or the same error).
func samePieces(t *testing.T, src []byte, pieces int) (accepted bool) {
	t.Helper()
	got, ok, gotErr := readPieces(src, pieces, 0)
	if !ok {
		return false
	}
	want, wantOK, wantErr := readFast(src)
	if !wantOK {
		t.Fatalf("pieces accepted a file one pass refuses:\n%s", src)
	}
	if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
		t.Fatalf("error %v, one pass: %v", gotErr, wantErr)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatal("the file read in pieces differs from one pass's")
	}
	return true
}

// TestReadPiecesSameAsOnePass: varied states written by Write, and the
// fixtures, read in pieces give exactly what one pass gives; files whose
// top level encoding/json could read differently are left to one pass.
func TestReadPiecesSameAsOnePass(t *testing.T) {
	for seed := range uint64(60) {
		src := writeBytes(t, randomFile(seed))
		for _, pieces := range []int{2, 3, 7} {
			if !samePieces(t, src, pieces) && bytes.Count(src, []byte(`"mode"`)) >= pieces {
				t.Fatalf("seed %d, %d pieces: refused a file Write wrote", seed, pieces)
			}
		}
	}
	var buf bytes.Buffer
	if err := Write(&File{Lineage: "l", State: independentState(500)}, &buf); err != nil {
		t.Fatal(err)
	}
	if !samePieces(t, buf.Bytes(), 4) {
		t.Fatal("refused 500 independent resources")
	}
	paths, _ := filepath.Glob("testdata/*.tfstate")
	for _, p := range append(paths, fixturePath) {
		if src, err := os.ReadFile(p); err == nil {
			samePieces(t, src, 2)
		}
	}
	for _, src := range []string{
		`{"version":4,"resources":[{"mode":"managed"},{"mode":"data"}],"Resources":[]}`,
		`{"version":4,"resources":[{"mode":"managed"},{"mode":"data"}],"resources":[]}`,
		`{"version":4,"resourc\u0065s":[],"resources":[{"mode":"managed"},{"mode":"data"}]}`,
		`{"version":4,"resources":[{"mode":"managed"},{"mode":"data"},]}`,
		`{"version":4,"resources":[{"mode":"managed"} {"mode":"data"}]}`,
		`{"version":4,"resources":[{"mode":"managed"},{"mode":"data"}]} x`,
		`{"version":4,"resources":[{"mode":"managed"},{"mode":"data"]]}`,
		`{"version":3,"resources":[{"mode":"managed"},{"mode":"data"}]}`,
		`{"version":4,"resources":[{"mode":"managed"},7]}`,
	} {
		if _, ok, _ := readPieces([]byte(src), 2, 0); ok {
			t.Errorf("accepted %s", src)
		}
	}
}

// FuzzReadPieces: for any input, reading in pieces either declines or
// gives what one pass gives.
func FuzzReadPieces(f *testing.F) {
	f.Add([]byte(`{"version":4,"serial":1,"lineage":"l","resources":[{"mode":"managed","type":"null_resource","name":"r","provider":"provider[\"registry.terraform.io/hashicorp/null\"]","instances":[{"schema_version":0,"attributes":{"id":"1"}}]},{"mode":"managed","type":"null_resource","name":"s","provider":"provider[\"registry.terraform.io/hashicorp/null\"]","instances":[]}]}`))
	f.Add([]byte(`{"version":4,"resources":[null,{"mode":"managed","name":"x\"]}"}],"outputs":{}}`))
	for seed := range uint64(5) {
		var buf bytes.Buffer
		if err := Write(randomFile(seed), &buf); err == nil {
			f.Add(buf.Bytes())
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		samePieces(t, src, 2)
		samePieces(t, src, 3)
	})
}

// BenchmarkReadParallel reads the state of n independent resources with
// the resources array decoded in pieces on every core and in one pass.
// Run: go test -run '^$' -bench ReadParallel -benchmem ./states/statefile/
func BenchmarkReadParallel(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		var buf bytes.Buffer
		if err := Write(&File{Lineage: "l", State: independentState(n)}, &buf); err != nil {
			b.Fatal(err)
		}
		for _, mode := range []struct {
			name string
			min  int
		}{{"parallel", parallelReadMin}, {"onepass", math.MaxInt}} {
			b.Run(fmt.Sprintf("%d/%s", n, mode.name), func(b *testing.B) {
				saved := parallelReadMin
				parallelReadMin = mode.min
				defer func() { parallelReadMin = saved }()
				b.SetBytes(int64(buf.Len()))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := Read(bytes.NewReader(buf.Bytes())); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
