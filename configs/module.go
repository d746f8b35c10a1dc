package configs

import (
	"github.com/hashicorp/hcl/v2"
	"maps"
	"slices"

	"github.com/plankit/plankit/addrs"
)

// Module is one module's static configuration, merged from all of its files
// (primary files first, then override files).
type Module struct {
	// SourceDir is the module's directory relative to the root module's
	// directory, slash-separated: "." for the root, "modules/net" for a
	// child. It is what path.module means, and the directory prefix of
	// every range filename in the module.
	SourceDir              string
	Files                  map[string][]byte // every source file's bytes by base name (snapshot material)
	CoreVersionConstraints []VersionConstraint
	ProviderRequirements   map[string]*RequiredProvider // by local name
	Backend                *Backend                     // nil when none
	Encryption             *EncryptionBlock             // nil when none
	ProviderConfigs        map[string]*Provider         // key "null" or "null.alias" (LocalProviderConfig.String())
	Variables              map[string]*Variable
	Locals                 map[string]*Local
	Outputs                map[string]*Output
	ModuleCalls            map[string]*ModuleCall
	ManagedResources       map[string]*Resource // key addrs.Resource.String(): "type.name"
	DataResources          map[string]*Resource // key "data.type.name"
	EphemeralResources     map[string]*Resource // key "ephemeral.type.name"
	Removed                []*Removed           // removed blocks, in file order
	Checks                 map[string]*Check    // check blocks by name
	// Import are the import blocks, in file and source order.
	Import []*Import
	// importIdx indexes Import by target resource (ImportsFor); shared
	// by shallow copies of the module.
	importIdx *importIndex
	// Moved are the module's moved blocks in file order (primary files
	// by name, then each file's blocks in order).
	Moved []*Moved

	// requiredProvidersRange is where the first required_providers block
	// is, for the duplicate-block diagnostic (a module may have only one).
	requiredProvidersRange *hcl.Range
}

func newModule(dir string) *Module {
	return &Module{
		SourceDir:            dir,
		Files:                map[string][]byte{},
		ProviderRequirements: map[string]*RequiredProvider{},
		ProviderConfigs:      map[string]*Provider{},
		Variables:            map[string]*Variable{},
		Locals:               map[string]*Local{},
		Outputs:              map[string]*Output{},
		ModuleCalls:          map[string]*ModuleCall{},
		ManagedResources:     map[string]*Resource{},
		DataResources:        map[string]*Resource{},
		EphemeralResources:   map[string]*Resource{},
		importIdx:            &importIndex{},
		Checks:               map[string]*Check{},
	}
}

// ResourceByAddr returns the resource block with address a, or nil.
func (m *Module) ResourceByAddr(a addrs.Resource) *Resource {
	switch a.Mode {
	case addrs.ManagedResourceMode:
		return m.ManagedResources[a.String()]
	case addrs.DataResourceMode:
		return m.DataResources[a.String()]
	case addrs.EphemeralResourceMode:
		return m.EphemeralResources[a.String()]
	}
	return nil
}

// ProviderForLocalConfig returns the provider a local provider reference
// means in this module: its required_providers entry, else the provider
// implied by the local name (hashicorp/NAME, or the built-in terraform).
func (m *Module) ProviderForLocalConfig(pc addrs.LocalProviderConfig) addrs.Provider {
	if rp, ok := m.ProviderRequirements[pc.LocalName]; ok {
		return rp.Type
	}
	return addrs.ImpliedProviderForUnqualifiedType(pc.LocalName)
}

// LocalNameForProvider returns the name this module uses for p: the first
// (by name) required_providers entry with that source, else p's type name.
func (m *Module) LocalNameForProvider(p addrs.Provider) string {
	for _, name := range slices.Sorted(maps.Keys(m.ProviderRequirements)) {
		if m.ProviderRequirements[name].Type == p {
			return name
		}
	}
	return p.Type
}

// resolveProviders sets every resource's Provider from its provider
// reference once all files (and overrides) are merged.
func (m *Module) resolveProviders() {
	for _, rs := range []map[string]*Resource{m.ManagedResources, m.DataResources, m.EphemeralResources} {
		for _, r := range rs {
			r.Provider = m.ProviderForLocalConfig(r.ProviderConfigAddr())
		}
	}
}
