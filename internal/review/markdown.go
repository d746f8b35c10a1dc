package review

import (
	"fmt"
	"html"
	"slices"
	"strings"

	"github.com/plankit/plankit/plans"
)

// DefaultMaxBytes is the default size limit of the Markdown summary: under
// GitHub's 65,536-character comment limit with room for a bot's header.
const DefaultMaxBytes = 65000

// Options are the Markdown summary's settings.
type Options struct {
	// MaxBytes is the size limit; 0 means DefaultMaxBytes.
	MaxBytes int
	// Command is how the note at the end tells the reader to see the
	// whole plan; "plan show" when empty.
	Command string
}

// TooSmallError is returned when the summary does not fit even with
// every diff and every change line left out.
type TooSmallError struct {
	Limit, Need int
}

func (e *TooSmallError) Error() string {
	return fmt.Sprintf("the summary needs at least %d bytes even with every change left out, more than the limit of %d: raise the limit (-max-bytes)", e.Need, e.Limit)
}

// piece is one part of the document: fixed text, or a change that is
// shown with its diff, on one line, or not at all.
type piece struct {
	text string // fixed text (it == nil)
	it   *item
	full string // the change with its diff
	line string // the change on one line
	// state: 0 full, 1 line, 2 left out
	state int
	// list groups the changes whose left-out lines one "more" line counts.
	list int
}

// Markdown writes the review summary of the archives (one or many) in
// Markdown that GitHub and GitLab render alike, within opts.MaxBytes as
// the package documentation's size rule says.
func Markdown(archives []*Archive, opts Options) ([]byte, error) {
	limit := opts.MaxBytes
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	command := opts.Command
	if command == "" {
		command = "plan show"
	}
	var pieces []*piece
	text := func(s string) { pieces = append(pieces, &piece{text: s}) }
	lists := 0
	addItems := func(its []*item) {
		lists++
		for _, it := range its {
			pieces = append(pieces, &piece{it: it, full: fullItem(it), line: lineItem(it), list: lists})
		}
		// The "more" line of the list goes here (see assemble).
		pieces = append(pieces, &piece{list: -lists})
	}

	var total counts
	type per struct {
		its, drift []*item
		c          counts
	}
	pers := make([]per, len(archives))
	for i, a := range archives {
		pers[i].its = items(i, a.Plan, false)
		pers[i].drift = items(i, a.Plan, true)
		pers[i].c = countItems(pers[i].its)
		total = total.add(pers[i].c)
	}

	text("## Plan review\n\n")
	if len(archives) > 1 {
		var b strings.Builder
		fmt.Fprintf(&b, "%d plans.\n\n", len(archives))
		b.WriteString("| Plan | Create | Update | Destroy | Replace | Read | Forget | Import | Move |\n")
		b.WriteString("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
		for i, a := range archives {
			c := pers[i].c
			fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %d | %d | %d |\n", tableCell(codeSpan(a.Name)),
				c.create, c.update, c.destroy, c.replace+c.cbd, c.read, c.forget, c.imports, c.moves)
		}
		fmt.Fprintf(&b, "| **Total** | %d | %d | %d | %d | %d | %d | %d | %d |\n\n", total.create, total.update,
			total.destroy, total.replace+total.cbd, total.read, total.forget, total.imports, total.moves)
		text(b.String())
	}
	for i, a := range archives {
		p := pers[i]
		var b strings.Builder
		fmt.Fprintf(&b, "### %s\n\n", codeSpan(a.Name))
		fmt.Fprintf(&b, "- SHA-256: %s\n- Signature: %s\n- Workspace: %s\n- Backend: %s\n",
			codeSpan(a.SHA256), a.Signature, codeSpan(a.Workspace), codeSpan(a.Backend))
		switch {
		case a.Plan.Errored:
			b.WriteString("- **The plan is errored**: planning stopped on errors; it cannot be applied.\n")
		case a.Plan.UIMode != plans.NormalMode:
			fmt.Fprintf(&b, "- Mode: %s\n", a.Plan.UIMode)
		}
		policyFacts(&b, a)
		b.WriteString("\n")
		if len(p.its) == 0 {
			b.WriteString("No changes.\n\n")
		} else {
			b.WriteString("| Action | Count |\n| --- | ---: |\n")
			for _, r := range p.c.rows() {
				if r[1].(int) > 0 {
					fmt.Fprintf(&b, "| %s | %d |\n", r[0], r[1])
				}
			}
			b.WriteString("\n")
		}
		text(b.String())

		var destr, other []*item
		for _, it := range p.its {
			if it.kind == kindDestructive {
				destr = append(destr, it)
			} else {
				other = append(other, it)
			}
		}
		if len(destr) > 0 {
			text(fmt.Sprintf("#### ⚠️ Destroys and replacements (%d)\n\n", len(destr)))
			addItems(destr)
		}
		if len(other) > 0 {
			text(fmt.Sprintf("#### Other changes (%d)\n\n", len(other)))
			addItems(other)
		}
		if len(p.drift) > 0 {
			text(fmt.Sprintf("#### Drift: objects changed outside (%d)\n\n", len(p.drift)))
			addItems(p.drift)
		}
		if s := policyFindings(a); s != "" {
			text(s)
		}
		if outs := changedOutputs(a.Plan); len(outs) > 0 {
			text(fmt.Sprintf("#### Changed outputs (%d)\n\n%s\n\n", len(outs), fence("diff", diffMarkup(outputsText(outs)))))
		}
		if cs := problemChecks(a.Plan); len(cs) > 0 {
			var b strings.Builder
			fmt.Fprintf(&b, "#### Failed or unknown checks (%d)\n\n| Status | Kind | Object | Message |\n| --- | --- | --- | --- |\n", len(cs))
			for _, c := range cs {
				for _, o := range c.Objects {
					if o.Status == plans.CheckPass {
						continue
					}
					obj := o.Addr
					if obj == "" {
						obj = strings.TrimPrefix(o.Module+"."+c.Name, ".")
						if c.Kind == "var" {
							obj = strings.TrimPrefix(o.Module+".var."+c.Name, ".")
						}
					}
					msg := strings.Join(o.FailureMessages, "; ")
					fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", o.Status, c.Kind, tableCell(codeSpan(obj)), tableCell(inlineText(msg)))
				}
			}
			b.WriteString("\n")
			text(b.String())
		}
	}
	return fit(pieces, limit, command, archives)
}

