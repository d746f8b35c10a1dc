package providertest

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/internal/providers/objchange"
	"github.com/plankit/plankit/providers"
)

// ValidateEphemeralResourceConfig checks the config against the schema.
func (p *Provider) ValidateEphemeralResourceConfig(req providers.ValidateEphemeralResourceConfigRequest) providers.ValidateEphemeralResourceConfigResponse {
	diags := p.enter(Call{Method: ValidateEphemeral, TypeName: req.TypeName, Key: p.keyOf(req.Config), Request: req})
	schema, sdiags := p.ephemeralSchema(req.TypeName)
	diags = append(diags, sdiags...)
	if !diags.HasErrors() {
		diags = append(diags, schema.ValidateValue(req.Config)...)
	}
	return providers.ValidateEphemeralResourceConfigResponse{Diagnostics: diags}
}

// OpenEphemeralResource runs OpenEphemeralFn if set; by default it
// returns the config with every computed attribute unset in config filled
// by UnknownFill, and the object's key as its private data.
func (p *Provider) OpenEphemeralResource(req providers.OpenEphemeralResourceRequest) providers.OpenEphemeralResourceResponse {
	key := p.keyOf(req.Config)
	diags := p.enter(Call{Method: OpenEphemeral, TypeName: req.TypeName, Key: key, Request: req})
	schema, sdiags := p.ephemeralSchema(req.TypeName)
	diags = append(diags, sdiags...)
	if diags.HasErrors() {
		return providers.OpenEphemeralResourceResponse{Diagnostics: diags}
	}
	if p.OpenEphemeralFn != nil {
		resp := p.OpenEphemeralFn(req)
		resp.Diagnostics = append(diags, resp.Diagnostics...)
		return resp
	}
	v := objchange.ProposedNew(schema, cty.NullVal(schema.ImpliedType()), req.Config)
	return providers.OpenEphemeralResourceResponse{Result: p.fillUnknowns(req.TypeName, v), Private: []byte(key), Diagnostics: diags}
}

// RenewEphemeralResource records the call; the key is the private data.
func (p *Provider) RenewEphemeralResource(req providers.RenewEphemeralResourceRequest) providers.RenewEphemeralResourceResponse {
	diags := p.enter(Call{Method: RenewEphemeral, TypeName: req.TypeName, Key: string(req.Private), Request: req})
	return providers.RenewEphemeralResourceResponse{Private: req.Private, Diagnostics: diags}
}

// CloseEphemeralResource records the call; the key is the private data.
func (p *Provider) CloseEphemeralResource(req providers.CloseEphemeralResourceRequest) providers.CloseEphemeralResourceResponse {
	diags := p.enter(Call{Method: CloseEphemeral, TypeName: req.TypeName, Key: string(req.Private), Request: req})
	return providers.CloseEphemeralResourceResponse{Diagnostics: diags}
}
