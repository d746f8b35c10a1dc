package builtin

import "github.com/plankit/plankit/addrs"

// OpenTofuRegistryHost is the registry OpenTofu writes into source
// addresses and states: registry.opentofu.org/hashicorp/null is the same
// provider as registry.terraform.io/hashicorp/null.
const OpenTofuRegistryHost = "registry.opentofu.org"

// upstreamVersions are the releases of the published providers whose
// schemas and behaviour the built-ins reproduce; version constraints in
// required_providers are checked against them.
var upstreamVersions = map[string]string{
	"null":   "3.2.4",
	"random": "3.8.1", // random_uuid4 and random_uuid7 are 3.8.0+
	"local":  "2.5.3",
}

// Versions maps every provider address a built-in serves to the upstream
// version it is compatible with: the hashicorp null, random and local
// providers under both registry.terraform.io and registry.opentofu.org,
// and terraform.io/builtin/terraform with no version (""). The map is
// new on each call.
func Versions() map[addrs.Provider]string {
	out := map[addrs.Provider]string{addrs.NewBuiltInProvider("terraform"): ""}
	for typ, v := range upstreamVersions {
		p := addrs.NewDefaultProvider(typ)
		out[p] = v
		p.Hostname = OpenTofuRegistryHost
		out[p] = v
	}
	return out
}

// Canonical returns the address FactoriesIn registers for a provider a
// built-in serves: registry.opentofu.org/hashicorp/TYPE becomes
// registry.terraform.io/hashicorp/TYPE; anything else is returned as is.
func Canonical(p addrs.Provider) addrs.Provider {
	if p.Hostname == OpenTofuRegistryHost && p.Namespace == addrs.DefaultProviderNamespace {
		if _, ok := upstreamVersions[p.Type]; ok {
			return addrs.NewDefaultProvider(p.Type)
		}
	}
	return p
}
