package refactoring

import (
	"fmt"
	"slices"

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
					"This statement declares a move from %s to the same address, which is the same as not declaring this move at all. Remove this moved block.", absFrom)))
				continue
			}
			noun, short := nouns(s.From.Kind)
			if declared, rng := stillDeclared(mi, s.From, cfg, decl); declared {
				where := ""
				if rng != nil {
					where = " at " + fmt.Sprintf("%s:%d", rng.Filename, rng.Start.Line)
				}
				diags = append(diags, errorAt(s, "Moved object still exists", fmt.Sprintf(
					"This statement declares a move from %s, but that %s is still declared%s.\n\nChange your configuration so that this %s will be declared as %s instead.",
					absFrom, noun, where, short, absTo)))
			}
			if prev, ok := from[absFrom]; ok {
				if prev.other != absTo {
					diags = append(diags, errorAt(s, "Ambiguous move statements", fmt.Sprintf(
						"A statement at %s declared that %s moved to %s, but this statement instead declares that it moved to %s.\n\nEach %s can move to only one destination %s.",
						at(prev.stmt), absFrom, prev.other, absTo, noun, short)))
				}
			} else {
				from[absFrom] = endpoint{other: absTo, stmt: s}
			}
			if prev, ok := to[absTo]; ok {
				if prev.other != absFrom {
					diags = append(diags, errorAt(s, "Ambiguous move statements", fmt.Sprintf(
						"A statement at %s declared that %s moved to %s, but this statement instead declares that %s moved there.\n\nEach %s can have moved from only one source %s.",
						at(prev.stmt), prev.other, absTo, absFrom, noun, short)))
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
			Detail: "The following chained move statements form a cycle, and so there is no final location to move objects to:" + describe(c) +
				"\n\nA chain of move statements must end with an address that doesn't appear in any other statements, and which typically also refers to an object still declared in the configuration.",
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
				what := map[string]string{"from": "a move from an object", "to": "a move to an object"}[e.dir]
				return errorAt(s, "Cross-package move statement", fmt.Sprintf(
					"This statement declares %s declared in external module package %q. Move statements can be only within a single module package.",
					what, cur.SourceAddr))
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
func absString(mi addrs.ModuleInstance, e addrs.MoveEndpoint) string {
	mod := append(append(addrs.ModuleInstance(nil), mi...), e.Module...)
	switch e.Kind {
	case addrs.MoveModuleCall:
		mod[len(mod)-1].InstanceKey = addrs.NoKey
		return mod.String()
	case addrs.MoveModuleInstance:
		return mod.String()
	case addrs.MoveResource:
		return e.Resource.Resource.Absolute(mod).String()
	}
	return e.Resource.Absolute(mod).String()
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
	detail := "plankit tried to adjust resource instance addresses in the prior state based on change information recorded in the configuration, but some adjustments did not succeed due to existing objects already at the intended addresses:"
	for _, it := range items {
		detail += it
	}
	detail += "\n\nplankit has planned to destroy these objects. If plankit's proposed changes aren't appropriate, you must first resolve the conflicts using the \"terraform state\" subcommands and then create a new plan."
	return &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Unresolved resource instance address changes", Detail: detail}
}

// TargetsDiag is the error for a targeted plan that leaves out the old or
// new address of a moved instance (nil when every one is included):
// planning only part of a move would lose track of the object.
func TargetsDiag(res Results, targets []addrs.Targetable) *hcl.Diagnostic {
	if len(targets) == 0 {
		return nil
	}
	seen := map[string]bool{}
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
			if !contains(a) && !seen[a.String()] {
				seen[a.String()] = true
				missing = append(missing, a.String())
			}
		}
	}
	if len(missing) == 0 {
		return nil
	}
	detail := "Resource instances in your current state have moved to new addresses in the latest configuration. plankit must include those resource instances while planning in order to ensure a correct result, but your -target=... options do not fully cover all of those resource instances.\n\nTo create a valid plan, either remove your -target=... options altogether or add the following additional target options:"
	for _, a := range missing {
		detail += "\n  -target=" + fmt.Sprintf("%q", a)
	}
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Moved resource instances excluded by targeting", Detail: detail}
}
