package review

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/plankit/plankit/addrs"
)

// MaxInstanceNodes is the largest change set the graph draws one node per
// resource instance for; a larger one is drawn one node per module (the
// root module included), which keeps the layout and the page fast.
const MaxInstanceNodes = 150

// actionColors are the fill colours of the graph's nodes by filter key.
var actionColors = map[string]string{
	"create":  "#2da44e",
	"update":  "#d4a72c",
	"delete":  "#cf222e",
	"replace": "#e16f24",
	"read":    "#54aeff",
	"forget":  "#8c959f",
	"import":  "#1b7c83",
	"move":    "#8250df",
	"noop":    "#d0d7de",
}

// severity orders the actions for a module node's colour: the most severe
// action in it wins.
var severity = map[string]int{"delete": 8, "replace": 7, "update": 6, "create": 5, "forget": 4, "import": 3, "move": 2, "read": 1}

// graph is the change set's dependency graph, before layout.
type graph struct {
	nodes []gnode
	edges [][2]int // dependency -> dependent
	// collapsed means one node per module.
	collapsed bool
}

type gnode struct {
	id     string // the DOM id of the node's change (or module group)
	label  string
	action string
	module string // the module filter value for a module node
}

// configDeps reads the references between resources out of show -json's
// "configuration" member: for each resource (its static module path and
// address, "module.a.module.b.null_resource.x" or "null_resource.x") the
// resources and module calls its expressions, count, for_each and
// depends_on refer to, as static addresses ("module.a.null_resource.y",
// "module.a.module.c" for everything in a module call). A module call's
// references count for every resource in it.
func configDeps(raw json.RawMessage) map[string][]string {
	if len(raw) == 0 {
		return nil
	}
	type module struct {
		Resources []struct {
			Address     string          `json:"address"`
			Expressions json.RawMessage `json:"expressions"`
			Count       json.RawMessage `json:"count_expression"`
			ForEach     json.RawMessage `json:"for_each_expression"`
			DependsOn   []string        `json:"depends_on"`
		} `json:"resources"`
		ModuleCalls map[string]json.RawMessage `json:"module_calls"`
	}
	type call struct {
		Expressions json.RawMessage `json:"expressions"`
		Count       json.RawMessage `json:"count_expression"`
		ForEach     json.RawMessage `json:"for_each_expression"`
		DependsOn   []string        `json:"depends_on"`
		Module      json.RawMessage `json:"module"`
	}
	var cfg struct {
		RootModule json.RawMessage `json:"root_module"`
	}
	if json.Unmarshal(raw, &cfg) != nil {
		return nil
	}
	out := map[string][]string{}
	var walk func(raw json.RawMessage, prefix string, inherited []string)
	walk = func(raw json.RawMessage, prefix string, inherited []string) {
		var m module
		if json.Unmarshal(raw, &m) != nil {
			return
		}
		for _, r := range m.Resources {
			refs := append(slices.Clone(inherited), resolveRefs(prefix, collectRefs(r.Expressions, r.Count, r.ForEach), r.DependsOn)...)
			out[prefix+r.Address] = refs
		}
		for name, rawCall := range m.ModuleCalls {
			var c call
			if json.Unmarshal(rawCall, &c) != nil {
				continue
			}
			refs := append(slices.Clone(inherited), resolveRefs(prefix, collectRefs(c.Expressions, c.Count, c.ForEach), c.DependsOn)...)
			walk(c.Module, prefix+"module."+name+".", refs)
		}
	}
	walk(cfg.RootModule, "", nil)
	return out
}

// collectRefs gathers every "references" array in the expressions.
func collectRefs(raws ...json.RawMessage) []string {
	var refs []string
	var visit func(v any)
	visit = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if k == "references" {
					if list, ok := x.([]any); ok {
						for _, r := range list {
							if s, ok := r.(string); ok {
								refs = append(refs, s)
							}
						}
					}
					continue
				}
				visit(x)
			}
		case []any:
			for _, x := range v {
				visit(x)
			}
		}
	}
	for _, raw := range raws {
		var v any
		if len(raw) > 0 && json.Unmarshal(raw, &v) == nil {
			visit(v)
		}
	}
	return refs
}