// fit applies the size rule to pieces and assembles the document.
func fit(pieces []*piece, limit int, command string, archives []*Archive) ([]byte, error) {
	var changes []*piece
	size := 0
	for _, pc := range pieces {
		switch {
		case pc.it != nil:
			changes = append(changes, pc)
			size += len(pc.full)
		default:
			size += len(pc.text)
		}
	}
	less := func(a, b *piece) int {
		if a.it.kind != b.it.kind {
			return int(b.it.kind) - int(a.it.kind) // other before destructive
		}
		if a.it.changed != b.it.changed {
			return a.it.changed - b.it.changed
		}
		if len(a.full) != len(b.full) {
			return len(a.full) - len(b.full)
		}
		return strings.Compare(a.it.id, b.it.id)
	}
	order := slices.Clone(changes)
	slices.SortStableFunc(order, less)

	droppedDiffs, droppedLines := 0, 0
	left := map[int]int{} // list -> changes left out of it
	moreSize := func() int {
		// the "… and N more" lines of the lists that lost lines
		n := 0
		for _, c := range left {
			n += len(moreLine(c))
		}
		return n
	}
	total := func() int {
		return size + moreSize() + len(note(droppedDiffs, droppedLines, len(changes), limit, command, archives))
	}
	for _, pc := range order {
		if total() <= limit {
			break
		}
		pc.state = 1
		size += len(pc.line) - len(pc.full)
		droppedDiffs++
	}
	if total() > limit {
		// Lines go from the end of each list: walk the lists backwards
		// in the same priority (other changes, then destructive).
		byList := slices.Clone(changes)
		slices.SortStableFunc(byList, func(a, b *piece) int {
			if a.it.kind != b.it.kind {
				return int(b.it.kind) - int(a.it.kind)
			}
			return 0
		})
		slices.Reverse(byList)
		// Reversed: destructive first; take other changes from the end.
		var ord []*piece
		for _, k := range []kind{kindOther, kindDestructive} {
			for _, pc := range byList {
				if pc.it.kind == k {
					ord = append(ord, pc)
				}
			}
		}
		for _, pc := range ord {
			if total() <= limit {
				break
			}
			pc.state = 2
			left[pc.list]++
			size -= len(pc.line)
			droppedLines++
		}
	}
	if t := total(); t > limit {
		return nil, &TooSmallError{Limit: limit, Need: t}
	}
	var b strings.Builder
	b.Grow(total())
	for _, pc := range pieces {
		if pc.it != nil {
			switch pc.state {
			case 0:
				b.WriteString(pc.full)
			case 1:
				b.WriteString(pc.line)
			}
			continue
		}
		if pc.list < 0 {
			if n := left[-pc.list]; n > 0 {
				b.WriteString(moreLine(n))
			}
			continue
		}
		b.WriteString(pc.text)
	}
	b.WriteString(note(droppedDiffs, droppedLines, len(changes), limit, command, archives))
	return []byte(b.String()), nil
}

func moreLine(n int) string {
	return fmt.Sprintf("- … and %d more, left out to fit the size limit\n\n", n)
}

// note is the closing paragraph: what was left out and how to see it.
func note(diffs, lines, changes, limit int, command string, archives []*Archive) string {
	if diffs == 0 && lines == 0 {
		return ""
	}
	var files []string
	for _, a := range archives {
		files = append(files, a.Name)
	}
	s := fmt.Sprintf("> **Note:** to fit in %d bytes, this summary leaves out the diffs of %d of its %d changes", limit, diffs, changes)
	if lines > 0 {
		s += fmt.Sprintf(" and does not list %d of them", lines)
	}
	s += " (the smallest changes first; destroys and replacements are kept longest). See every change with " +
		codeSpan(command+" "+strings.Join(files, " ")) + ", or in the HTML report: " +
		codeSpan(command+" -format=html FILE > plan.html") + ".\n"
	return s
}

