// Package render turns a plans.Plan into the human-readable text users know
// from `terraform plan`: one block per resource instance change with the
// action symbol, nested attribute diffs, reasons, the drift section, the
// output changes and the summary line. It needs nothing but the plan and
// the provider schemas the plan carries, so `plan show` can render an
// archive with no providers and no configuration.
package render

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/lang/marks"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
)

// Product is the name the prose uses for the tool.
const Product = "plankit"

// Counts is the plan summary: replacements count as one add and one
// destroy, as in Terraform's "Plan:" line; Forget counts the objects
// removed blocks drop from the state without destroying them.
type Counts struct {
	Add, Change, Destroy, Read, Forget int
	// Import counts the changes that import an object (whatever else
	// they do), shown as "N to import, " / "N imported, " when not zero.
	Import int
}

// CountChanges counts the resource instance changes by kind. O(changes).
func CountChanges(changes *plans.Changes) Counts {
	var c Counts
	if changes == nil {
		return c
	}
	for _, rc := range changes.Resources {
		if rc.Importing != nil {
			c.Import++
		}
		switch rc.Action {
		case plans.Create:
			c.Add++
		case plans.Update:
			c.Change++
		case plans.Delete:
			c.Destroy++
		case plans.DeleteThenCreate, plans.CreateThenDelete:
			c.Add++
			c.Destroy++
		case plans.Read:
			c.Read++
		case plans.Forget:
			c.Forget++
		}
	}
	return c
}

// Summary is the "Plan:" line's counts: "1 to add, 0 to change, 0 to
// destroy." with ", N to forget" before the period when any object is
// forgotten (OpenTofu's wording; Terraform leaves forgets out).
func (c Counts) Summary() string {
	s := ImportPrefix(c, "to import") + fmt.Sprintf("%d to add, %d to change, %d to destroy", c.Add, c.Change, c.Destroy)
	if c.Forget > 0 {
		s += fmt.Sprintf(", %d to forget", c.Forget)
	}
	return s + "."
}

// HasResourceChanges reports whether any resource instance has an action
// other than no-op.
func HasResourceChanges(changes *plans.Changes) bool {
	if changes == nil {
		return false
	}
	for _, rc := range changes.Resources {
		if rc.Action != plans.NoOp || rc.Importing != nil {
			return true
		}
	}
	return false
}

// HasOutputChanges reports whether any root output changes.
func HasOutputChanges(changes *plans.Changes) bool {
	if changes == nil {
		return false
	}
	for _, oc := range changes.Outputs {
		if oc.Action != plans.NoOp && oc.Addr.Module.IsRoot() {
			return true
		}
	}
	return false
}

// planFlushSize is how much rendered text Plan gathers before writing it.
const planFlushSize = 64 << 10

// Plan writes the complete human rendering of p: drift, actions, summary
// and output changes, or the "No changes." message. It streams: the
// header is written before the first resource is rendered, then the
// resources in pieces of about planFlushSize bytes, so the first lines
// of a large plan appear at once and the whole text is never held in
// memory. A write error stops it. O(size of the plan).
func Plan(w io.Writer, p *plans.Plan, color bool) error {
	return PlanLoading(w, p, color, nil)
}

// PlanLoading is Plan for a plan whose resource changes come without
// their values (plans.UnmarshalDeferred): each is rendered from load(i),
// called for p.Changes.Resources[i] as it is about to be rendered, on
// several goroutines at once. A plan is thus shown while it is being
// decoded, with only the values of the changes in flight in memory. An
// error from load stops the rendering (what was rendered before it may
// have been written) and is returned. With load nil it is Plan.
func PlanLoading(w io.Writer, p *plans.Plan, color bool, load Loader) error {
	col := Colorizer{Enabled: color}
	var b strings.Builder
	flush := func() error {
		_, err := io.WriteString(w, b.String())
		b.Reset()
		b.Grow(planFlushSize + planFlushSize/4) // one allocation per piece, not a doubling series
		return err
	}
	changes := p.Changes
	if changes == nil {
		changes = plans.NewChanges()
	}
	drift := driftSection(&b, p, col)

	resChanges := HasResourceChanges(changes) || HasMoves(changes)
	outChanges := HasOutputChanges(changes)
	switch {
	case !resChanges && !outChanges:
		noChanges(&b, p, col, drift)
	case p.UIMode == plans.RefreshOnlyMode:
		if outChanges {
			b.WriteString("\n" + col.Bold("Changes to Outputs:") + "\n")
			Outputs(&b, changes.Outputs, col)
		}
		b.WriteString("\n" + wrapText(fmt.Sprintf("This is a refresh-only plan, so %s will not take any actions to undo these. If you were expecting these changes then you can apply this plan to record the updated values in the %s state without changing any remote objects.", Product, Product)))
	default:
		if resChanges {
			if HasResourceChanges(changes) {
				legend(&b, changes, col)
			}
			fmt.Fprintf(&b, "\n%s will perform the following actions:\n\n", Product)
			if err := flush(); err != nil {
				return err
			}
			if err := resourceChanges(w, &b, flush, changes.Resources, sortedOrder(changes.Resources), load, p.ProviderSchemas, color); err != nil {
				return err
			}
			fmt.Fprintf(&b, "%s %s\n", col.Bold("Plan:"), CountChanges(changes).Summary())
		}
		if outChanges {
			b.WriteString("\n" + col.Bold("Changes to Outputs:") + "\n")
			Outputs(&b, changes.Outputs, col)
			if !resChanges {
				b.WriteString("\n" + wrapText(fmt.Sprintf("You can apply this plan to save these new output values to the %s state, without changing any real infrastructure.", Product)))
			}
		}
	}
	return flush()
}

