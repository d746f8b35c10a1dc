package terraform

import (
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/lang"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers/configschema"
)

// ignorePaths returns the attribute paths lifecycle.ignore_changes names:
// every configurable attribute and block for "all".
func ignorePaths(schema *configschema.Block, travs []hcl.Traversal, all bool) []cty.Path {
	if all {
		var out []cty.Path
		for name, a := range schema.Attributes {
			if !a.ComputedOnly() {
				out = append(out, cty.GetAttrPath(name))
			}
		}
		for name := range schema.BlockTypes {
			out = append(out, cty.GetAttrPath(name))
		}
		return out
	}
	out := make([]cty.Path, 0, len(travs))
	for _, t := range travs {
		if p := traversalPath(t); p != nil {
			out = append(out, p)
		}
	}
	return out
}

// traversalPath converts a relative traversal (tags["x"], a.b[0]) to a
// cty.Path; nil if it has a step that is not an attribute or index.
func traversalPath(t hcl.Traversal) cty.Path {
	var p cty.Path
	for _, step := range t {
		switch s := step.(type) {
		case hcl.TraverseRoot:
			p = p.GetAttr(s.Name)
		case hcl.TraverseAttr:
			p = p.GetAttr(s.Name)
		case hcl.TraverseIndex:
			p = p.Index(s.Key)
		default:
			return nil
		}
	}
	return p
}

// ignoreChanges replaces, in the configuration, each ignored path's value
// with the prior object's, so no change is planned there. O(size of cfg ×
// ignored paths).
func (ic *instanceCtx) ignoreChanges(prior, cfg cty.Value) cty.Value {
	paths := ic.n.ignore
	if len(paths) == 0 || prior.IsNull() || cfg.IsNull() {
		return cfg
	}
	out, err := cty.Transform(cfg, func(p cty.Path, v cty.Value) (cty.Value, error) {
		for _, ip := range paths {
			if !p.Equals(ip) {
				continue
			}
			if pv, err := ip.Apply(prior); err == nil && pv.Type().Equals(v.Type()) {
				return pv, nil
			}
		}
		return v, nil
	})
	if err != nil {
		return cfg
	}
	return out
}

// triggered reports whether a replace_triggered_by reference has a planned
// change: the referenced instance is updated or replaced, or, for a
// reference with an attribute, that attribute changes. A whole-resource
// reference from a counted or for_each'd resource means the instance with
// the same key, as count.index / each.key references do in Terraform.
func (pi *planInstance) triggered() bool {
	for _, ref := range pi.n.triggerReferences() {
		if pi.refChanged(ref) {
			return true
		}
	}
	return false
}

// triggerRefs are the references of a resource's replace_triggered_by,
// found once per node: they are the same for every instance.
type triggerRefs struct {
	once sync.Once
	refs []*addrs.Reference
}

// triggerReferences returns the references of the replace_triggered_by
// expressions, in order (none for a data source). O(expressions) once.
func (n *nodeResource) triggerReferences() []*addrs.Reference {
	n.triggers.once.Do(func() {
		m := n.block.Managed
		if m == nil {
			return
		}
		for _, expr := range m.ReplaceTriggeredBy {
			refs, _ := lang.ReferencesInExpr(expr)
			n.triggers.refs = append(n.triggers.refs, refs...)
		}
	})
	return n.triggers.refs
}

func (pi *planInstance) refChanged(ref *addrs.Reference) bool {
	mod := pi.w.mod.addr
	var changes []*plans.ResourceInstanceChange
	switch s := ref.Subject.(type) {
	case addrs.ResourceInstance:
		if rc := pi.pw.changes.get(s.Absolute(mod)); rc != nil {
			changes = append(changes, rc)
		}
	case addrs.Resource:
		target := pi.n.cfg.Module.ResourceByAddr(s)
		if target != nil && pi.w.rep.key != addrs.NoKey && (target.Count != nil || target.ForEach != nil) {
			if rc := pi.pw.changes.get(s.Instance(pi.w.rep.key).Absolute(mod)); rc != nil {
				changes = append(changes, rc)
			}
		} else {
			changes = pi.pw.changes.forResource(s.Absolute(mod))
		}
	default:
		return false
	}
	path := traversalPath(ref.Remaining)
	for _, rc := range changes {
		switch rc.Action {
		case plans.Update, plans.DeleteThenCreate, plans.CreateThenDelete:
		default:
			continue
		}
		if len(path) == 0 {
			return true
		}
		b, err1 := path.Apply(rc.Before)
		a, err2 := path.Apply(rc.After)
		if err1 != nil || err2 != nil {
			return true
		}
		if eq := b.Equals(a); !eq.IsKnown() || eq.False() {
			return true
		}
	}
	return false
}
