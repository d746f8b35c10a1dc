package configs

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
)

// duplicate builds the "declared twice" diagnostic, naming the first
// declaration's place so the user can pick which one to keep.
func duplicate(summary, what string, first, second hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  summary,
		Detail:   fmt.Sprintf("%s was already declared at %s. Names must be unique within a module; rename or remove one of them.", what, first),
		Subject:  second.Ptr(),
	}
}

// appendFile adds a primary file's objects to m, reporting duplicates.
// O(objects in f).
func (m *Module) appendFile(f *file) hcl.Diagnostics {
	var diags hcl.Diagnostics
	m.CoreVersionConstraints = append(m.CoreVersionConstraints, f.coreVersionConstraints...)
	for _, rng := range f.requiredProvidersRange {
		if m.requiredProvidersRange != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Duplicate required providers configuration",
				Detail:   fmt.Sprintf("A module may have only one required_providers block; the first is at %s. Move these entries into it.", *m.requiredProvidersRange),
				Subject:  rng.Ptr(),
			})
			continue
		}
		r := rng
		m.requiredProvidersRange = &r
	}
	for _, rp := range f.requiredProviders {
		if prev, ok := m.ProviderRequirements[rp.Name]; ok {
			diags = append(diags, duplicate("Duplicate required provider", fmt.Sprintf("The provider local name %q", rp.Name), prev.DeclRange, rp.DeclRange))
			continue
		}
		m.ProviderRequirements[rp.Name] = rp
	}
	for _, be := range f.backends {
		if m.Backend != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Duplicate backend configuration",
				Detail:   fmt.Sprintf("A module may have only one backend; the first is at %s.", m.Backend.DeclRange),
				Subject:  be.DeclRange.Ptr(),
			})
			continue
		}
		m.Backend = be
	}
	for _, p := range f.providerConfigs {
		key := p.Addr().String()
		if prev, ok := m.ProviderConfigs[key]; ok {
			what := fmt.Sprintf("A default (non-aliased) configuration for provider %q", p.Name)
			if p.Alias != "" {
				what = fmt.Sprintf("A configuration for provider %q with alias %q", p.Name, p.Alias)
			}
			diags = append(diags, duplicate("Duplicate provider configuration", what, prev.DeclRange, p.DeclRange))
			continue
		}
		m.ProviderConfigs[key] = p
	}
	for _, v := range f.variables {
		if prev, ok := m.Variables[v.Name]; ok {
			diags = append(diags, duplicate("Duplicate variable declaration", fmt.Sprintf("A variable named %q", v.Name), prev.DeclRange, v.DeclRange))
			continue
		}
		m.Variables[v.Name] = v
	}
	for _, l := range f.locals {
		if prev, ok := m.Locals[l.Name]; ok {
			diags = append(diags, duplicate("Duplicate local value definition", fmt.Sprintf("A local value named %q", l.Name), prev.DeclRange, l.DeclRange))
			continue
		}
		m.Locals[l.Name] = l
	}
	for _, o := range f.outputs {
		if prev, ok := m.Outputs[o.Name]; ok {
			diags = append(diags, duplicate("Duplicate output definition", fmt.Sprintf("An output named %q", o.Name), prev.DeclRange, o.DeclRange))
			continue
		}
		m.Outputs[o.Name] = o
	}
	for _, mc := range f.moduleCalls {
		if prev, ok := m.ModuleCalls[mc.Name]; ok {
			diags = append(diags, duplicate("Duplicate module call", fmt.Sprintf("A module call named %q", mc.Name), prev.DeclRange, mc.DeclRange))
			continue
		}
		m.ModuleCalls[mc.Name] = mc
	}
	for _, r := range f.managedResources {
		key := r.Addr().String()
		if prev, ok := m.ManagedResources[key]; ok {
			diags = append(diags, duplicate(fmt.Sprintf("Duplicate resource %q configuration", r.Type), fmt.Sprintf("A %s resource named %q", r.Type, r.Name), prev.DeclRange, r.DeclRange))
			continue
		}
		m.ManagedResources[key] = r
	}
	for _, r := range f.dataResources {
		key := r.Addr().String()
		if prev, ok := m.DataResources[key]; ok {
			diags = append(diags, duplicate(fmt.Sprintf("Duplicate data %q configuration", r.Type), fmt.Sprintf("A %s data resource named %q", r.Type, r.Name), prev.DeclRange, r.DeclRange))
			continue
		}
		m.DataResources[key] = r
	}
	return diags
}

// missingOverride is the error for an override block with no primary block
// of the same name.
func missingOverride(what, name string, rng hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Missing " + what + " to override",
		Detail:   fmt.Sprintf("There is no %s named %q in this module's primary (non-override) files for this override block to change. Declare it in a primary file, or move this block out of the override file.", what, name),
		Subject:  rng.Ptr(),
	}
}

// mergeFile applies an override file to m: each block replaces the
// arguments it sets in the primary block of the same name. O(objects in f).
func (m *Module) mergeFile(f *file) hcl.Diagnostics {
	var diags hcl.Diagnostics
	if len(f.coreVersionConstraints) > 0 {
		m.CoreVersionConstraints = f.coreVersionConstraints
	}
	for _, rp := range f.requiredProviders {
		m.ProviderRequirements[rp.Name] = rp
	}
	for _, be := range f.backends {
		m.Backend = be
	}
	for _, p := range f.providerConfigs {
		base, ok := m.ProviderConfigs[p.Addr().String()]
		if !ok {
			diags = append(diags, missingOverride("provider configuration", p.Addr().String(), p.DeclRange))
			continue
		}
		base.Config = mergeBodies(base.Config, p.Config)
	}
	for _, v := range f.variables {
		base, ok := m.Variables[v.Name]
		if !ok {
			diags = append(diags, missingOverride("variable", v.Name, v.DeclRange))
			continue
		}
		diags = append(diags, base.merge(v)...)
	}
	for _, l := range f.locals {
		base, ok := m.Locals[l.Name]
		if !ok {
			diags = append(diags, missingOverride("local value", l.Name, l.DeclRange))
			continue
		}
		base.Expr = l.Expr
	}
	for _, o := range f.outputs {
		base, ok := m.Outputs[o.Name]
		if !ok {
			diags = append(diags, missingOverride("output", o.Name, o.DeclRange))
			continue
		}
		base.merge(o)
	}
	for _, mc := range f.moduleCalls {
		base, ok := m.ModuleCalls[mc.Name]
		if !ok {
			diags = append(diags, missingOverride("module call", mc.Name, mc.DeclRange))
			continue
		}
		base.merge(mc)
	}
	for _, r := range f.managedResources {
		base, ok := m.ManagedResources[r.Addr().String()]
		if !ok {
			diags = append(diags, missingOverride("resource", r.Addr().String(), r.DeclRange))
			continue
		}
		base.merge(r)
	}
	for _, r := range f.dataResources {
		base, ok := m.DataResources[r.Addr().String()]
		if !ok {
			diags = append(diags, missingOverride("data resource", r.Addr().String(), r.DeclRange))
			continue
		}
		base.merge(r)
	}
	return diags
}