func noChanges(b *strings.Builder, p *plans.Plan, col Colorizer, drift bool) {
	switch {
	case p.UIMode == plans.DestroyMode:
		b.WriteString("\n" + col.Bold("No changes.") + " No objects need to be destroyed.\n\n")
		b.WriteString(wrapText(fmt.Sprintf("Either you have not created any objects yet or the existing objects were already deleted outside of %s.", Product)))
	case p.UIMode == plans.RefreshOnlyMode && drift:
		b.WriteString("\n" + wrapText(fmt.Sprintf("This is a refresh-only plan, so %s will not take any actions to undo these. If you were expecting these changes then you can apply this plan to record the updated values in the %s state without changing any remote objects.", Product, Product)))
	case p.UIMode == plans.RefreshOnlyMode:
		b.WriteString("\n" + col.Green(col.Bold("No changes.")) + col.Bold(" Your infrastructure still matches the configuration.") + "\n\n")
		b.WriteString(wrapText(fmt.Sprintf("%s has checked that the real remote objects still match the result of your most recent changes, and found no differences.", Product)))
	default:
		b.WriteString("\n" + col.Green(col.Bold("No changes.")) + col.Bold(" Your infrastructure matches the configuration.") + "\n\n")
		b.WriteString(wrapText(fmt.Sprintf("%s has compared your real infrastructure against your configuration and found no differences, so no changes are needed.", Product)))
	}
}

// driftSection writes the "Objects have changed outside of" section and
// reports whether there was any drift.
func driftSection(b *strings.Builder, p *plans.Plan, col Colorizer) bool {
	refreshOnly := p.UIMode == plans.RefreshOnlyMode
	var drifted []*plans.ResourceInstanceChange
	if refreshOnly {
		// A refresh-only plan is about the drift: all of it is shown,
		// moves alone too (otherwise the planned changes list them).
		for _, rc := range plans.SortedResourceChanges(p.DriftedResources) {
			if rc.Action != plans.NoOp || rc.Moved() {
				drifted = append(drifted, rc)
			}
		}
	} else {
		drifted = relevantDrift(p)
	}
	if len(drifted) == 0 || p.UIMode == plans.DestroyMode {
		return false
	}
	fmt.Fprintf(b, "\n%s\n\n", col.Bold("Note: Objects have changed outside of "+Product))
	b.WriteString(wrapText(fmt.Sprintf("%s detected the following changes made outside of %s since the last apply which may have affected this plan:", Product, Product)))
	b.WriteString("\n")
	for _, rc := range drifted {
		schema := providers.ResourceSchema(p.ProviderSchemas, rc.ProviderAddr.Provider, rc.Addr.Resource.Resource)
		b.WriteString(ResourceChange(rc, schema, col.Enabled, true))
		b.WriteString("\n")
	}
	if p.UIMode != plans.RefreshOnlyMode {
		b.WriteString("\n" + wrapText("Unless you have made equivalent changes to your configuration, or ignored the relevant attributes using ignore_changes, the following plan may include actions to undo or respond to these changes."))
		b.WriteString("\n" + strings.Repeat("─", 77) + "\n")
	}
	return true
}

