package terraform

import (
	"context"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/providers"
)

// nodeProvider is one provider configuration: it starts the provider
// instance and configures it (validates it only, in the validate walk).
// Every resource using it depends on it.
type nodeProvider struct {
	addr   addrs.AbsProviderConfig
	cfg    *configs.Config   // the module declaring it (the root when implied)
	block  *configs.Provider // nil for an implied empty configuration
	schema *providers.Schema
	spec   hcldec.Spec
}

var (
	_ executable = (*nodeProvider)(nil)
	_ referencer = (*nodeProvider)(nil)
)

func (n *nodeProvider) Name() string { return n.addr.String() }

func (n *nodeProvider) body() hcl.Body {
	if n.block == nil || n.block.Config == nil {
		return hcl.EmptyBody()
	}
	return n.block.Config
}

func (n *nodeProvider) references() []refKey {
	keys := bodyKeys(n.addr.Module, n.body(), n.spec)
	if n.block != nil && n.block.ForEach != nil {
		keys = append(keys, exprKeys(n.addr.Module, n.block.ForEach)...)
	}
	if !n.addr.Module.IsRoot() {
		keys = append(keys, moduleCallKey(n.addr.Module))
	}
	return keys
}

func (n *nodeProvider) Execute(ctx context.Context, ws *walkState) hcl.Diagnostics {
	if n.block != nil && n.block.ForEach != nil {
		return n.executeForEach(ws)
	}
	return n.configure(ws, addrs.NoKey, nil)
}

// executeForEach starts and configures one provider instance per key of
// the block's for_each (OpenTofu's provider for_each), each with each.key
// and each.value. The keys must be known while planning, as OpenTofu
// requires: resources choose their provider instance by key.
func (n *nodeProvider) executeForEach(ws *walkState) hcl.Diagnostics {
	insts := ws.exp.moduleInstances(n.addr.Module)
	if len(insts) == 0 {
		return nil
	}
	scope := ws.scope(insts[0], n.cfg, nil, nil)
	x, diags := evalExpansion(scope, nil, n.block.ForEach, ws.traits.unknowns)
	ws.putScope(scope)
	if diags.HasErrors() {
		return diags
	}
	if !x.known {
		if ws.traits.unknowns {
			// One instance stands for them all, with unknown each.
			return append(diags, n.configure(ws, addrs.NoKey, &repetition{mode: expUnknown})...)
		}
		return append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid provider for_each",
			Detail:  "The for_each of a provider configuration must be known when planning: it decides which provider instances exist. Use only variables, locals and constants in it.",
			Subject: n.block.ForEach.Range().Ptr()})
	}
	for i := range x.len() {
		k := x.key(i)
		rep := x.rep(k)
		diags = append(diags, n.configure(ws, k, &rep)...)
	}
	return diags
}

// configure starts instance key of the configuration and configures it
// (validates it only, in the validate walk); rep is the instance's each.
func (n *nodeProvider) configure(ws *walkState, key addrs.InstanceKey, rep *repetition) hcl.Diagnostics {
	p, diags := ws.provs.startKey(n.addr, key)
	if diags.HasErrors() {
		return diags
	}
	insts := ws.exp.moduleInstances(n.addr.Module)
	if len(insts) == 0 {
		return nil // module has no instances: nothing uses this configuration
	}
	val, d := ws.scope(insts[0], n.cfg, rep, nil).EvalBlock(n.body(), n.spec)
	diags = append(diags, d...)
	if d.HasErrors() {
		return diags
	}
	u, _ := val.UnmarkDeep()
	vr := p.ValidateProviderConfig(providers.ValidateProviderConfigRequest{Config: u})
	diags = append(diags, n.subject(vr.Diagnostics)...)
	if diags.HasErrors() || ws.traits.unknowns {
		return diags
	}
	cr := p.ConfigureProvider(providers.ConfigureProviderRequest{TerraformVersion: coreVersion, Config: u})
	return append(diags, n.subject(cr.Diagnostics)...)
}

func (n *nodeProvider) subject(diags hcl.Diagnostics) hcl.Diagnostics {
	if n.block == nil {
		return diags
	}
	for _, d := range diags {
		if d.Subject == nil {
			d.Subject = n.block.DeclRange.Ptr()
		}
	}
	return diags
}

// coreVersion is the version plankit reports to providers.
const coreVersion = "1.12.0"

// nodeProviderClose closes a provider instance after its last user.
type nodeProviderClose struct {
	addr addrs.AbsProviderConfig
}

var _ executable = (*nodeProviderClose)(nil)

func (n *nodeProviderClose) Name() string { return n.addr.String() + " (close)" }

func (n *nodeProviderClose) Execute(ctx context.Context, ws *walkState) hcl.Diagnostics {
	ws.provs.close(n.addr)
	return nil
}