// resolveRefs turns references made in the module at prefix into the
// static addresses of the resources ("TYPE.NAME", "data.TYPE.NAME") and
// module calls ("module.NAME") they name; other references (variables,
// locals, each, count, path) are dropped.
func resolveRefs(prefix string, refs, dependsOn []string) []string {
	var out []string
	for _, r := range append(refs, dependsOn...) {
		parts := strings.Split(r, ".")
		for i, p := range parts {
			if j := strings.IndexByte(p, '['); j >= 0 {
				parts[i] = p[:j]
			}
		}
		var addr string
		switch parts[0] {
		case "var", "local", "each", "count", "path", "terraform", "self":
			continue
		case "data":
			if len(parts) < 3 {
				continue
			}
			addr = strings.Join(parts[:3], ".")
		case "module":
			if len(parts) < 2 {
				continue
			}
			addr = strings.Join(parts[:2], ".")
		default:
			if len(parts) < 2 {
				continue
			}
			addr = strings.Join(parts[:2], ".")
		}
		if !slices.Contains(out, prefix+addr) {
			out = append(out, prefix+addr)
		}
	}
	return out
}

// staticKey is the static address of an instance's resource:
// "module.a.module.b.null_resource.x".
func staticKey(addr addrs.AbsResourceInstance) string {
	return addr.ContainingResource().Config().String()
}

// staticModule is the static path of an instance's module: "module.a.module.b", "" for the root.
func staticModule(addr addrs.AbsResourceInstance) string {
	return addr.Module.Module().String()
}

// buildGraph makes the graph of an archive's changes (its.items).
func buildGraph(a *Archive, its []*item, ai int) *graph {
	deps := configDeps(a.Configuration)
	// The prior state's recorded dependencies add what the configuration
	// does not say (and are all there is without it).
	addStateDeps := func(it *item) []string {
		var out []string
		if a.Plan.PriorState == nil {
			return nil
		}
		ri := a.Plan.PriorState.ResourceInstance(it.rc.Addr)
		if ri == nil || ri.Current == nil {
			return nil
		}
		for _, d := range ri.Current.Dependencies {
			out = append(out, d.String())
		}
		return out
	}
	// depsOf lists the static addresses an item depends on; a
	// dependency on "module.x" (prefix) stands for everything in it.
	depsOf := func(it *item) []string {
		return append(slices.Clone(deps[staticKey(it.rc.Addr)]), addStateDeps(it)...)
	}
	matches := func(dep, key string) bool {
		return key == dep || isModuleRef(dep) && strings.HasPrefix(key, dep+".")
	}
	g := &graph{}
	if len(its) <= MaxInstanceNodes {
		byKey := map[string][]int{}
		for i, it := range its {
			g.nodes = append(g.nodes, gnode{id: it.id, label: it.addr, action: it.action})
			byKey[staticKey(it.rc.Addr)] = append(byKey[staticKey(it.rc.Addr)], i)
		}
		for i, it := range its {
			for _, d := range depsOf(it) {
				for key, js := range byKey {
					if !matches(d, key) {
						continue
					}
					for _, j := range js {
						// A reference inside a module that has several
						// instances joins the instances of one of them.
						sameStatic := staticModule(its[j].rc.Addr) == staticModule(it.rc.Addr)
						if j == i || !isModuleRef(d) && sameStatic && !its[j].rc.Addr.Module.Equal(it.rc.Addr.Module) {
							continue
						}
						g.edges = append(g.edges, [2]int{j, i})
					}
				}
			}
		}
	} else {
		g.collapsed = true
		index := map[string]int{}
		type agg struct {
			n       int
			actions map[string]int
		}
		var aggs []*agg
		for _, it := range its {
			m := staticModule(it.rc.Addr)
			k, ok := index[m]
			if !ok {
				k = len(g.nodes)
				index[m] = k
				g.nodes = append(g.nodes, gnode{id: fmt.Sprintf("m%d-%d", ai, k), module: moduleLabel(m)})
				aggs = append(aggs, &agg{actions: map[string]int{}})
			}
			aggs[k].n++
			aggs[k].actions[it.action]++
		}
		for k, ag := range aggs {
			best := ""
			var parts []string
			keys := make([]string, 0, len(ag.actions))
			for act := range ag.actions {
				keys = append(keys, act)
			}
			slices.SortFunc(keys, func(x, y string) int { return severity[y] - severity[x] })
			for _, act := range keys {
				if best == "" {
					best = act
				}
				parts = append(parts, fmt.Sprintf("%d %s", ag.actions[act], act))
			}
			g.nodes[k].action = best
			g.nodes[k].label = fmt.Sprintf("%s\n%d changes: %s", g.nodes[k].module, ag.n, strings.Join(parts, ", "))
		}
		seen := map[[2]int]bool{}
		for _, it := range its {
			to := index[staticModule(it.rc.Addr)]
			for _, d := range depsOf(it) {
				for m, from := range index {
					if from == to || seen[[2]int{from, to}] {
						continue
					}
					// d names a resource in module m, or a module call
					// that is m or contains it.
					dm := d
					if !isModuleRef(d) {
						dm = strings.TrimSuffix(d, "."+lastTwo(d))
						if dm == d {
							dm = ""
						}
					}
					if m == dm || isModuleRef(d) && strings.HasPrefix(m, d+".") {
						seen[[2]int{from, to}] = true
						g.edges = append(g.edges, [2]int{from, to})
					}
				}
			}
		}
	}
	return g
}

