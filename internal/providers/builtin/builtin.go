// Package builtin registers the providers plankit runs in-process, with no
// download: terraform.io/builtin/terraform and the hashicorp null, random
// and local providers (under both registry.terraform.io and
// registry.opentofu.org). Each is schema-compatible with the provider users
// already have, so configurations and state written for it work
// unchanged.
package builtin

import (
	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/providers/builtin/local"
	"github.com/plankit/plankit/internal/providers/builtin/null"
	"github.com/plankit/plankit/internal/providers/builtin/random"
	"github.com/plankit/plankit/internal/providers/builtin/tfdata"
	"github.com/plankit/plankit/providers"
)

// Factories returns a fresh map from provider source address to factory
// for every built-in provider, resolving relative paths (local_file's
// filename and source) against the process's working directory. The map
// is the caller's to modify (tests add providertest doubles to it).
func Factories() map[addrs.Provider]providers.Factory { return FactoriesIn("") }

// FactoriesIn is Factories with relative paths resolved against
// workingDir, the directory a command's -chdir names (the one it passes
// as terraform.ContextOpts.WorkingDir): Terraform changes into that
// directory, so its providers see paths such as "${path.module}/x"
// relative to it. "" means the process's working directory.
func FactoriesIn(workingDir string) map[addrs.Provider]providers.Factory {
	m := map[addrs.Provider]providers.Factory{
		addrs.NewBuiltInProvider("terraform"): tfdata.Factory,
		addrs.NewDefaultProvider("null"):      null.Factory,
		addrs.NewDefaultProvider("random"):    random.Factory,
		addrs.NewDefaultProvider("local"):     local.FactoryIn(workingDir),
	}
	// OpenTofu's registry publishes the same providers: its states and
	// configurations name registry.opentofu.org/hashicorp/null and the rest.
	for _, typ := range []string{"null", "random", "local"} {
		p := addrs.NewDefaultProvider(typ)
		twin, _ := p.RegistryTwin()
		m[twin] = m[p]
	}
	return m
}
