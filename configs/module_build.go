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

// addUnique stores obj under key unless the key is taken, in which case it
// returns the duplicate diagnostic made by dup from the first object.
func addUnique[T any](dst map[string]T, key string, obj T, dup func(prev T) *hcl.Diagnostic) hcl.Diagnostics {
	if prev, ok := dst[key]; ok {
		return hcl.Diagnostics{dup(prev)}
	}
	dst[key] = obj
	return nil
}

// appendFile adds a primary file's objects to m, reporting duplicates.
// O(objects in f).
func (m *Module) appendFile(f *file) hcl.Diagnostics {
	diags := m.appendSettings(f)
	for _, p := range f.providerConfigs {
		diags = append(diags, addUnique(m.ProviderConfigs, p.Addr().String(), p, func(prev *Provider) *hcl.Diagnostic {
			what := fmt.Sprintf("A default (non-aliased) configuration for provider %q", p.Name)
			if p.Alias != "" {
				what = fmt.Sprintf("A configuration for provider %q with alias %q", p.Name, p.Alias)
			}
			return duplicate("Duplicate provider configuration", what, prev.DeclRange, p.DeclRange)
		})...)
	}
	for _, v := range f.variables {
		diags = append(diags, addUnique(m.Variables, v.Name, v, func(prev *Variable) *hcl.Diagnostic {
			return duplicate("Duplicate variable declaration", fmt.Sprintf("A variable named %q", v.Name), prev.DeclRange, v.DeclRange)
		})...)
	}
	for _, l := range f.locals {
		diags = append(diags, addUnique(m.Locals, l.Name, l, func(prev *Local) *hcl.Diagnostic {
			return duplicate("Duplicate local value definition", fmt.Sprintf("A local value named %q", l.Name), prev.DeclRange, l.DeclRange)
		})...)
	}
	for _, o := range f.outputs {
		diags = append(diags, addUnique(m.Outputs, o.Name, o, func(prev *Output) *hcl.Diagnostic {
			return duplicate("Duplicate output definition", fmt.Sprintf("An output named %q", o.Name), prev.DeclRange, o.DeclRange)
		})...)
	}
	for _, mc := range f.moduleCalls {
		diags = append(diags, addUnique(m.ModuleCalls, mc.Name, mc, func(prev *ModuleCall) *hcl.Diagnostic {
			return duplicate("Duplicate module call", fmt.Sprintf("A module call named %q", mc.Name), prev.DeclRange, mc.DeclRange)
		})...)
	}
	for _, r := range f.managedResources {
		diags = append(diags, addUnique(m.ManagedResources, r.Addr().String(), r, func(prev *Resource) *hcl.Diagnostic {
			return duplicate(fmt.Sprintf("Duplicate resource %q configuration", r.Type), fmt.Sprintf("A %s resource named %q", r.Type, r.Name), prev.DeclRange, r.DeclRange)
		})...)
	}
	m.Moved = append(m.Moved, f.moved...)
	for _, r := range f.dataResources {
		diags = append(diags, addUnique(m.DataResources, r.Addr().String(), r, func(prev *Resource) *hcl.Diagnostic {
			return duplicate(fmt.Sprintf("Duplicate data %q configuration", r.Type), fmt.Sprintf("A %s data resource named %q", r.Type, r.Name), prev.DeclRange, r.DeclRange)
		})...)
	}
	for _, r := range f.ephemeralResources {
		diags = append(diags, addUnique(m.EphemeralResources, r.Addr().String(), r, func(prev *Resource) *hcl.Diagnostic {
			return duplicate(fmt.Sprintf("Duplicate ephemeral %q configuration", r.Type), fmt.Sprintf("A %s ephemeral resource named %q", r.Type, r.Name), prev.DeclRange, r.DeclRange)
		})...)
	}
	m.Import = append(m.Import, f.imports...)
	diags = append(diags, m.appendRemoved(f.removed)...)
	diags = append(diags, m.appendChecks(f)...)
	return diags
}

// appendSettings adds a primary file's terraform block content to m: core
// version constraints, required providers (one block per module) and the
// backend (one per module).
func (m *Module) appendSettings(f *file) hcl.Diagnostics {
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
		diags = append(diags, addUnique(m.ProviderRequirements, rp.Name, rp, func(prev *RequiredProvider) *hcl.Diagnostic {
			return duplicate("Duplicate required provider", fmt.Sprintf("The provider local name %q", rp.Name), prev.DeclRange, rp.DeclRange)
		})...)
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
	for _, e := range f.encryptions {
		if m.Encryption != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Duplicate encryption configuration",
				Detail:  fmt.Sprintf("A module may have only one encryption block; the first is at %s. Move these settings into it.", m.Encryption.DeclRange),
				Subject: e.DeclRange.Ptr()})
			continue
		}
		m.Encryption = e
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
	diags := m.mergeSettings(f)
	diags = append(diags, m.mergeNamed(f)...)
	diags = append(diags, importOverrideDiags(f.imports)...)
	diags = append(diags, overrideRemoved(f.removed)...)
	return diags
}

// mergeSettings applies the override file's module-wide settings (core
// version, required providers, backend, encryption); moved blocks cannot
// be overridden.
func (m *Module) mergeSettings(f *file) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, mv := range f.moved {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Cannot override 'moved' blocks",
			Detail: "moved blocks belong in primary files; an override file cannot declare or change them. Move this block into a primary (non-override) file.", Subject: mv.DeclRange.Ptr()})
	}
	if len(f.coreVersionConstraints) > 0 {
		m.CoreVersionConstraints = f.coreVersionConstraints
	}
	for _, rp := range f.requiredProviders {
		m.ProviderRequirements[rp.Name] = rp
	}
	for _, be := range f.backends {
		m.Backend = be
	}
	for _, e := range f.encryptions {
		if m.Encryption == nil {
			m.Encryption = &EncryptionBlock{Body: e.Body, DeclRange: e.DeclRange}
			continue
		}
		m.Encryption.Overrides = append(m.Encryption.Overrides, e.Body)
	}
	return diags
}

// mergeNamed merges each named block of the override file into the
// primary block of the same name; one without is an error.
func (m *Module) mergeNamed(f *file) hcl.Diagnostics {
	var diags hcl.Diagnostics
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
	for _, r := range f.ephemeralResources {
		base, ok := m.EphemeralResources[r.Addr().String()]
		if !ok {
			diags = append(diags, missingOverride("ephemeral resource", r.Addr().String(), r.DeclRange))
			continue
		}
		base.merge(r)
	}
	return diags
}
