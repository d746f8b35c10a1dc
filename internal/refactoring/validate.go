package refactoring

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
)

// Declared answers which objects the plan declared (its expansion of the
// configuration): what Validate needs to tell a move from an object still
// in the configuration.
type Declared interface {
	// ModuleInstances returns every instance of static module path.
	ModuleInstances(path addrs.Module) []addrs.ModuleInstance
	HasModuleInstance(addrs.ModuleInstance) bool
	// HasModuleCall reports whether module instance parent has a module
	// call named name.
	HasModuleCall(parent addrs.ModuleInstance, name string) bool
	HasResource(addrs.AbsResource) bool
	HasResourceInstance(addrs.AbsResourceInstance) bool
}

// endpoint is one end of an explicit statement in one instance of its
// module, for the ambiguity checks.
type endpoint struct {
	other string
	stmt  *Statement
}

// Validate checks the explicit statements against the configuration and
// the declared objects, as Terraform does: a move to the same address, a
// source still declared, two statements moving one object to different
// places or different objects to one place, and (only when nothing else
// is wrong) cycles. Static rules (moves across module packages) are
// checked first. Every error names the statement's file and line, and the
// other statement's when two are involved.
func Validate(stmts []Statement, cfg *configs.Config, decl Declared) hcl.Diagnostics {
	var diags hcl.Diagnostics
	from, to := map[string]endpoint{}, map[string]endpoint{}
	for i := range stmts {
		s := &stmts[i]
		if s.Implied {
			continue
		}
		if d := crossPackage(s, cfg); d != nil {
			diags = append(diags, d)
			continue
		}
		for _, mi := range decl.ModuleInstances(s.Module) {
			absFrom, absTo := absString(mi, s.From), absString(mi, s.To)
			if absFrom == absTo {
				diags = append(diags, errorAt(s, "Redundant move statement", fmt.Sprintf(
					"This moved block moves %s to the address it already has, which does nothing. Remove the block.", absFrom)))
				continue
			}
			noun, short := nouns(s.From.Kind)
			if declared, rng := stillDeclared(mi, s.From, cfg, decl); declared {
				where := ""
				if rng != nil {
					where = " at " + fmt.Sprintf("%s:%d", rng.Filename, rng.Start.Line)
				}
				diags = append(diags, errorAt(s, "Moved object still exists", fmt.Sprintf(
					"This moved block moves %s away, but that %s is still declared%s.\n\nDeclare the %s as %s instead (rename or move its block), so that the moved block says where its object went.",
					absFrom, noun, where, short, absTo)))
			}
			if prev, ok := from[absFrom]; ok {
				if prev.other != absTo {
					diags = append(diags, errorAt(s, "Ambiguous move statements", fmt.Sprintf(
						"The moved block at %s moves %s to %s, and this one moves it to %s.\n\nA %s can move to one destination only: remove one of the two blocks.",
						at(prev.stmt), absFrom, prev.other, absTo, noun)))
				}
			} else {
				from[absFrom] = endpoint{other: absTo, stmt: s}
			}
			if prev, ok := to[absTo]; ok {
				if prev.other != absFrom {
					diags = append(diags, errorAt(s, "Ambiguous move statements", fmt.Sprintf(
						"The moved block at %s moves %s to %s, and this one moves %s there too.\n\nOnly one %s can move to each destination: remove one of the two blocks.",
						at(prev.stmt), prev.other, absTo, absFrom, noun)))
				}
			} else {
				to[absTo] = endpoint{other: absFrom, stmt: s}
			}
		}
	}
	if !diags.HasErrors() {
		diags = append(diags, cycles(stmts)...)
	}
	return diags
}

// cycles reports each cycle of chained statements.
func cycles(stmts []Statement) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, c := range graph(stmts).Cycles() {
		c = c[:len(c)-1] // closed path: the first statement again at the end
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Cyclic dependency in move statements",
			Detail: "These moved blocks form a cycle, so the objects they move have no final address:" + describe(c) +
				"\n\nA chain of moves must end at an address that no moved block moves away from, normally one the configuration declares.",
			Subject: c[0].DeclRange.Ptr()})
	}
	return diags
}

// crossPackage refuses a statement whose from or to reaches into a module
// installed from another package (a non-local source): a module package
// may only refactor its own objects, as in Terraform.
func crossPackage(s *Statement, cfg *configs.Config) *hcl.Diagnostic {
	base := cfg.Descendant(s.Module)
	if base == nil {
		return nil
	}
	for _, e := range []struct {
		dir string
		ep  addrs.MoveEndpoint
	}{{"from", s.From}, {"to", s.To}} {
		cur := base
		for _, st := range e.ep.Module {
			if cur = cur.Children[st.Name]; cur == nil {
				break
			}
			if !isLocal(cur.SourceAddr) {
				what := map[string]string{"from": "from", "to": "into"}[e.dir]
				return errorAt(s, "Cross-package move statement", fmt.Sprintf(
					"This moved block moves an object %s module %s, which is installed from another module package (%q). A moved block can only move objects within its own module package.",
					what, cur.Path, cur.SourceAddr))
			}
		}
	}
	return nil
}

func isLocal(src string) bool {
	return src == "." || src == ".." || len(src) > 1 && (src[:2] == "./" || len(src) > 2 && src[:3] == "../")
}