// moduleLabel is how a module node is named ("root module" for "").
func moduleLabel(m string) string {
	if m == "" {
		return "root module"
	}
	return m
}

// isModuleRef reports whether a static address names a module call
// (ends in "module.NAME").
func isModuleRef(s string) bool {
	parts := strings.Split(s, ".")
	return len(parts) >= 2 && parts[len(parts)-2] == "module"
}

// lastTwo is the resource part of a static resource address: "TYPE.NAME" or "data.TYPE.NAME".
func lastTwo(s string) string {
	parts := strings.Split(s, ".")
	n := 2
	if len(parts) >= 3 && parts[len(parts)-3] == "data" {
		n = 3
	}
	if len(parts) < n {
		return s
	}
	return strings.Join(parts[len(parts)-n:], ".")
}

// dot is the graph in Graphviz's language: each node's id is its DOM id
// (Graphviz puts it on the node's <g> element), its colour its action's.
func (g *graph) dot() string {
	var b strings.Builder
	b.WriteString("digraph changes {\n  rankdir=LR;\n  bgcolor=\"transparent\";\n")
	b.WriteString("  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=11, fontcolor=\"#1f2328\", color=\"#57606a\"];\n")
	b.WriteString("  edge [color=\"#8c959f\", arrowsize=0.7];\n")
	for i, n := range g.nodes {
		color := actionColors[n.action]
		if color == "" {
			color = actionColors["noop"]
		}
		fmt.Fprintf(&b, "  n%d [id=%s, label=%s, tooltip=%s, fillcolor=%s, class=%s];\n", i,
			dotQuote("g-"+n.id), dotQuote(n.label), dotQuote(n.label+" ("+n.action+")"), dotQuote(color), dotQuote("gnode act-"+n.action))
	}
	slices.SortFunc(g.edges, func(x, y [2]int) int {
		if x[0] != y[0] {
			return x[0] - y[0]
		}
		return x[1] - y[1]
	})
	g.edges = slices.Compact(g.edges)
	for _, e := range g.edges {
		fmt.Fprintf(&b, "  n%d -> n%d;\n", e[0], e[1])
	}
	b.WriteString("}\n")
	return b.String()
}

// dotQuote quotes s as a DOT string; backslashes are doubled so that
// Graphviz's label escapes (\N, \G, \l ...) stay literal text, and
// newlines become \n line breaks.
func dotQuote(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	s = strings.ReplaceAll(s, `"`, `\"`)
	s = strings.ReplaceAll(s, "\r", "")
	s = strings.ReplaceAll(s, "\n", `\n`)
	return `"` + s + `"`
}

// Layout turns a graph in the DOT language into an SVG element (no XML
// prolog). It is ExecLayout, which runs the plan-layout program; tests
// set layout.SVG, the same engine in process.
var Layout = ExecLayout

// layoutEnv names the plan-layout program to run, overriding the search.
const layoutEnv = "PLANKIT_LAYOUT"

// ExecLayout lays dot out by running the plan-layout program (package
// layout says why it is a program of its own): the one named by
// $PLANKIT_LAYOUT, else the one beside this program, else the one on PATH.
func ExecLayout(ctx context.Context, dot []byte) ([]byte, error) {
	path, err := layoutProgram()
	if err != nil {
		return nil, err
	}
	var out, errb bytes.Buffer
	cmd := exec.CommandContext(ctx, path)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(dot), &out, &errb
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errb.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("laying out the graph with %s: %s", path, msg)
	}
	return out.Bytes(), nil
}

// layoutProgram finds the plan-layout program.
func layoutProgram() (string, error) {
	const name = "plan-layout"
	if p := os.Getenv(layoutEnv); p != "" {
		return p, nil
	}
	if exe, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		p := filepath.Join(filepath.Dir(exe), name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("drawing the dependency graph needs the %s program, built beside plan and apply by `go build -o bin/ ./cmd/...` (or `go install ./cmd/...`); it is neither beside this program nor on PATH (or set %s to its path)", name, layoutEnv)
}

// layout lays the graph out with Graphviz's dot engine and returns the
// SVG element, ready to inline in HTML.
func layout(ctx context.Context, g *graph) ([]byte, error) {
	if len(g.nodes) == 0 {
		return nil, nil
	}
	return Layout(ctx, []byte(g.dot()))
}