// legend lists the symbols of the actions the plan uses.
func legend(b *strings.Builder, changes *plans.Changes, col Colorizer) {
	seen := map[plans.Action]bool{}
	for _, rc := range changes.Resources {
		seen[rc.Action] = true
	}
	if len(seen) == 1 && seen[plans.NoOp] {
		return // only imports: Terraform prints no legend
	}
	b.WriteString("\n" + wrapText(fmt.Sprintf("%s used the selected providers to generate the following execution plan. Resource actions are indicated with the following symbols:", Product)))
	for _, l := range []struct {
		a    plans.Action
		sym  string
		text string
	}{
		{plans.Create, "  +", "create"},
		{plans.Update, "  ~", "update in-place"},
		{plans.Delete, "  -", "destroy"},
		{plans.DeleteThenCreate, "-/+", "destroy and then create replacement"},
		{plans.CreateThenDelete, "+/-", "create replacement and then destroy"},
		{plans.Read, " <=", "read (data resources)"},
		{plans.Forget, "  .", "forget"},
	} {
		if seen[l.a] {
			b.WriteString(col.symbol(l.sym) + " " + l.text + "\n")
		}
	}
}

// Symbol returns the action symbol of a resource change, padded to three
// columns ("  +", "-/+", " <=").
func Symbol(a plans.Action) string {
	switch a {
	case plans.Create:
		return "+"
	case plans.Read:
		return "<="
	case plans.Update:
		return "~"
	case plans.DeleteThenCreate:
		return "-/+"
	case plans.CreateThenDelete:
		return "+/-"
	case plans.Delete:
		return "-"
	case plans.Forget:
		return "."
	}
	return ""
}

// ResourceChange renders one resource instance change: the "# ADDR will
// be ..." header, reason lines and the block with its attribute diffs.
// drift selects the wording of the drift section ("has changed").
func ResourceChange(rc *plans.ResourceInstanceChange, schema *configschema.Block, color bool, drift bool) string {
	var b strings.Builder
	b.Grow(512) // most renderings fit: one allocation instead of several
	writeResourceChange(&b, rc, schema, color, drift, nil)
	return b.String()
}

// writeResourceChange writes ResourceChange's rendering to b; names, when
// not nil, keeps the sorted attribute names of each schema block for the
// next change of the same type.
func writeResourceChange(b *strings.Builder, rc *plans.ResourceInstanceChange, schema *configschema.Block, color bool, drift bool, names *blockNames) {
	col := Colorizer{Enabled: color}
	d := &differ{col: col, replace: rc.RequiredReplace, showAll: rc.Importing != nil && !drift, names: names}
	addr := rc.Addr.String()
	if rc.DeposedKey != addrs.NotDeposed {
		addr += " (deposed object " + rc.DeposedKey.String() + ")"
	}
	switch {
	case movedOnly(rc):
		b.WriteString(movedHeader(rc, col))
	case color:
		b.WriteString("  " + col.Bold("# "+addr) + " " + col.Bold(description(rc, drift)) + "\n")
	default: // the same, without the concatenations
		b.WriteString("  # ")
		b.WriteString(addr)
		b.WriteByte(' ')
		b.WriteString(description(rc, drift))
		b.WriteByte('\n')
	}
	for _, r := range reasons(rc) {
		b.WriteString("  " + r + "\n")
	}
	res := rc.Addr.Resource.Resource
	kind := "resource"
	if res.Mode == addrs.DataResourceMode {
		kind = "data"
	}
	sym := Symbol(rc.Action)
	if drift && rc.Action == plans.Update {
		sym = "~"
	}
	// PREFIX kind "type" "name" {
	var q [64]byte
	b.WriteString(d.prefix(0, sym))
	b.WriteString(kind)
	b.WriteByte(' ')
	b.Write(strconv.AppendQuote(q[:0], res.Type))
	b.WriteByte(' ')
	b.Write(strconv.AppendQuote(q[:0], res.Name))
	b.WriteString(" {\n")
	before, after := rc.Change.Marked(schema)
	if schema == nil {
		b.WriteString(d.prefix(4, symNone) + col.Gray("# (the plan carries no schema for this resource type; attributes not shown)") + "\n")
	} else {
		d.block(b, schema, before, after, 4, nil)
	}
	b.WriteString("    }\n")
}

func description(rc *plans.ResourceInstanceChange, drift bool) string {
	if drift {
		if rc.Action == plans.Delete {
			return "has been deleted"
		}
		return "has changed"
	}
	switch rc.Action {
	case plans.Create:
		return "will be created"
	case plans.Read:
		return "will be read during apply"
	case plans.Update:
		return "will be updated in-place"
	case plans.DeleteThenCreate, plans.CreateThenDelete:
		switch rc.ActionReason {
		case plans.ReasonReplaceBecauseTainted:
			return "is tainted, so must be replaced"
		case plans.ReasonReplaceByRequest:
			return "will be replaced, as requested"
		case plans.ReasonReplaceByTriggers:
			return "will be replaced due to changes in replace_triggered_by"
		}
		return "must be replaced"
	case plans.Delete:
		return "will be destroyed"
	case plans.Forget:
		if rc.DeposedKey != addrs.NotDeposed {
			return "will be removed from the " + Product + " state, but will not be destroyed"
		}
		return "will no longer be managed by " + Product + ", but will not be destroyed"
	case plans.NoOp:
		if rc.Importing != nil {
			return "will be imported"
		}
	}
	return "has no changes"
}

