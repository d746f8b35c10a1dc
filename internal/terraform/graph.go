package terraform

import (
	"errors"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/internal/dag"
	"github.com/plankit/plankit/tfdiags"
)

// Node is a vertex of a core graph. Name is its display name: the address
// it stands for ("aws_instance.a", "var.x", `provider["..."]`), used in
// graph rendering and in cycle errors.
type Node interface {
	Name() string
}

// Graph is a core graph: dag.Graph over Nodes, where an edge a→b means a
// runs after b.
type Graph struct {
	dag.Graph[Node]
}

func newGraph() *Graph {
	g := &Graph{}
	g.Graph.Name = Node.Name
	return g
}

// Transformer is one step of a graph builder: it adds nodes or edges.
type Transformer interface {
	Transform(*Graph) error
}

// graphBuilder is a declared, ordered list of transformers; the list is
// the documentation of the build order.
type graphBuilder struct {
	name  string
	steps []Transformer
}

// Build runs every step in order and validates the result (no cycle, no
// self reference, a single root). A cycle is reported as one error per
// cycle listing the addresses in cycle order. O(V+E) plus the steps.
func (b graphBuilder) Build() (*Graph, hcl.Diagnostics) {
	g := newGraph()
	for _, step := range b.steps {
		if err := step.Transform(g); err != nil {
			var diags hcl.Diagnostics
			if errors.As(err, &diags) {
				return nil, diags
			}
			return nil, hcl.Diagnostics{tfdiags.Errorf("Failed to build the "+b.name+" graph", "%s", err)}
		}
	}
	if err := g.Validate(dag.ValidateOptions{RequireSingleRoot: true}); err != nil {
		return nil, graphErrorDiags(err)
	}
	return g, nil
}

// graphErrorDiags turns a validation error into diagnostics, one per line
// (each "Cycle: a, b, a" line is its own error).
func graphErrorDiags(err error) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, line := range strings.Split(err.Error(), "\n") {
		summary := "Invalid dependency graph"
		detail := line
		if strings.HasPrefix(line, "Cycle: ") || strings.HasPrefix(line, "Self reference: ") {
			summary = "Cycle in the dependency graph"
			detail = line + "\n\nThese objects refer to each other, so none of them can be planned first. Remove one of the references (or depends_on entries) to break the cycle."
		}
		diags = append(diags, tfdiags.Error(summary, detail))
	}
	return diags
}

// rootNode is the single root every graph hangs from.
type rootNode struct{}

func (*rootNode) Name() string { return "root" }
