package dag

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDepthAndBreadthFirst(t *testing.T) {
	// a → b → d, a → c → d, c → e; visited from a, and back from d.
	g := New[string](nil)
	g.Connect("a", "b")
	g.Connect("a", "c")
	g.Connect("b", "d")
	g.Connect("c", "d")
	g.Connect("c", "e")
	record := func(walk func([]string, func(string, int) error) error, start ...string) []string {
		var out []string
		if err := walk(start, func(v string, d int) error {
			out = append(out, fmt.Sprintf("%s@%d", v, d))
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return out
	}
	tests := []struct {
		name string
		got  []string
		want []string
	}{
		{"dfs", record(g.DepthFirstWalk, "a"), []string{"a@0", "b@1", "d@2", "c@1", "e@2"}},
		{"bfs", record(g.BreadthFirstWalk, "a"), []string{"a@0", "b@1", "c@1", "d@2", "e@2"}},
		{"reverse dfs", record(g.ReverseDepthFirstWalk, "d"), []string{"d@0", "b@1", "a@2", "c@1"}},
		{"reverse bfs", record(g.ReverseBreadthFirstWalk, "d", "e"), []string{"d@0", "e@0", "b@1", "c@1", "a@2"}},
		{"unknown start", record(g.DepthFirstWalk, "zz"), nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, tt.got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
	stop := errors.New("stop")
	n := 0
	err := g.BreadthFirstWalk([]string{"a"}, func(v string, d int) error {
		n++
		if v == "b" {
			return stop
		}
		return nil
	})
	if err != stop || n != 2 {
		t.Fatalf("err %v after %d visits", err, n)
	}
}