// absString is endpoint e of a statement in module instance mi, as an
// absolute address.
// MoveEndpoint.String already writes e relative to mi; only the prefix is
// added.
func absString(mi addrs.ModuleInstance, e addrs.MoveEndpoint) string {
	if mi.IsRoot() {
		return e.String()
	}
	return mi.String() + "." + e.String()
}

// stillDeclared reports whether the plan declared endpoint e (in module
// instance mi), with the range to blame: count or for_each when the
// object is an instance of a repeated block.
func stillDeclared(mi addrs.ModuleInstance, e addrs.MoveEndpoint, cfg *configs.Config, decl Declared) (bool, *hcl.Range) {
	mod := append(append(addrs.ModuleInstance(nil), mi...), e.Module...)
	switch e.Kind {
	case addrs.MoveModuleCall, addrs.MoveModuleInstance:
		parent, last := mod[:len(mod)-1], mod[len(mod)-1]
		var ok bool
		if e.Kind == addrs.MoveModuleCall {
			ok = decl.HasModuleCall(parent, last.Name)
		} else {
			ok = decl.HasModuleInstance(mod)
		}
		if !ok {
			return false, nil
		}
		pc := cfg.Descendant(parent.Module())
		if pc == nil || pc.Module.ModuleCalls[last.Name] == nil {
			return true, nil
		}
		call := pc.Module.ModuleCalls[last.Name]
		return true, blame(e.Kind == addrs.MoveModuleInstance, call.Count, call.ForEach, call.DeclRange)
	}
	var ok bool
	if e.Kind == addrs.MoveResource {
		ok = decl.HasResource(e.Resource.Resource.Absolute(mod))
	} else {
		ok = decl.HasResourceInstance(e.Resource.Absolute(mod))
	}
	if !ok {
		return false, nil
	}
	mc := cfg.Descendant(mod.Module())
	if mc == nil || mc.Module.ResourceByAddr(e.Resource.Resource) == nil {
		return true, nil
	}
	r := mc.Module.ResourceByAddr(e.Resource.Resource)
	return true, blame(e.Kind == addrs.MoveResourceInstance, r.Count, r.ForEach, r.DeclRange)
}

func blame(instance bool, count, forEach hcl.Expression, decl hcl.Range) *hcl.Range {
	switch {
	case instance && forEach != nil:
		return forEach.Range().Ptr()
	case instance && count != nil:
		return count.Range().Ptr()
	}
	return decl.Ptr()
}

func nouns(k addrs.MoveEndpointKind) (string, string) {
	switch k {
	case addrs.MoveModuleCall:
		return "module call", "call"
	case addrs.MoveModuleInstance:
		return "module instance", "instance"
	case addrs.MoveResource:
		return "resource", "resource"
	}
	return "resource instance", "instance"
}

func errorAt(s *Statement, summary, detail string) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: s.DeclRange.Ptr()}
}

// BlockedWarning is the warning for moves ApplyMoves skipped because the
// destination already held an object; nil when none were.
func BlockedWarning(blocked []Blocked) *hcl.Diagnostic {
	if len(blocked) == 0 {
		return nil
	}
	var items []string
	for _, b := range blocked {
		what := "moved block"
		if b.Stmt.Implied {
			what = "implied by the count of the resource"
		}
		items = append(items, fmt.Sprintf("\n  - %s could not move to %s (%s at %s)", b.Actual, b.Wanted, what, at(b.Stmt)))
	}
	slices.Sort(items)
	detail := "Some moves were not made because an object already exists at the destination (that object is kept):"
	for _, it := range items {
		detail += it
	}
	detail += "\n\nAn object left at an address the configuration no longer declares is planned for destruction. If that is not what you want, resolve the conflict with \"plan state mv\" or \"plan state rm\", then plan again."
	return &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Unresolved resource instance address changes", Detail: detail}
}

// TargetsDiag is the error for a targeted plan that leaves out the old or
// new address of a moved instance (nil when every one is included):
// planning only part of a move would lose track of the object.
func TargetsDiag(res Results, targets []addrs.Targetable) *hcl.Diagnostic {
	if len(targets) == 0 {
		return nil
	}
	seen, blocks := map[string]bool{}, map[string]bool{}
	var missing []string
	contains := func(a addrs.AbsResourceInstance) bool {
		for _, t := range targets {
			if addrs.TargetContains(t, a) {
				return true
			}
		}
		return false
	}
	for _, m := range res.Sorted() {
		for _, a := range []addrs.AbsResourceInstance{m.From, m.To} {
			if contains(a) {
				continue
			}
			blocks[at(m.Stmt)] = true
			if !seen[a.String()] {
				seen[a.String()] = true
				missing = append(missing, a.String())
			}
		}
	}
	if len(missing) == 0 {
		return nil
	}
	detail := "Objects in the state move to new addresses in this configuration, and a plan must cover both the old and the new address of each, but the -target options leave some of them out.\n\nRemove the -target options, or add these:"
	for _, a := range missing {
		detail += "\n  -target=" + fmt.Sprintf("%q", a)
	}
	detail += "\n\nThe moves come from the moved blocks (or implied moves) at " + strings.Join(slices.Sorted(maps.Keys(blocks)), ", ") + "."
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Moved resource instances excluded by targeting", Detail: detail}
}
