// Package gen generates the configurations plankit's scale benchmarks
// plan and apply: N terraform_data resources in a few dependency shapes.
// The output is deterministic for a shape and N.
package gen

import (
	"fmt"
	"strings"
)

// Shape is a dependency shape.
type Shape string

const (
	// Independent is N unrelated resource blocks r0..rN-1.
	Independent Shape = "independent"
	// Chain is N blocks, each referring to the previous one's output.
	Chain Shape = "chain"
	// FanIn is ten root blocks and N-10 blocks each referring to two of them.
	FanIn Shape = "fanin"
	// Count is one block with count = N.
	Count Shape = "count"
	// Hub is N/2 independent blocks h0.., one local listing all of their
	// outputs, and N/2 blocks d0.. each referring to that local: every d
	// depends on every h through one node.
	Hub Shape = "hub"
	// Objects is N unrelated blocks whose input is an object
	// { idx, name }: issue 35's 100,000-resource case.
	Objects Shape = "objects"
)

// Shapes lists every shape.
var Shapes = []Shape{Independent, Chain, FanIn, Count, Hub, Objects}

// Config returns main.tf for n resources of shape s. O(n).
func Config(s Shape, n int) (string, error) {
	var b strings.Builder
	b.Grow(n * 80)
	switch s {
	case Independent:
		for i := range n {
			fmt.Fprintf(&b, "resource \"terraform_data\" \"r%d\" {\n  input = \"v%d\"\n}\n", i, i)
		}
	case Chain:
		b.WriteString("resource \"terraform_data\" \"r0\" {\n  input = \"start\"\n}\n")
		for i := 1; i < n; i++ {
			fmt.Fprintf(&b, "resource \"terraform_data\" \"r%d\" {\n  input = terraform_data.r%d.output\n}\n", i, i-1)
		}
	case FanIn:
		roots := min(n, 10)
		for i := range roots {
			fmt.Fprintf(&b, "resource \"terraform_data\" \"root%d\" {\n  input = \"root%d\"\n}\n", i, i)
		}
		for i := roots; i < n; i++ {
			fmt.Fprintf(&b, "resource \"terraform_data\" \"r%d\" {\n  input = [terraform_data.root%d.output, terraform_data.root%d.output]\n}\n",
				i, i%roots, (i+1)%roots)
		}
	case Count:
		fmt.Fprintf(&b, "resource \"terraform_data\" \"r\" {\n  count = %d\n  input = \"v${count.index}\"\n}\n", n)
	case Hub:
		half := n / 2
		for i := range half {
			fmt.Fprintf(&b, "resource \"terraform_data\" \"h%d\" {\n  input = \"h%d\"\n}\n", i, i)
		}
		b.WriteString("locals {\n  all = [\n")
		for i := range half {
			fmt.Fprintf(&b, "    terraform_data.h%d.output,\n", i)
		}
		b.WriteString("  ]\n}\n")
		for i := range n - half {
			fmt.Fprintf(&b, "resource \"terraform_data\" \"d%d\" {\n  input = \"d%d-${length(local.all)}\"\n}\n", i, i)
		}
	case Objects:
		for i := range n {
			fmt.Fprintf(&b, "resource \"terraform_data\" \"r%d\" {\n  input = { idx = %d, name = \"r%d\" }\n}\n", i, i, i)
		}
	default:
		return "", fmt.Errorf("unknown shape %q (want one of %v)", s, Shapes)
	}
	return b.String(), nil
}
