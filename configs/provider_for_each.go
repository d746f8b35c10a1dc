package configs

import (
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/hcl/v2"
)

// checkProviderInstances checks OpenTofu's provider for_each within module
// m: a resource that selects an instance (NAME.ALIAS[KEY]) must name a
// provider block of m that has for_each, and a resource naming a block
// with for_each must select an instance. (A configuration with for_each
// cannot be passed to a child module: the providers map takes whole
// configurations.) O(resources).
func (m *Module) checkProviderInstances() hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, rs := range []map[string]*Resource{m.ManagedResources, m.DataResources, m.EphemeralResources} {
		for _, key := range slices.Sorted(maps.Keys(rs)) {
			r := rs[key]
			ref := r.ProviderConfigRef
			if ref == nil {
				continue
			}
			pc := m.ProviderConfigs[ref.Addr().String()]
			switch {
			case ref.KeyExpr != nil && (pc == nil || pc.ForEach == nil):
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid provider instance reference",
					Detail:   fmt.Sprintf("%s[...] selects an instance of a provider configuration, but this module has no provider %q block with alias %q and for_each.", ref.Addr(), ref.Name, ref.Alias),
					Subject:  ref.KeyExpr.Range().Ptr(),
				})
			case ref.KeyExpr == nil && pc != nil && pc.ForEach != nil:
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Provider instance key missing",
					Detail:   fmt.Sprintf("The provider configuration %s has for_each, so a resource must select one of its instances, like %s[each.key].", ref.Addr(), ref.Addr()),
					Subject:  ref.NameRange.Ptr(),
				})
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(m.ModuleCalls)) {
		for _, pp := range m.ModuleCalls[name].Providers {
			pc := m.ProviderConfigs[pp.InParent.String()]
			switch {
			case pp.InParentKey != nil && (pc == nil || pc.ForEach == nil):
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid provider instance reference",
					Detail:   fmt.Sprintf("%s[...] selects an instance of a provider configuration, but this module has no provider block %s with for_each.", pp.InParent, pp.InParent),
					Subject:  pp.InParentKey.Range().Ptr(),
				})
			case pp.InParentKey == nil && pc != nil && pc.ForEach != nil:
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Provider instance key missing",
					Detail:   fmt.Sprintf("The provider configuration %s has for_each, so module %q must be given one of its instances, like %s[each.key].", pp.InParent, name, pp.InParent),
					Subject:  pp.DeclRange.Ptr(),
				})
			}
		}
	}
	return diags
}
