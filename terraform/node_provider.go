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
	if !n.addr.Module.IsRoot() {
		keys = append(keys, moduleCallKey(n.addr.Module))
	}
	return keys
}

func (n *nodeProvider) Execute(ctx context.Context, ws *walkState) hcl.Diagnostics {
	p, diags := ws.provs.start(n.addr)
	if diags.HasErrors() {
		return diags
	}
	insts := ws.exp.moduleInstances(n.addr.Module)
	if len(insts) == 0 {
		return nil // module has no instances: nothing uses this configuration
	}
	val, d := ws.scope(insts[0], n.cfg, nil, nil).EvalBlock(n.body(), n.spec)
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
