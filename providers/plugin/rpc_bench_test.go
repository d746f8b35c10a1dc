package plugin

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/providers"
)

// BenchmarkPlanRPC measures one PlanResourceChange round trip to the
// framework provider (create of a small object).
func BenchmarkPlanRPC(b *testing.B) {
	p, _ := testProviderB(b, "fw")
	s := p.GetProviderSchema().ResourceTypes["fwtest_thing"].Block
	cfg := with(s, map[string]cty.Value{"name": cty.StringVal("a"), "value": cty.StringVal("v")})
	null := cty.NullVal(s.ImpliedType())
	for b.Loop() {
		r := p.PlanResourceChange(providers.PlanResourceChangeRequest{TypeName: "fwtest_thing", PriorState: null, ProposedNewState: cfg, Config: cfg})
		if r.Diagnostics.HasErrors() {
			b.Fatal(r.Diagnostics.Error())
		}
	}
}

// BenchmarkValidateProviderRPC measures the cheapest round trip.
func BenchmarkValidateProviderRPC(b *testing.B) {
	for _, which := range []string{"fw", "sdk"} {
		b.Run(which, func(b *testing.B) {
			p, _ := testProviderB(b, which)
			s := p.GetProviderSchema().Provider.Block
			for b.Loop() {
				r := p.ValidateProviderConfig(providers.ValidateProviderConfigRequest{Config: s.EmptyValue()})
				if r.Diagnostics.HasErrors() {
					b.Fatal(r.Diagnostics.Error())
				}
			}
		})
	}
}
