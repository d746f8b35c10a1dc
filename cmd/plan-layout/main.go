// Command plan-layout is the graph layout program of
// `plan show -format=html`: it reads a graph in the DOT language on
// standard input and writes its layout, an SVG element, on standard
// output. plan runs it from its own directory (or PATH, or
// $PLANKIT_LAYOUT); it is a program of its own so that the layout engine
// is not started by every plan and apply (see internal/review/layout).
package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/plankit/plankit/internal/review/layout"
)

// maxInput bounds the graph read from standard input.
const maxInput = 256 << 20

func main() {
	dot, err := io.ReadAll(io.LimitReader(os.Stdin, maxInput+1))
	if err == nil && len(dot) > maxInput {
		err = fmt.Errorf("the graph on standard input is larger than %d MiB", maxInput>>20)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "plan-layout:", err)
		os.Exit(1)
	}
	svg, err := layout.SVG(context.Background(), dot)
	if err != nil {
		fmt.Fprintln(os.Stderr, "plan-layout:", err)
		os.Exit(1)
	}
	if _, err := os.Stdout.Write(svg); err != nil {
		os.Exit(1)
	}
}
