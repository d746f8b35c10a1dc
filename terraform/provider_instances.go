package terraform

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/providers"
)

// This file holds the resource side of OpenTofu's provider for_each: a
// resource instance chooses an instance of its provider configuration by
// the key expression of its provider argument (NAME.ALIAS[KEY]); an
// instance no longer configured uses the key its state recorded.

// hasProviderKey reports whether n's provider argument selects a
// provider instance.
func (n *nodeResource) hasProviderKey() bool {
	return n.rc != nil && n.rc.ProviderConfigRef != nil && n.rc.ProviderConfigRef.KeyExpr != nil
}

// instanceProvider returns the provider instance for w and its key, or
// (nil, NoKey) when n's configuration has no instances (the node's shared
// provider is used then). O(1) plus one evaluation of the key expression.
func (n *nodeResource) instanceProvider(ws *walkState, w instanceWork) (providers.Interface, addrs.InstanceKey, hcl.Diagnostics) {
	var key addrs.InstanceKey = addrs.NoKey
	switch {
	case w.gone || n.rc == nil:
		if ri := ws.prevState.ResourceInstance(w.addr); ri != nil && ri.ProviderKey != nil {
			key = ri.ProviderKey
		}
	case n.hasProviderKey():
		expr := n.rc.ProviderConfigRef.KeyExpr
		rep := w.rep
		scope := ws.scope(w.mod, n.cfg, &rep, nil)
		v, diags := scope.EvalExpr(expr, cty.DynamicPseudoType)
		ws.putScope(scope)
		if diags.HasErrors() {
			return nil, nil, diags
		}
		k, err := providerKeyOf(v)
		if err != nil {
			if ws.op == opValidate {
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
