package terraform

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/lang"
)

// refKey names something a node can be referred to by, within a static
// module: "<module>|<what>", e.g. "module.net|var.cidr" or "|aws_vpc.main".
type refKey string

func keyIn(mod addrs.Module, what string) refKey { return refKey(mod.String() + "|" + what) }

// referenceable is a node others can depend on by reference.
type referenceable interface {
	referenceKeys() []refKey
}

// referencer is a node whose expressions refer to other nodes.
type referencer interface {
	references() []refKey
}

// moduleCallKey is the key of the expansion node of the module at path
// (which must not be the root).
func moduleCallKey(path addrs.Module) refKey {
	return keyIn(path.Parent(), "modulecall."+path[len(path)-1])
}

// keysForRefs turns references made in module mod into the keys of the
// nodes they depend on. A module output reference depends on that output
// and on the call's expansion; a whole-module reference on every output.
// Resource instance references depend on the whole resource node, whose
// instances are all planned before it completes. O(len(refs)).
func keysForRefs(mod addrs.Module, refs []*addrs.Reference) []refKey {
	out := make([]refKey, 0, len(refs))
	for _, r := range refs {
		switch s := r.Subject.(type) {
		case addrs.InputVariable, addrs.LocalValue, addrs.Resource:
			out = append(out, keyIn(mod, s.String()))
		case addrs.ResourceInstance:
			out = append(out, keyIn(mod, s.Resource.String()))
		case addrs.ModuleCall:
			out = append(out, keyIn(mod, "modulecall."+s.Name), keyIn(mod, "module."+s.Name))
		case addrs.ModuleCallInstance:
			out = append(out, keyIn(mod, "modulecall."+s.Call.Name), keyIn(mod, "module."+s.Call.Name))
		case addrs.ModuleCallInstanceOutput:
			out = append(out, keyIn(mod, "modulecall."+s.Call.Call.Name), keyIn(mod.Child(s.Call.Call.Name), "output."+s.Name))
		}
	}
	return out
}

// exprKeys returns the keys of the references in exprs (nil ones skipped).
// Invalid references are reported during evaluation, not here.
func exprKeys(mod addrs.Module, exprs ...hcl.Expression) []refKey {
	var out []refKey
	for _, e := range exprs {
		if e == nil {
			continue
		}
		refs, _ := lang.ReferencesInExpr(e)
		out = append(out, keysForRefs(mod, refs)...)
	}
	return out
}

// bodyKeys returns the keys of the references in the parts of body spec
// decodes.
func bodyKeys(mod addrs.Module, body hcl.Body, spec hcldec.Spec) []refKey {
	refs, _ := lang.ReferencesInBlock(body, spec)
	return keysForRefs(mod, refs)
}

// traversalKeys returns the keys of depends_on style traversals.
func traversalKeys(mod addrs.Module, travs []hcl.Traversal) []refKey {
	refs, _ := lang.References(travs)
	return keysForRefs(mod, refs)
}

// referenceTransformer connects every referencer to the nodes its keys
// name, and marks the resource nodes referred to (nodeResource.referenced).
// One map of keys to nodes: O(V + references).
type referenceTransformer struct{}

func (referenceTransformer) Transform(g *Graph) error {
	byKey := map[refKey][]Node{}
	for _, n := range g.Vertices() {
		if r, ok := n.(referenceable); ok {
			for _, k := range r.referenceKeys() {
				byKey[k] = append(byKey[k], n)
			}
		}
	}
	for _, n := range g.Vertices() {
		r, ok := n.(referencer)
		if !ok {
			continue
		}
		for _, k := range r.references() {
			for _, target := range byKey[k] {
				g.Connect(n, target)
				if res, ok := target.(*nodeResource); ok {
					res.referenced = true
				}
			}
		}
	}
	return nil
}
