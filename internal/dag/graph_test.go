package dag

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with testdata/name, rewriting it under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Fatalf("%s (-want +got):\n%s", name, diff)
	}
}

// exampleGraph is a small Terraform-like graph, inserted out of name order.
func exampleGraph() *Graph[string] {
	g := New[string](nil)
	g.Connect("root", "output.ip")
	g.Connect("output.ip", "aws_instance.web")
	g.Connect("aws_instance.web", "aws_security_group.sg")
	g.Connect("aws_instance.web", `provider["aws"]`)
	g.Connect("aws_security_group.sg", `provider["aws"]`)
	g.Connect("root", "aws_instance.web")
	return g
}

func TestGraphBasics(t *testing.T) {
	g := exampleGraph()
	if g.Add("root") || !g.Add("var.x") {
		t.Fatal("Add reports novelty wrongly")
	}
	if g.Connect("root", "output.ip") {
		t.Fatal("duplicate edge reported new")
	}
	if g.Len() != 6 || g.EdgeCount() != 6 {
		t.Fatalf("Len %d EdgeCount %d", g.Len(), g.EdgeCount())
	}
	if diff := cmp.Diff([]string{"output.ip", "aws_instance.web"}, g.DownEdges("root")); diff != "" {
		t.Fatal(diff)
	}
	if diff := cmp.Diff([]string{"aws_instance.web", "aws_security_group.sg"}, g.UpEdges(`provider["aws"]`)); diff != "" {
		t.Fatal(diff)
	}
	if diff := cmp.Diff([]string{"root", "var.x"}, g.Roots()); diff != "" {
		t.Fatal(diff)
	}
	if !g.HasEdge("root", "output.ip") || g.HasEdge("output.ip", "root") || g.HasEdge("nope", "root") {
		t.Fatal("HasEdge")
	}
	if !g.Disconnect("root", "aws_instance.web") || g.Disconnect("root", "aws_instance.web") || g.EdgeCount() != 5 {
		t.Fatal("Disconnect")
	}
	if g.DownEdges("nope") != nil || g.UpEdges("nope") != nil {
		t.Fatal("edges of an unknown vertex")
	}
	checkUpMirrorsDownString(t, g)
}

func checkUpMirrorsDownString(t *testing.T, g *Graph[string]) {
	t.Helper()
	n := 0
	for _, v := range g.Vertices() {
		for _, u := range g.UpEdges(v) {
			if !g.HasEdge(u, v) {
				t.Fatalf("up edge %s<-%s without down edge", v, u)
			}
			n++
		}
	}
	if n != g.EdgeCount() {
		t.Fatalf("%d up edges, EdgeCount %d", n, g.EdgeCount())
	}
}

// TestRemoveAndCompact removes most vertices (forcing compaction) and
// checks order, edges and re-adding.
func TestRemoveAndCompact(t *testing.T) {
	g := chain(300)
	g.Connect(5, 5)
	for i := 0; i < 300; i++ {
		if i%10 != 5 && !g.Remove(i) {
			t.Fatalf("Remove(%d) false", i)
		}
	}
	if g.Remove(0) {
		t.Fatal("removed twice")
	}
	var want []int
	for i := 5; i < 300; i += 10 {
		want = append(want, i)
	}
	if diff := cmp.Diff(want, g.Vertices()); diff != "" {
		t.Fatal(diff)
	}
	if g.EdgeCount() != 1 || !g.HasEdge(5, 5) {
		t.Fatalf("edges %v", g.Edges())
	}
	g.Connect(15, 25)
	g.Add(0) // re-added vertices go last
	if diff := cmp.Diff(append(want, 0), g.Vertices()); diff != "" {
		t.Fatal(diff)
	}
	if diff := cmp.Diff([]Edge[int]{{5, 5}, {15, 25}}, g.Edges()); diff != "" {
		t.Fatal(diff)
	}
	g.Remove(5)
	if g.EdgeCount() != 1 {
		t.Fatalf("self edge not dropped with its vertex: %d edges", g.EdgeCount())
	}
	checkUpMirrorsDown(t, g)
}

func TestCopyIsIndependent(t *testing.T) {
	g := exampleGraph()
	g.Remove("output.ip")
	c := g.Copy()
	if diff := cmp.Diff(g.String(), c.String()); diff != "" {
		t.Fatal(diff)
	}
	if diff := cmp.Diff(g.Edges(), c.Edges()); diff != "" {
		t.Fatal(diff)
	}
	c.Connect("root", "new")
	if g.Has("new") {
		t.Fatal("copy shares state")
	}
}