// marker is what a change's line starts with: a warning sign on
// destroys and replacements.
func marker(it *item) string {
	if it.kind == kindDestructive {
		return "⚠️ "
	}
	return ""
}

// fullItem is a change as a collapsible block with its diff. GitHub and
// GitLab need the blank line after </summary> for the fenced block inside
// to be Markdown, and the one after </details> to end the HTML block.
func fullItem(it *item) string {
	return "<details><summary>" + marker(it) + "<b>" + html.EscapeString(it.label) + "</b> <code>" +
		html.EscapeString(it.addr) + "</code></summary>\n\n" + fence("diff", diffMarkup(it.diff)) + "\n\n</details>\n\n"
}

// lineItem is a change on one line, for when its diff is left out.
func lineItem(it *item) string {
	return "- " + marker(it) + "**" + it.label + "** " + codeSpan(it.addr) + "\n\n"
}

// diffMarkup moves each line's action symbol to the first column, where
// the diff highlighting of GitHub and GitLab looks for it: "+" added,
// "-" removed, "!" changed ("~" in the plan), "#" comments as context.
func diffMarkup(s string) string {
	lines := strings.Split(s, "\n")
	for i, line := range lines {
		t := strings.TrimLeft(line, " ")
		indent := line[:len(line)-len(t)]
		switch {
		case strings.HasPrefix(t, "-/+ "), strings.HasPrefix(t, "+/- "):
			lines[i] = "!" + indent + t
		case strings.HasPrefix(t, "+ "), strings.HasPrefix(t, "- "):
			lines[i] = t[:1] + indent + t[1:]
		case strings.HasPrefix(t, "~ "):
			lines[i] = "!" + indent + t[1:]
		default:
			lines[i] = " " + line
		}
	}
	return strings.Join(lines, "\n")
}

// fence puts s in a fenced code block whose fence is longer than any run
// of backticks in s (CommonMark: a shorter run cannot close it).
func fence(info, s string) string {
	f := strings.Repeat("`", max(3, longestRun(s, '`')+1))
	return f + info + "\n" + s + "\n" + f
}

// codeSpan puts s in a code span: the delimiter is a backtick run longer
// than any in s, and s is padded with spaces when it starts or ends with
// a backtick (CommonMark strips one space on each side). Newlines become
// spaces.
func codeSpan(s string) string {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\r", " "), "\n", " ")
	d := strings.Repeat("`", longestRun(s, '`')+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || (strings.HasPrefix(s, " ") && strings.HasSuffix(s, " ") && strings.Trim(s, " ") != "") {
		s = " " + s + " "
	}
	return d + s + d
}

// tableCell escapes the pipes of a table cell's content: GitHub and
// GitLab split rows at every unescaped "|", inside code spans too, and
// show "\|" as "|" there.
func tableCell(s string) string {
	return strings.ReplaceAll(s, "|", `\|`)
}

// inlineText makes free text safe in a table cell: one line, HTML and
// Markdown punctuation escaped.
func inlineText(s string) string {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\r", " "), "\n", " ")
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\`*_{}[]()<>#+-.!|~&", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

func longestRun(s string, c byte) int {
	best, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			run++
			best = max(best, run)
		} else {
			run = 0
		}
	}
	return best
}

// policyFacts adds the summary's line for the policy check recorded at
// plan time (none without a record).
func policyFacts(b *strings.Builder, a *Archive) {
	switch {
	case a.PolicyError != nil:
		fmt.Fprintf(b, "- Policy check: **the recorded result cannot be read** (%s)\n", inlineText(a.PolicyError.Error()))
	case a.Policy == nil:
	case a.Policy.Failed():
		fmt.Fprintf(b, "- Policy check: **failed**, %d failures, %d warnings (bundle %s): apply -policy refuses this plan\n",
			a.Policy.Failures, a.Policy.Warnings, codeSpan(a.Policy.PolicyDigest))
	default:
		fmt.Fprintf(b, "- Policy check: passed, %d rules, %d warnings (bundle %s)\n", len(a.Policy.Rules), a.Policy.Warnings, codeSpan(a.Policy.PolicyDigest))
	}
}

// policyFindings is the section listing the recorded policy check's
// failures and warnings ("" when there are none).
func policyFindings(a *Archive) string {
	if a.Policy == nil {
		return ""
	}
	fs := a.Policy.Findings()
	if len(fs) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "#### Policy failures and warnings (%d)\n\n| Outcome | Rule | Message |\n| --- | --- | --- |\n", len(fs))
	for _, f := range fs {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", f.Outcome, tableCell(codeSpan(f.Namespace+"."+f.Rule)), tableCell(inlineText(f.Message.Msg)))
	}
	b.WriteString("\n")
	return b.String()
}
