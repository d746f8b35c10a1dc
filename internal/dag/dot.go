package dag

import (
	"cmp"
	"slices"
	"strings"
)

// DotOptions tunes Dot.
type DotOptions[K comparable] struct {
	// Reverse draws each arrow from the dependency to its dependent (the
	// order things happen) instead of from dependent to dependency.
	Reverse bool
	// Label gives the label drawn for a vertex; nil uses the graph's Name.
	Label func(K) string
}

// Dot renders g in Graphviz DOT. Nodes are identified by their names
// (Graph.Name), so names should be unique; nodes and edges are sorted by
// name, so the same graph always gives the same bytes whatever its
// insertion order. O((V+E) log(V+E)).
func (g *Graph[K]) Dot(opts DotOptions[K]) string {
	ids, names := g.sortedByName()
	var b strings.Builder
	b.WriteString("digraph {\n\tcompound = \"true\"\n\tnewrank = \"true\"\n")
	for _, id := range ids {
		label := names[id]
		if opts.Label != nil {
			label = opts.Label(g.keys[id])
		}
		b.WriteString("\t" + dotQuote(names[id]) + " [label = " + dotQuote(label) + "]\n")
	}
	type edge struct{ from, to string }
	edges := make([]edge, 0, g.edges)
	for _, id := range ids {
		for _, d := range g.down[id] {
			e := edge{names[id], names[d]}
			if opts.Reverse {
				e = edge{names[d], names[id]}
			}
			edges = append(edges, e)
		}
	}
	slices.SortStableFunc(edges, func(x, y edge) int {
		return cmp.Or(strings.Compare(x.from, y.from), strings.Compare(x.to, y.to))
	})
	for _, e := range edges {
		b.WriteString("\t" + dotQuote(e.from) + " -> " + dotQuote(e.to) + "\n")
	}
	b.WriteString("}\n")
	return b.String()
}

// dotEscaper escapes backslashes, quotes and newlines for a DOT string. A
// Replacer builds its lookup tables on creation, so it is made once
// rather than once per quoted name.
var dotEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)

// dotQuote quotes s as a DOT string.
func dotQuote(s string) string {
	return `"` + dotEscaper.Replace(s) + `"`
}
