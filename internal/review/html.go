package review

import (
	"bufio"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"slices"
	"strings"
)

//go:embed report.css
var reportCSS string

//go:embed report.js
var reportJS string

// HTML writes the review report of the archives: one self-contained HTML
// file (its style and script inline, the graph an inline SVG; a Content
// Security Policy forbids the page any request) with the summary, every
// change with its diff (filterable by action, module and resource type,
// and searchable), drift, changed outputs, failed or unknown checks, and
// each plan's dependency graph laid out by Graphviz, nodes coloured by
// action; clicking a node shows its change (or, when the graph is drawn
// per module, the module's changes). Sensitive values are hidden as in
// the human rendering.
func HTML(ctx context.Context, w io.Writer, archives []*Archive) error {
	bw := bufio.NewWriterSize(w, 256<<10)
	e := func(s string) string { return html.EscapeString(s) }
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }

	type per struct {
		its, drift []*item
		c          counts
		svg        []byte
		collapsed  bool
	}
	pers := make([]per, len(archives))
	var total counts
	modules, types := map[string]bool{}, map[string]bool{}
	groupModules := map[string]string{} // module node id -> module filter value
	for i, a := range archives {
		pers[i].its = items(i, a.Plan, false)
		pers[i].drift = items(i, a.Plan, true)
		pers[i].c = countItems(pers[i].its)
		total = total.add(pers[i].c)
		for _, it := range pers[i].its {
			modules[moduleLabel(staticModule(it.rc.Addr))] = true
			types[it.rtype] = true
		}
		g := buildGraph(a, pers[i].its, i)
		svg, err := layout(ctx, g)
		if err != nil {
			return fmt.Errorf("%s: %w", a.Name, err)
		}
		pers[i].svg, pers[i].collapsed = svg, g.collapsed
		if g.collapsed {
			for _, n := range g.nodes {
				groupModules[n.id] = n.module
			}
		}
	}

	p(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Plan review</title>
<style>%s</style>
</head>
<body>
<header><h1>Plan review</h1></header>
<main>
`, reportCSS)

	// Summary.
	p("<section id=\"summary\">\n<h2>Summary</h2>\n")
	p("<table class=\"counts\" id=\"total-counts\"><thead><tr><th>Action</th><th>Changes</th></tr></thead><tbody>\n")
	for _, r := range total.rows() {
		p("<tr data-action=\"%s\"><td>%s</td><td class=\"num\">%d</td></tr>\n", e(r[0].(string)), e(r[0].(string)), r[1])
	}
	p("</tbody></table>\n")
	for i, a := range archives {
		c := pers[i].c
		p("<div class=\"archive\" id=\"archive-%d\"><h3>%s</h3>\n<dl>", i, e(a.Name))
		p("<dt>SHA-256</dt><dd><code>%s</code></dd><dt>Signature</dt><dd>%s</dd><dt>Workspace</dt><dd><code>%s</code></dd><dt>Backend</dt><dd><code>%s</code></dd>",
			e(a.SHA256), e(a.Signature.String()), e(a.Workspace), e(a.Backend))
		if a.Plan.Errored {
			p("<dt>Status</dt><dd class=\"bad\">errored: planning stopped on errors; it cannot be applied</dd>")
		}
		p("<dt>Changes</dt><dd class=\"archive-total\" data-n=\"%d\">%d (%d destroy, %d replace)</dd></dl></div>\n",
			len(pers[i].its), len(pers[i].its), c.destroy, c.replace+c.cbd)
	}
	p("</section>\n")

	// Graphs.
	p("<section id=\"graphs\">\n<h2>Dependency graph</h2>\n<p class=\"legend\">")
	for _, k := range []string{"create", "update", "delete", "replace", "read", "forget", "import", "move"} {
		p("<span class=\"key\"><span class=\"swatch\" style=\"background:%s\"></span>%s</span> ", actionColors[k], k)
	}
	p("</p>\n")
	for i, a := range archives {
		pp := pers[i]
		note := "Click a node to show its change."
		if pp.collapsed {
			note = fmt.Sprintf("%d changes: drawn one node per module. Click a module to list its changes.", len(pp.its))
		}
		p("<div class=\"graph\" data-archive=\"%d\"><h3>%s</h3><p class=\"hint\">%s</p>\n", i, e(a.Name), e(note))
		if len(pp.svg) == 0 {
			p("<p>No changes.</p>")
		} else {
			bw.Write(pp.svg)
		}
		p("</div>\n")
	}
	p("</section>\n")

	// Changes with filters.
	p("<section id=\"changes\">\n<h2>Changes</h2>\n<div id=\"filters\">")
	p("<input id=\"search\" type=\"search\" placeholder=\"Search addresses and diffs\" aria-label=\"Search\">")
	p("<select id=\"f-action\" aria-label=\"Action\"><option value=\"\">All actions</option>")
	for _, k := range []string{"delete", "replace", "create", "update", "read", "forget", "import", "move"} {
		p("<option value=\"%s\">%s</option>", k, k)
	}
	p("</select><select id=\"f-module\" aria-label=\"Module\"><option value=\"\">All modules</option>")
	for _, m := range sortedKeys(modules) {
		p("<option value=\"%s\">%s</option>", e(m), e(m))
	}
	p("</select><select id=\"f-type\" aria-label=\"Resource type\"><option value=\"\">All resource types</option>")
	for _, t := range sortedKeys(types) {
		p("<option value=\"%s\">%s</option>", e(t), e(t))
	}
	p("</select> <span id=\"shown\"></span></div>\n<ul id=\"change-list\">\n")
	// The list is made by the page's script from one JSON array, in
	// pieces after the page has opened: the browser parses a few
	// elements, not the tens of thousands a large plan's list has, before
	// it shows the page, and a diff becomes elements only when opened.
	var records []changeRecord
	for i, a := range archives {
		for _, it := range pers[i].its {
			r := changeRecord{ID: it.id, Action: it.action, Module: moduleLabel(staticModule(it.rc.Addr)), Type: it.rtype,
				Addr: it.addr, Label: it.label, Destructive: it.kind == kindDestructive, Diff: it.diff}
			if len(archives) > 1 {
				r.Archive = a.Name
			}
			records = append(records, r)
		}
	}
	p("</ul>\n</section>\n")

	// Drift, outputs, checks.
	for i, a := range archives {
		pp := pers[i]
		prefix := ""
		if len(archives) > 1 {
			prefix = a.Name + ": "
		}
		if len(pp.drift) > 0 {
			p("<section class=\"drift\"><h2>%sDrift: objects changed outside (%d)</h2><ul>\n", e(prefix), len(pp.drift))
			for _, it := range pp.drift {
				writeChange(bw, it)
			}
			p("</ul></section>\n")
		}
		if outs := changedOutputs(a.Plan); len(outs) > 0 {
			p("<section class=\"outputs\"><h2>%sChanged outputs (%d)</h2>%s</section>\n", e(prefix), len(outs), diffHTML(outputsText(outs)))
		}
		if cs := problemChecks(a.Plan); len(cs) > 0 {
			p("<section class=\"checks\"><h2>%sFailed or unknown checks (%d)</h2><table><thead><tr><th>Status</th><th>Kind</th><th>Object</th><th>Message</th></tr></thead><tbody>\n", e(prefix), len(cs))
			for _, c := range cs {
				for _, o := range c.Objects {
					if o.Status == "pass" {
						continue
					}
					obj := o.Addr
					if obj == "" {
						obj = strings.TrimPrefix(o.Module+"."+c.Name, ".")
					}
					p("<tr class=\"%s\"><td>%s</td><td>%s</td><td><code>%s</code></td><td>%s</td></tr>\n", e(string(o.Status)), e(string(o.Status)), e(c.Kind), e(obj), e(strings.Join(o.FailureMessages, "; ")))
				}
			}
			p("</tbody></table></section>\n")
		}
	}
	gm, err := json.Marshal(groupModules)
	if err != nil {
		return err
	}
	dj, err := json.Marshal(records)
	if err != nil {
		return err
	}
	// "</script" cannot occur in JSON from encoding/json (it escapes <,
	// > and &), so the script elements hold.
	p("</main>\n<script type=\"application/json\" id=\"group-modules\">%s</script>\n<script type=\"application/json\" id=\"changes-data\">%s</script>\n<script>%s</script>\n</body>\n</html>\n", gm, dj, reportJS)
	return bw.Flush()
}

// changeRecord is a change of the list as the page's script receives it.
type changeRecord struct {
	ID          string `json:"id"`
	Action      string `json:"a"`
	Module      string `json:"m"`
	Type        string `json:"t"`
	Addr        string `json:"addr"`
	Label       string `json:"l"`
	Destructive bool   `json:"x,omitempty"`
	Archive     string `json:"n,omitempty"`
	Diff        string `json:"d"`
}

// writeChange writes one change (of the drift) as a list entry with its
// diff in a closed <details>.
func writeChange(w *bufio.Writer, it *item) {
	e := html.EscapeString
	cls := "change"
	if it.kind == kindDestructive {
		cls += " destructive"
	}
	fmt.Fprintf(w, "<li class=\"%s\" id=\"c-%s\" data-action=\"%s\" data-module=\"%s\" data-type=\"%s\" data-addr=\"%s\"><details><summary><span class=\"act act-%s\">%s</span> <code>%s</code>",
		cls, it.id, it.action, e(moduleLabel(staticModule(it.rc.Addr))), e(it.rtype), e(it.addr), it.action, e(it.label), e(it.addr))
	w.WriteString("</summary>")
	w.WriteString(diffHTML(it.diff))
	w.WriteString("</details></li>\n")
}

// diffHTML is a rendered diff as a <pre>, each changed line in a span
// whose class says what it does.
func diffHTML(diff string) string {
	var b strings.Builder
	b.Grow(len(diff) + len(diff)/4)
	b.WriteString("<pre class=\"diff\">")
	for i, line := range strings.Split(diff, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		t := strings.TrimLeft(line, " ")
		cls := ""
		switch {
		case strings.HasPrefix(t, "-/+"), strings.HasPrefix(t, "+/-"), strings.HasPrefix(t, "~"):
			cls = "chg"
		case strings.HasPrefix(t, "+"):
			cls = "add"
		case strings.HasPrefix(t, "-"):
			cls = "del"
		}
		if cls == "" {
			b.WriteString(html.EscapeString(line))
			continue
		}
		b.WriteString("<span class=\"" + cls + "\">" + html.EscapeString(line) + "</span>")
	}
	b.WriteString("</pre>")
	return b.String()
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
