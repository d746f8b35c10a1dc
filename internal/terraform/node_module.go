package terraform

import (
	"context"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
)

// nodeModuleExpand is a module call: it evaluates the call's count or
// for_each in each instance of the calling module and records the child
// module instances. Everything inside the module runs after it.
type nodeModuleExpand struct {
	cfg  *configs.Config // the child module
	call *configs.ModuleCall
}

var (
	_ executable    = (*nodeModuleExpand)(nil)
	_ referencer    = (*nodeModuleExpand)(nil)
	_ referenceable = (*nodeModuleExpand)(nil)
)

func (n *nodeModuleExpand) Name() string { return n.cfg.Path.String() + " (expand)" }

func (n *nodeModuleExpand) referenceKeys() []refKey { return []refKey{moduleCallKey(n.cfg.Path)} }

func (n *nodeModuleExpand) references() []refKey {
	parent := n.cfg.Path.Parent()
	keys := append(exprKeys(parent, n.call.Count, n.call.ForEach), traversalKeys(parent, n.call.DependsOn)...)
	if !parent.IsRoot() {
		keys = append(keys, moduleCallKey(parent))
	}
	return keys
}

func (n *nodeModuleExpand) Execute(ctx context.Context, ws *walkState) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, pi := range ws.exp.moduleInstances(n.cfg.Path.Parent()) {
		s := ws.scope(pi, n.cfg.Parent, nil, nil)
		x, d := evalExpansion(s, n.call.Count, n.call.ForEach, ws.traits.unknowns)
		ws.putScope(s)
		if !d.HasErrors() {
			d = append(d, ws.checkExpansion(x, n.call.Count, n.call.ForEach, "module \""+n.call.Name+"\"")...)
		}
		diags = append(diags, d...)
		if d.HasErrors() {
			continue
		}
		if !x.known {
			x = expansion{mode: expUnknown, keys: []addrs.InstanceKey{addrs.NoKey}, known: true}
		}
		insts := make([]moduleInst, x.len())
		for i := range insts {
			k := x.key(i)
			a := pi.addr.Child(n.call.Name, k)
			insts[i] = moduleInst{addr: a, key: a.String(), rep: x.rep(k)}
		}
		ws.exp.setModuleCall(pi, n.call.Name, insts)
	}
	return diags
}