// reasons returns the comment lines that explain a change ("# (because
// ...)"), without leading indentation.
func reasons(rc *plans.ResourceInstanceChange) []string {
	var out []string
	if rc.Action == plans.Forget {
		// Its reason is the orphan's (as in Terraform); what matters here is
		// why it is not destroyed.
		if rc.DeposedKey != addrs.NotDeposed {
			out = append(out, "# (left over from a partially-failed replacement of this instance)")
		}
		return append(out, "# (destroy = false is set in the configuration)")
	}
	key := rc.Addr.Resource.Key
	switch rc.ActionReason {
	case plans.ReasonDeleteBecauseNoResourceConfig:
		out = append(out, "# (because "+rc.Addr.ContainingResource().Config().String()+" is not in configuration)")
	case plans.ReasonDeleteBecauseNoModule:
		out = append(out, "# (because "+rc.Addr.Module.String()+" is not in configuration)")
	case plans.ReasonDeleteBecauseNoMoveTarget:
		out = append(out, "# (because "+rc.PrevRunAddr.String()+" was moved to "+rc.Addr.String()+", which is not in configuration)")
	case plans.ReasonDeleteBecauseCountIndex:
		out = append(out, "# (because index "+addrs.KeyString(key)+" is out of range for count)")
	case plans.ReasonDeleteBecauseEachKey:
		out = append(out, "# (because key "+addrs.KeyString(key)+" is not in for_each map)")
	case plans.ReasonDeleteBecauseWrongRepetition:
		switch key.(type) {
		case nil:
			out = append(out, "# (because resource uses count or for_each)")
		case addrs.IntKey:
			out = append(out, "# (because resource does not use count)")
		default:
			out = append(out, "# (because resource does not use for_each)")
		}
	case plans.ReasonReadBecauseConfigUnknown:
		out = append(out, "# (config refers to values not yet known)")
	case plans.ReasonReadBecauseDependencyPending:
		out = append(out, "# (depends on a resource or a module with changes pending)")
	case plans.ReasonReadBecauseCheckNested:
		out = append(out, "# (config will be reloaded to verify a check block)")
	}
	// After the reason, as Terraform prints it; a move alone says it in
	// the header instead.
	if rc.Moved() && rc.Action != plans.NoOp {
		out = append(out, "# (moved from "+rc.PrevRunAddr.String()+")")
	}
	return append(out, importReasons(rc)...)
}

// Outputs writes the root output changes, names aligned, sensitive values
// hidden.
func Outputs(b *strings.Builder, outs []*plans.OutputChange, col Colorizer) {
	var shown []*plans.OutputChange
	width := 0
	for _, oc := range outs {
		if oc.Action == plans.NoOp || !oc.Addr.Module.IsRoot() {
			continue
		}
		shown = append(shown, oc)
		width = max(width, len(oc.Addr.OutputValue.Name))
	}
	sort.Slice(shown, func(i, j int) bool { return shown[i].Addr.OutputValue.Name < shown[j].Addr.OutputValue.Name })
	d := &differ{col: col}
	for _, oc := range shown {
		name := oc.Addr.OutputValue.Name
		before, after := oc.Before, oc.After
		if before == cty.NilVal {
			before = cty.NullVal(cty.DynamicPseudoType)
		}
		if after == cty.NilVal {
			after = cty.NullVal(cty.DynamicPseudoType)
		}
		if oc.Sensitive {
			before, after = before.Mark(marks.Sensitive), after.Mark(marks.Sensitive)
		} else {
			before = marks.MarkSensitivePaths(before, oc.BeforeSensitivePaths)
			after = marks.MarkSensitivePaths(after, oc.AfterSensitivePaths)
		}
		sym := Symbol(oc.Action)
		if oc.Action.IsReplace() {
			sym = "~"
		}
		b.WriteString(d.prefix(0, sym) + name + strings.Repeat(" ", width-len(name)) + " = ")
		d.value(b, before, after, 0, nil)
		b.WriteString("\n")
	}
}

// wrapText wraps prose at 78 columns, ending with a newline.
func wrapText(s string) string {
	var b strings.Builder
	line := 0
	for i, w := range strings.Fields(s) {
		if i > 0 {
			if line+1+len(w) > 78 {
				b.WriteString("\n")
				line = 0
			} else {
				b.WriteString(" ")
				line++
			}
		}
		b.WriteString(w)
		line += len(w)
	}
	b.WriteString("\n")
	return b.String()
}
