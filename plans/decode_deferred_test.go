package plans_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/plans/planstest"
)

// loadAll is UnmarshalDeferred's plan with every resource change replaced
// by what Load gives for it, or the first Load error.
func loadAll(b []byte) (*plans.Plan, error) {
	p, vals, _, err := plans.UnmarshalDeferred(b)
	if err != nil {
		return nil, err
	}
	if vals.Len() != len(p.Changes.Resources) {
		return nil, fmt.Errorf("Len() = %d for %d changes", vals.Len(), len(p.Changes.Resources))
	}
	for i, rc := range p.Changes.Resources {
		if rc.Before != cty.NilVal || rc.After != cty.NilVal {
			return nil, fmt.Errorf("change %d has its values before Load", i)
		}
		full, err := vals.Load(i)
		if err != nil {
			return nil, err
		}
		if full == rc {
			return nil, fmt.Errorf("Load(%d) gave the plan's own change, not a copy", i)
		}
		p.Changes.Resources[i] = full
	}
	return p, nil
}

// TestUnmarshalDeferredMatchesUnmarshal: the plan UnmarshalDeferred gives,
// with each change's values from Load, is the plan Unmarshal gives, on
// one goroutine and on several.
func TestUnmarshalDeferredMatchesUnmarshal(t *testing.T) {
	for name, p := range map[string]*plans.Plan{
		"full":  planstest.FullPlan(),
		"large": planstest.LargePlan(parallelSize),
		"empty": {Changes: plans.NewChanges()},
	} {
		b, err := plans.Marshal(p, "test")
		if err != nil {
			t.Fatal(err)
		}
		want, _, err := plans.Unmarshal(b)
		if err != nil {
			t.Fatal(err)
		}
		for _, procs := range []int{1, 4} {
			t.Run(fmt.Sprintf("%s/procs=%d", name, procs), func(t *testing.T) {
				var got *plans.Plan
				withProcs(procs, func() { got, err = loadAll(b) })
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want, got, planstest.CmpOptions()); diff != "" {
					t.Errorf("deferred decoding differs (-Unmarshal +UnmarshalDeferred):\n%s", diff)
				}
			})
		}
	}
}

// TestUnmarshalDeferredBadValue: a value that does not decode is not
// noticed until its change is loaded, and Load then reports what
// Unmarshal reports for it; the other changes load.
func TestUnmarshalDeferredBadValue(t *testing.T) {
	bad := corrupted(t, 4500)
	_, _, want := plans.Unmarshal(bad)
	if want == nil {
		t.Fatal("Unmarshal accepted the corrupted plan")
	}
	p, vals, _, err := plans.UnmarshalDeferred(bad)
	if err != nil {
		t.Fatalf("UnmarshalDeferred: %v, want the bad value left for Load", err)
	}
	if _, err := vals.Load(4499); err != nil {
		t.Errorf("Load(4499): %v", err)
	}
	_, err = vals.Load(4500)
	if err == nil || err.Error() != want.Error() {
		t.Errorf("Load(4500) error %v, want Unmarshal's %v", err, want)
	}
	if got := p.Changes.Resources[4500].Addr.String(); got != "null_resource.r[4500]" {
		t.Errorf("change 4500 is %s", got)
	}
}

// TestUnmarshalDeferredMalformed: bytes Unmarshal refuses outside the
// values are refused by UnmarshalDeferred too.
func TestUnmarshalDeferredMalformed(t *testing.T) {
	b, err := plans.Marshal(planstest.FullPlan(), "test")
	if err != nil {
		t.Fatal(err)
	}
	for name, bad := range map[string][]byte{
		"truncated":   b[:len(b)-3],
		"bad version": header(99, 0, ""),
		"garbage tag": append(append([]byte{}, b...), 0xff),
	} {
		t.Run(name, func(t *testing.T) {
			if _, _, err := plans.Unmarshal(bad); err == nil {
				t.Fatal("Unmarshal accepted it")
			}
			if _, _, _, err := plans.UnmarshalDeferred(bad); err == nil {
				t.Error("UnmarshalDeferred accepted it")
			}
		})
	}
}

// FuzzUnmarshalDeferred: whatever Unmarshal accepts, UnmarshalDeferred
// and Load accept and decode alike; whatever Unmarshal refuses is
// refused by UnmarshalDeferred or by the Load of some change.
func FuzzUnmarshalDeferred(f *testing.F) {
	for _, p := range []*plans.Plan{planstest.FullPlan(), planstest.LargePlan(3), {Changes: plans.NewChanges()}} {
		b, err := plans.Marshal(p, "fuzz")
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		want, _, werr := plans.Unmarshal(b)
		got, gerr := loadAll(b)
		switch {
		case werr == nil && gerr != nil:
			t.Fatalf("Unmarshal accepts, deferred refuses: %v", gerr)
		case werr != nil && gerr == nil:
			t.Fatalf("Unmarshal refuses (%v), deferred accepts", werr)
		case werr == nil:
			if diff := cmp.Diff(want, got, planstest.CmpOptions()); diff != "" {
				t.Fatalf("deferred decoding differs:\n%s", diff)
			}
		}
	})
}
