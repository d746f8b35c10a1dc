package states

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/addrs"
)

func TestSortedDependencies(t *testing.T) {
	cr := func(mod addrs.Module, name string) addrs.ConfigResource {
		return addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "t", Name: name}.InModule(mod)
	}
	a, b, m := cr(nil, "a"), cr(nil, "b"), cr(addrs.Module{"x"}, "a")
	strs := func(deps []addrs.ConfigResource) []string {
		var out []string
		for _, d := range deps {
			out = append(out, d.String())
		}
		return out
	}
	for _, tc := range []struct {
		name   string
		in     []addrs.ConfigResource
		want   []string
		shared bool // the input is returned as is
	}{
		{"none", nil, nil, false},
		{"sorted", []addrs.ConfigResource{m, a, b}, []string{"module.x.t.a", "t.a", "t.b"}, true},
		{"unsorted", []addrs.ConfigResource{b, a, m}, []string{"module.x.t.a", "t.a", "t.b"}, false},
		{"duplicates", []addrs.ConfigResource{a, b, a}, []string{"t.a", "t.b"}, false},
		{"sorted duplicates", []addrs.ConfigResource{a, a}, []string{"t.a"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := append([]addrs.ConfigResource(nil), tc.in...)
			got := SortedDependencies(in)
			if d := cmp.Diff(tc.want, strs(got)); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
			if shared := len(got) > 0 && &got[0] == &in[0]; shared != tc.shared {
				t.Errorf("shared = %v, want %v", shared, tc.shared)
			}
			if d := cmp.Diff(strs(tc.in), strs(in)); d != "" {
				t.Errorf("input modified (-want +got):\n%s", d)
			}
		})
	}
}

// TestSortedDependenciesSortedNoStrings: the usual case, a list already
// sorted (a chain's transitive dependencies: O(n²) in all), is checked
// without building a string per address.
func TestSortedDependenciesSortedNoStrings(t *testing.T) {
	var deps []addrs.ConfigResource
	for i := range 1000 {
		deps = append(deps, addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "null_resource", Name: fmt.Sprintf("r%04d", i)}.InModule(nil))
	}
	allocs := testing.AllocsPerRun(10, func() {
		if got := SortedDependencies(deps); len(got) != len(deps) {
			t.Fatalf("got %d dependencies, want %d", len(got), len(deps))
		}
	})
	if allocs > 4 {
		t.Errorf("SortedDependencies of 1,000 sorted addresses made %.0f allocations, want at most 4", allocs)
	}
}
