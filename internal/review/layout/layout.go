// Package layout lays a graph out with Graphviz's dot engine (Graphviz
// compiled to WebAssembly, as github.com/goccy/go-graphviz ships it) and
// renders it as SVG.
//
// It is kept apart from package review, and runs in a program of its own
// (cmd/plan-layout), because go-graphviz compiles and instantiates its
// WebAssembly module while the program starts (in package
// initialisation, with a compilation cache under the temporary directory,
// panicking when that directory cannot be written): linked into plan and
// apply, every command would pay for a graph that only
// `plan show -format=html` draws, and would fail where the cache cannot
// be written.
package layout

import (
	"bytes"
	"context"
	"fmt"
	"sync"

	"github.com/goccy/go-graphviz"
)

// mu serialises the layouts: one WebAssembly Graphviz instance is not
// safe for concurrent use.
var mu sync.Mutex

// SVG lays out dot (a graph in the DOT language) with the dot engine and
// returns the SVG element (no XML prolog), ready to inline in HTML.
func SVG(ctx context.Context, dot []byte) ([]byte, error) {
	mu.Lock()
	defer mu.Unlock()
	gv, err := graphviz.New(ctx)
	if err != nil {
		return nil, fmt.Errorf("starting Graphviz: %w", err)
	}
	defer gv.Close()
	parsed, err := graphviz.ParseBytes(dot)
	if err != nil {
		return nil, fmt.Errorf("Graphviz refused the graph: %w", err)
	}
	defer parsed.Close()
	var buf bytes.Buffer
	if err := gv.Render(ctx, parsed, graphviz.SVG, &buf); err != nil {
		return nil, fmt.Errorf("laying out the graph: %w", err)
	}
	svg := buf.Bytes()
	if i := bytes.Index(svg, []byte("<svg")); i >= 0 {
		svg = svg[i:]
	}
	return svg, nil
}
