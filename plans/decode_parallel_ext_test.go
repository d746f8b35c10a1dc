package plans_test

import (
	"bytes"
	"runtime"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/plans/planstest"
)

// parallelSize is more changes than plans decodes on one goroutine.
const parallelSize = 3*2048 + 11

func withProcs(n int, f func()) {
	old := runtime.GOMAXPROCS(n)
	defer runtime.GOMAXPROCS(old)
	f()
}

// TestUnmarshalLargePlanParallel: a plan large enough to be decoded on
// several goroutines decodes to what one goroutine decodes (compared by
// encoding both again), and a value that does not decode is reported by
// its resource change, the first one when two are bad, as before.
func TestUnmarshalLargePlanParallel(t *testing.T) {
	enc, err := plans.Marshal(planstest.LargePlan(parallelSize), "")
	if err != nil {
		t.Fatal(err)
	}
	var one, many []byte
	for procs, out := range map[int]*[]byte{1: &one, 4: &many} {
		withProcs(procs, func() {
			got, _, err := plans.Unmarshal(enc)
			if err != nil {
				t.Fatal(err)
			}
			if *out, err = plans.Marshal(got, ""); err != nil {
				t.Fatal(err)
			}
		})
	}
	if !bytes.Equal(one, many) || !bytes.Equal(one, enc) {
		t.Errorf("decoded on 4 goroutines (%d bytes encoded again) differs from on 1 (%d) or from the original (%d)", len(many), len(one), len(enc))
	}

	bad := corrupted(t, 4500, 6000)
	var errs [2]error
	for i, procs := range []int{1, 4} {
		withProcs(procs, func() { _, _, errs[i] = plans.Unmarshal(bad) })
	}
	if errs[0] == nil || errs[1] == nil || errs[0].Error() != errs[1].Error() || !strings.Contains(errs[0].Error(), "[4500]") {
		t.Errorf("two bad values: %v on one goroutine, %v on four; want the same error naming r[4500]", errs[0], errs[1])
	}
}

// corrupted is LargePlan(parallelSize) encoded with the "name" value of
// the given changes made undecodable: a marker string whose msgpack
// header byte is replaced by 0xc1, which msgpack never uses.
func corrupted(t *testing.T, idx ...int) []byte {
	t.Helper()
	p := planstest.LargePlan(parallelSize)
	const marker = "CORRUPT-ME-HERE"
	for _, i := range idx {
		rc := p.Changes.Resources[i]
		m := rc.After.AsValueMap()
		m["name"] = cty.StringVal(marker)
		rc.After = cty.ObjectVal(m)
	}
	b, err := plans.Marshal(p, "")
	if err != nil {
		t.Fatal(err)
	}
	needle := append([]byte{0xa0 | byte(len(marker))}, marker...)
	if n := bytes.Count(b, needle); n != len(idx) {
		t.Fatalf("marker found %d times, want %d", n, len(idx))
	}
	return bytes.ReplaceAll(b, needle, append([]byte{0xc1}, marker...))
}
