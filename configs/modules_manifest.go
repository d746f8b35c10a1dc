package configs

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/addrs"
)

// ModulesManifestPath is where terraform init and tofu init record the
// modules they installed, relative to the root module's directory.
const ModulesManifestPath = ".terraform/modules/modules.json"

// ManifestRecord is one entry of modules.json.
type ManifestRecord struct {
	// Key is the module path without "module." prefixes ("vpc",
	// "vpc.subnets"; "" for the root).
	Key string `json:"Key"`
	// Source is the source address as normalised by the installer.
	Source string `json:"Source"`
	// Version is the selected version of a registry module.
	Version string `json:"Version,omitempty"`
	// Dir is the module's directory relative to the root, slash-separated.
	Dir string `json:"Dir"`
}

// ModulesManifest is modules.json: {"Modules": [...]}.
type ModulesManifest struct {
	Modules []ManifestRecord `json:"Modules"`
}

// ReadModulesManifest reads modules.json below root; a missing file is an
// empty manifest.
func ReadModulesManifest(root string) (*ModulesManifest, error) {
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(ModulesManifestPath)))
	if os.IsNotExist(err) {
		return &ModulesManifest{}, nil
	}
	if err != nil {
		return nil, err
	}
	var m ModulesManifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s is not valid JSON: %w", ModulesManifestPath, err)
	}
	return &m, nil
}

// ManifestKey is the modules.json key of a module path: "a.b" for
// module.a.module.b.
func ManifestKey(p addrs.Module) string { return strings.Join(p, ".") }

// remoteDir returns the directory modules.json records for the module at
// p called with a non-local source, after checking that the recorded
// source is the one the configuration now gives.
func (d diskSource) remoteDir(p addrs.Module, call *ModuleCall) (string, hcl.Diagnostics) {
	notInstalled := func(why string) hcl.Diagnostics {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Module not installed",
			Detail:  fmt.Sprintf("The module %q has source %q, %s. Run plan init (or terraform init, tofu init) to install it; it is recorded in %s.", call.Name, call.SourceAddr, why, ModulesManifestPath),
			Subject: call.SourceAddrRange.Ptr()}}
	}
	m, err := ReadModulesManifest(d.root)
	if err != nil {
		return "", notInstalled(fmt.Sprintf("but %s cannot be read: %s", ModulesManifestPath, err))
	}
	key := ManifestKey(p)
	for _, r := range m.Modules {
		if r.Key != key {
			continue
		}
		if !sameModuleSource(r.Source, call.SourceAddr) {
			return "", notInstalled(fmt.Sprintf("but the installed copy came from %q: the source changed since the last init", r.Source))
		}
		dir := path.Clean(filepath.ToSlash(r.Dir))
		if path.IsAbs(dir) || dir == ".." || strings.HasPrefix(dir, "../") {
			return "", notInstalled(fmt.Sprintf("but %s records it at %q, outside the configuration directory", ModulesManifestPath, r.Dir))
		}
		return dir, nil
	}
	return "", notInstalled("which is not installed")
}

// sameModuleSource compares a recorded source with a configured one:
// equal, or a registry address the installer prefixed with its host, or a
// shorthand the installer turned into a git:: address.
func sameModuleSource(recorded, configured string) bool {
	if recorded == configured {
		return true
	}
	base, _, _ := strings.Cut(configured, "//")
	if strings.Count(base, "/") == 2 && !strings.Contains(base, ":") && strings.HasSuffix(recorded, "/"+configured) {
		return true // NAMESPACE/NAME/PROVIDER -> HOST/NAMESPACE/NAME/PROVIDER
	}
	return strings.HasPrefix(recorded, "git::") && strings.Contains(recorded, strings.TrimSuffix(strings.TrimPrefix(configured, "git::"), ".git"))
}

// remoteDir returns the directory the snapshot recorded for the module.
func (ss snapshotSource) remoteDir(p addrs.Module, call *ModuleCall) (string, hcl.Diagnostics) {
	sm := ss.s.Modules[moduleKey(p)]
	if sm == nil {
		return "", snapshotErr(fmt.Sprintf("it has no module %s", p))
	}
	return sm.Dir, nil
}
