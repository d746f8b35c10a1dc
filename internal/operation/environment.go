package operation

import (
	"net/http"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/providers"
)

// Environment is what operations take from the process: its environment
// variables, how providers are served and how registries are reached.
type Environment struct {
	// Env is the process environment as KEY=VALUE (TF_VAR_ values; HOME,
	// TF_CLI_CONFIG_FILE, TF_PLUGIN_CACHE_DIR, TF_DATA_DIR for discovery).
	Env []string
	// Providers, when set, is the fixed set of provider factories plan
	// and apply use, with no discovery (tests pass doubles here).
	Providers map[addrs.Provider]providers.Factory
	// ProvidersIn, when set, builds the provider factories for a working
	// directory (the absolute -chdir directory), so in-process providers
	// resolve relative paths there as Terraform's do (builtin.FactoriesIn).
	ProvidersIn func(workingDir string) map[addrs.Provider]providers.Factory
	// Plugins starts provider plugins found by discovery (cli wires it to
	// providers/plugin). Discovery (providers/install) runs when Providers
	// is nil: plugins first, then the built-ins ProvidersIn serves.
	Plugins PluginFactory
	// PrestartPlugin, when set, starts the plugin Plugins would serve for
	// the same arguments in the background, for the first Factory call
	// to take (cli wires it to providers/plugin.Prestart; see
	// PrestartLocked).
	PrestartPlugin func(p addrs.Provider, version, executable string)
	// HTTPClient talks to provider and module registries and mirrors
	// (plan init, -install); nil means the default transport, which
	// honours HTTPS_PROXY and SSL_CERT_FILE.
	HTTPClient *http.Client
}

// ProviderSource is where a run gets its providers in this environment.
func (e *Environment) ProviderSource() *ProviderSource {
	return &ProviderSource{Env: e.Env, Fixed: e.Providers, In: e.ProvidersIn, Plugins: e.Plugins, Prestart: e.PrestartPlugin}
}