func TestStringAndDotGolden(t *testing.T) {
	g := exampleGraph()
	golden(t, "example.txt", g.String())
	golden(t, "example.dot", g.Dot(DotOptions[string]{}))
	golden(t, "example-reverse.dot", g.Dot(DotOptions[string]{
		Reverse: true,
		Label:   func(v string) string { return strings.ToUpper(v) },
	}))
	// Insertion order does not show.
	h := New[string](nil)
	for _, e := range slicesReversed(g.Edges()) {
		h.Connect(e.From, e.To)
	}
	if g.String() != h.String() || g.Dot(DotOptions[string]{}) != h.Dot(DotOptions[string]{}) {
		t.Fatal("String or Dot depends on insertion order")
	}
}

func slicesReversed[T any](s []T) []T {
	out := make([]T, len(s))
	for i, x := range s {
		out[len(s)-1-i] = x
	}
	return out
}

func TestNameFunction(t *testing.T) {
	type addr struct{ kind, name string }
	g := New(func(a addr) string { return a.kind + "." + a.name })
	g.Connect(addr{"aws_instance", "a"}, addr{"aws_instance", "b"})
	g.Connect(addr{"aws_instance", "b"}, addr{"aws_instance", "a"})
	err := g.Validate(ValidateOptions{})
	if err == nil || err.Error() != "Cycle: aws_instance.a, aws_instance.b, aws_instance.a" {
		t.Fatalf("error %v", err)
	}
	if !strings.Contains(g.String(), "aws_instance.a\n  aws_instance.b\n") {
		t.Fatalf("String:\n%s", g)
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name  string
		edges [][2]string
		opts  ValidateOptions
		want  string // "" for valid
	}{
		{"valid", [][2]string{{"root", "a"}, {"a", "b"}}, ValidateOptions{RequireSingleRoot: true}, ""},
		{"two roots allowed", [][2]string{{"x", "a"}, {"y", "a"}}, ValidateOptions{}, ""},
		{"two roots", [][2]string{{"x", "a"}, {"y", "a"}}, ValidateOptions{RequireSingleRoot: true}, "multiple roots: x, y"},
		{"self reference", [][2]string{{"root", "a"}, {"a", "a"}}, ValidateOptions{RequireSingleRoot: true}, "Self reference: a"},
		{
			"two cycles and no root",
			[][2]string{{"c", "a"}, {"a", "b"}, {"b", "c"}, {"d", "e"}, {"e", "d"}},
			ValidateOptions{RequireSingleRoot: true},
			"no roots found\nCycle: c, a, b, c\nCycle: d, e, d",
		},
		{
			// One component, covered by two cycles through the shared hub.
			"figure eight",
			[][2]string{{"root", "hub"}, {"hub", "x"}, {"x", "hub"}, {"hub", "y"}, {"y", "hub"}},
			ValidateOptions{},
			"Cycle: hub, x, hub\nCycle: y, hub, y",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := New[string](nil)
			for _, e := range tt.edges {
				g.Connect(e[0], e[1])
			}
			err := g.Validate(tt.opts)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Fatalf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestValidateErrorTypes(t *testing.T) {
	g := New[string](nil)
	g.Connect("a", "b")
	g.Connect("b", "a")
	g.Connect("c", "c")
	err := g.Validate(ValidateOptions{RequireSingleRoot: true})
	var ce *CycleError[string]
	var se *SelfReferenceError[string]
	var re *RootError[string]
	if !errors.As(err, &ce) || !errors.As(err, &se) || !errors.As(err, &re) {
		t.Fatalf("error types missing from %v", err)
	}
	if diff := cmp.Diff([][]string{{"a", "b", "a"}}, ce.Cycles); diff != "" {
		t.Fatal(diff)
	}
	if diff := cmp.Diff([]string{"c"}, se.Vertices); diff != "" {
		t.Fatal(diff)
	}
	if diff := cmp.Diff([]string(nil), re.Roots, cmpopts.EquateEmpty()); diff != "" {
		t.Fatal(diff)
	}
	if _, err := g.TopologicalOrder(); !errors.As(err, &ce) {
		t.Fatalf("TopologicalOrder: %v", err)
	}
}

// TestCycleCap: a component needing more than the cap of cycles reports
// how many vertices it left out.
func TestCycleCap(t *testing.T) {
	g := New[int](nil)
	for i := 1; i <= maxCyclesPerComponent+5; i++ {
		g.Connect(0, i)
		g.Connect(i, 0)
	}
	var ce *CycleError[int]
	if err := g.Validate(ValidateOptions{}); !errors.As(err, &ce) {
		t.Fatal(err)
	}
	// The first cycle covers 0 and 1, then one per remaining petal.
	if len(ce.Cycles) != maxCyclesPerComponent || ce.Omitted != 5 {
		t.Fatalf("%d cycles, %d omitted", len(ce.Cycles), ce.Omitted)
	}
	if !strings.HasSuffix(ce.Error(), "... and 5 more vertices in the same cycles") {
		t.Fatal(ce.Error()[len(ce.Error())-80:])
	}
}
