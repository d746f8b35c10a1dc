package install

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/safeio"
)

// CLIConfig is the part of Terraform's CLI configuration file
// (TF_CLI_CONFIG_FILE, else ~/.terraformrc) that discovery uses.
type CLIConfig struct {
	// Path is the file read ("" when there is none).
	Path string
	// Mirrors are the provider_installation block's filesystem_mirror
	// entries, in file order.
	Mirrors []*Source
	// HasInstallation is set when the file has a provider_installation
	// block: then Terraform uses only the methods it lists, and the
	// implied ~/.terraform.d/plugins mirror is not searched.
	HasInstallation bool
	// PluginCacheDir is plugin_cache_dir, with environment variables
	// expanded as Terraform expands them.
	PluginCacheDir string
	// DevOverrides are the provider_installation block's dev_overrides:
	// for each provider, a directory holding its executable, used instead
	// of any installed package whatever the version constraints and the
	// lock file say (as Terraform and OpenTofu do, with a warning).
	DevOverrides map[addrs.Provider]string
}

var cliConfigSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "plugin_cache_dir"}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "provider_installation"}},
}

var installationSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "filesystem_mirror"},
		{Type: "network_mirror"},
		{Type: "direct"},
		{Type: "dev_overrides"},
	},
}

var mirrorSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "path", Required: true},
		{Name: "include"},
		{Name: "exclude"},
	},
}

// LoadCLIConfig reads the CLI configuration file env names:
// TF_CLI_CONFIG_FILE, else $HOME/.terraformrc. A missing file is an empty
// configuration. Settings discovery does not use (credentials, hosts,
// network mirrors) are ignored. env is KEY=VALUE.
func LoadCLIConfig(env []string) (*CLIConfig, hcl.Diagnostics) {
	path := lookupEnv(env, "TF_CLI_CONFIG_FILE")
	if path == "" {
		home := lookupEnv(env, "HOME")
		if home == "" {
			return &CLIConfig{}, nil
		}
		path = filepath.Join(home, ".terraformrc")
	}
	src, err := safeio.ReadFile(path, safeio.ConfigFileLimit)
	if os.IsNotExist(err) {
		return &CLIConfig{}, nil
	}
	if err != nil {
		return &CLIConfig{}, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot read the CLI configuration",
			Detail: fmt.Sprintf("Reading %s failed: %s.", path, err)}}
	}
	return ParseCLIConfig(src, path, env)
}

// ParseCLIConfig parses CLI configuration source (HCL native syntax, or
// JSON when filename ends in .json).
func ParseCLIConfig(src []byte, filename string, env []string) (*CLIConfig, hcl.Diagnostics) {
	cfg := &CLIConfig{Path: filename}
	f, rawOverrides, diags := parseCLIFile(src, filename)
	if diags.HasErrors() {
		return cfg, diags
	}
	content, _, ds := f.Body.PartialContent(cliConfigSchema)
	diags = append(diags, ds...)
	if attr, ok := content.Attributes["plugin_cache_dir"]; ok {
		s, ds := stringValue(attr.Expr, "plugin_cache_dir")
		diags = append(diags, ds...)
		cfg.PluginCacheDir = expandPath(s, env)
	}
	for _, block := range content.Blocks {
		if cfg.HasInstallation {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Duplicate provider_installation block",
				Detail: "The CLI configuration may have only one provider_installation block; merge them.", Subject: block.DefRange.Ptr()})
			continue
		}
		cfg.HasInstallation = true
		inner, ds := block.Body.Content(installationSchema)
		diags = append(diags, ds...)
		for _, m := range inner.Blocks {
			if m.Type == "dev_overrides" {
				raw := rawOverride(m, rawOverrides)
				if cfg.DevOverrides == nil {
					cfg.DevOverrides = map[addrs.Provider]string{}
				}
				diags = append(diags, devOverrides(m, raw, env, cfg.DevOverrides)...)
				continue
			}
			if m.Type != "filesystem_mirror" {
				continue // network methods: plankit never downloads
			}
			src, ds := decodeMirror(m, filename, env)
			diags = append(diags, ds...)
			if src != nil {
				cfg.Mirrors = append(cfg.Mirrors, src)
			}
		}
	}
	return cfg, diags
}

func decodeMirror(block *hcl.Block, filename string, env []string) (*Source, hcl.Diagnostics) {
	content, diags := block.Body.Content(mirrorSchema)
	if diags.HasErrors() {
		return nil, diags
	}
	path, ds := stringValue(content.Attributes["path"].Expr, "path")
	diags = append(diags, ds...)
	src := &Source{Kind: Mirror, Dir: expandPath(path, env), Origin: "filesystem_mirror in " + filename}
	for _, name := range []string{"include", "exclude"} {
		attr, ok := content.Attributes[name]
		if !ok {
			continue
		}
		v, ds := attr.Expr.Value(nil)
		diags = append(diags, ds...)
		if ds.HasErrors() {
			continue
		}
		if v.IsNull() || !v.IsKnown() || !(v.Type().IsTupleType() || v.Type().IsListType()) {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid " + name,
				Detail: name + " must be a list of provider patterns such as \"registry.terraform.io/hashicorp/*\".", Subject: attr.Expr.Range().Ptr()})
			continue
		}
		for it := v.ElementIterator(); it.Next(); {
			_, ev := it.Element()
			if ev.IsNull() || !ev.IsKnown() || ev.Type() != cty.String {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid " + name,
					Detail: "Each pattern must be a string such as \"hashicorp/*\".", Subject: attr.Expr.Range().Ptr()})
				continue
			}
			pt, err := ParsePattern(ev.AsString())
			if err != nil {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid " + name,
					Detail: err.Error() + ".", Subject: attr.Expr.Range().Ptr()})
				continue
			}
			if name == "include" {
				src.Include = append(src.Include, pt)
			} else {
				src.Exclude = append(src.Exclude, pt)
			}
		}
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return src, diags
}

func stringValue(expr hcl.Expression, name string) (string, hcl.Diagnostics) {
	v, diags := expr.Value(nil)
	if diags.HasErrors() {
		return "", diags
	}
	if v.IsNull() || !v.IsKnown() || v.Type() != cty.String {
		return "", hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid " + name,
			Detail: name + " must be a string.", Subject: expr.Range().Ptr()}}
	}
	return v.AsString(), nil
}

// expandPath expands $VAR / ${VAR} from env and a leading "~/", as
// Terraform does for plugin_cache_dir.
func expandPath(s string, env []string) string {
	s = os.Expand(s, func(k string) string { return lookupEnv(env, k) })
	if strings.HasPrefix(s, "~/") {
		if home := lookupEnv(env, "HOME"); home != "" {
			s = filepath.Join(home, s[2:])
		}
	}
	return s
}

// lookupEnv returns the last value of key in env (KEY=VALUE).
func lookupEnv(env []string, key string) string {
	val := ""
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key {
			val = v
		}
	}
	return val
}

// ProvidersDir is the directory init installs the packages of the
// working directory workingDir into: $TF_DATA_DIR/providers (relative to
// workingDir), else .terraform/providers.
func ProvidersDir(workingDir string, env []string) string {
	dataDir := lookupEnv(env, "TF_DATA_DIR")
	if dataDir == "" {
		dataDir = ".terraform"
	}
	if !filepath.IsAbs(dataDir) {
		dataDir = filepath.Join(workingDir, dataDir)
	}
	return filepath.Join(dataDir, "providers")
}
