package terraform

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/providers"
)

// This file holds the resource side of OpenTofu's provider for_each: a
// resource instance chooses an instance of its provider configuration by
// the key expression of its provider argument (NAME.ALIAS[KEY]); an
// instance no longer configured uses the key its state recorded.

// hasProviderKey reports whether n's provider argument, or a module call
// passing its provider configuration, selects a provider instance.
func (n *nodeResource) hasProviderKey() bool {
	return n.passedKey != nil || n.block != nil && n.block.ProviderConfigRef != nil && n.block.ProviderConfigRef.KeyExpr != nil
}

// passedProviderKey is a provider instance selection made by a module
// call's providers map (providers = { aws = aws.by_region[each.key] }):
// expr is evaluated in the calling module instance with the call's each
// or count.
type passedProviderKey struct {
	expr hcl.Expression
	call addrs.Module // the path of the called module
}

// resolvePassedKey follows the provider configuration a resource in c uses
// up the module tree as resolveProvider does, and returns the instance
// selection of the module call that passed it keyed, if any.
func resolvePassedKey(c *configs.Config, local addrs.LocalProviderConfig, typ addrs.Provider) *passedProviderKey {
	for c.Parent != nil {
		if _, ok := c.Module.ProviderConfigs[local.String()]; ok {
			return nil
		}
		call := c.Parent.Module.ModuleCalls[c.Path[len(c.Path)-1]]
		passed := false
		for _, pp := range call.Providers {
			if pp.InChild == local {
				if pp.InParentKey != nil {
					return &passedProviderKey{expr: pp.InParentKey, call: c.Path}
				}
				local, passed = pp.InParent, true
				break
			}
		}
		if !passed {
			if local.Alias != "" {
				return nil
			}
			local = addrs.LocalProviderConfig{LocalName: c.Parent.Module.LocalNameForProvider(typ)}
		}
		c = c.Parent
	}
	return nil
}

// instanceProvider returns the provider instance for w and its key, or
// (nil, NoKey) when n's configuration has no instances (the node's shared
// provider is used then). O(1) plus one evaluation of the key expression.
func (n *nodeResource) instanceProvider(ws *walkState, w instanceWork) (providers.Interface, addrs.InstanceKey, hcl.Diagnostics) {
	var key addrs.InstanceKey = addrs.NoKey
	switch {
	case w.gone || n.block == nil:
		if ri := ws.prevState.ResourceInstance(w.addr); ri != nil && ri.ProviderKey != nil {
			key = ri.ProviderKey
		}
	case n.hasProviderKey():
		var v cty.Value
		var diags hcl.Diagnostics
		var expr hcl.Expression
		if n.passedKey != nil {
			expr = n.passedKey.expr
			v, diags = n.passedKeyValue(ws, w)
		} else {
			expr = n.block.ProviderConfigRef.KeyExpr
			rep := w.rep
			scope := ws.scope(w.mod, n.cfg, &rep, nil)
			v, diags = scope.EvalExpr(expr, cty.DynamicPseudoType)
			ws.putScope(scope)
		}
		if diags.HasErrors() {
			return nil, nil, diags
		}
		k, err := providerKeyOf(v)
		if err != nil {
			if ws.traits.unknowns {
				p, d := ws.provs.anyKey(n.provider)
				return p, addrs.NoKey, d
			}
			return nil, nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid provider instance key",
				Detail: fmt.Sprintf("The key selecting an instance of %s for %s %s.", n.provider, w.addr, err), Subject: expr.Range().Ptr()}}
		}
		key = k
	}
	if key == addrs.NoKey {
		return nil, addrs.NoKey, nil
	}
	p, diags := ws.provs.getKey(n.provider, key)
	return p, key, diags
}

// providerKeyOf converts a key expression's value to an instance key: a
// known string (or a number, as a string key, for-each keys being
// strings).
func providerKeyOf(v cty.Value) (addrs.InstanceKey, error) {
	v, _ = v.UnmarkDeep()
	switch {
	case !v.IsKnown():
		return nil, fmt.Errorf("is not known while planning; it must be, as OpenTofu requires")
	case v.IsNull():
		return nil, fmt.Errorf("is null")
	case v.Type() == cty.String:
		return addrs.StringKey(v.AsString()), nil
	case v.Type() == cty.Number:
		return addrs.StringKey(v.AsBigFloat().Text('f', -1)), nil
	}
	return nil, fmt.Errorf("is a %s, not a string", v.Type().FriendlyName())
}

// anyKey returns some started instance of addr (validation, where keys
// may be unknown: every instance has the same schema).
func (s *providerSet) anyKey(addr addrs.AbsProviderConfig) (providers.Interface, hcl.Diagnostics) {
	prefix := addr.String()
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, p := range s.m {
		if k == prefix || len(k) > len(prefix) && k[:len(prefix)+1] == prefix+"[" {
			return p, nil
		}
	}
	return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Provider not initialized",
		Detail: fmt.Sprintf("%s has no instances to validate with.", addr)}}
}

// passedKeyValue evaluates a module call's provider instance selection for
// resource instance w: in the module instance that calls the one w is in
// (at the call's depth), with that call instance's each or count.
// O(instances of the called module) to find it.
func (n *nodeResource) passedKeyValue(ws *walkState, w instanceWork) (cty.Value, hcl.Diagnostics) {
	pk := n.passedKey
	depth := len(pk.call)
	if len(w.addr.Module) < depth {
		return cty.DynamicVal, nil
	}
	target := w.addr.Module[:depth]
	callInst := w.mod
	if len(w.addr.Module) != depth {
		for _, mi := range ws.exp.moduleInstances(pk.call) {
			if mi.addr.Equal(target) {
				callInst = mi
				break
			}
		}
	}
	parent := moduleInst{addr: target.Parent()}
	parent.key = parent.addr.String()
	rep := callInst.rep
	parentCfg := n.cfg
	for range len(n.cfg.Path) - depth + 1 {
		parentCfg = parentCfg.Parent
	}
	scope := ws.scope(parent, parentCfg, &rep, nil)
	v, diags := scope.EvalExpr(pk.expr, cty.DynamicPseudoType)
	ws.putScope(scope)
	return v, diags
}

// keepStateProvider keeps the provider address the previous state gave
// the resource when it names the configuration's provider under the other
// public registry's host (an OpenTofu state's registry.opentofu.org): a
// replacement that destroyed the resource's only object before creating
// the new one recreated the resource with the configuration's address.
// (Writes to an existing resource keep it in states.) One map lookup per
// applied object.
func (ai *applyInstance) keepStateProvider() {
	twin, ok := ai.n.provider.Provider.RegistryTwin()
	if !ok {
		return
	}
	res := ai.w.addr.ContainingResource()
	prev := ai.ws.prevState.Resource(res)
	if prev == nil || prev.ProviderConfig.Provider != twin {
		return
	}
	s := ai.ws.state.Lock()
	if r := s.Resource(res); r != nil && r.ProviderConfig.Equivalent(prev.ProviderConfig) {
		r.ProviderConfig = prev.ProviderConfig
	}
	ai.ws.state.Unlock()
}
