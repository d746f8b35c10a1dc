package configs

import (
	"fmt"
	"path"
	"sort"

	version "github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"
)

// DefaultCompatibilityVersion is the Terraform version whose configuration
// language plankit speaks; required_version constraints are checked
// against it unless a Loader says otherwise.
const DefaultCompatibilityVersion = "1.9.0"

// Loader loads modules and module trees. The zero value is ready to use.
type Loader struct {
	// CompatibilityVersion is the Terraform version required_version
	// constraints must admit; "" means DefaultCompatibilityVersion.
	CompatibilityVersion string
}

// LoadConfigDir loads the module tree rooted at dir with a zero Loader.
func LoadConfigDir(dir string) (*Config, hcl.Diagnostics) {
	return (&Loader{}).LoadConfigDir(dir)
}

// LoadConfigSnapshot loads the module tree recorded in s with a zero
// Loader, reading nothing from disk.
func LoadConfigSnapshot(s *Snapshot) (*Config, hcl.Diagnostics) {
	return (&Loader{}).LoadConfigSnapshot(s)
}

// LoadConfigDir loads the root module in dir and, recursively, every module
// it calls through local source paths. Range filenames are relative to dir.
// Cost: every configuration file is read and parsed once per module call
// that reaches it.
func (l *Loader) LoadConfigDir(dir string) (*Config, hcl.Diagnostics) {
	return l.loadTree(diskSource{root: dir})
}

// LoadConfigSnapshot loads the module tree recorded in s; it gives the same
// Config LoadConfigDir gave when the snapshot was taken, from any working
// directory.
func (l *Loader) LoadConfigSnapshot(s *Snapshot) (*Config, hcl.Diagnostics) {
	if s == nil {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Missing configuration snapshot",
			Detail: "There is no configuration snapshot to load; the plan file may be damaged. Create a new plan."}}
	}
	return l.loadTree(snapshotSource{s})
}

// LoadModule loads the single module in dir (its module calls are not
// followed). Range filenames are relative to dir.
func (l *Loader) LoadModule(dir string) (*Module, hcl.Diagnostics) {
	files, diags := diskSource{root: dir}.readDir(".")
	if diags.HasErrors() {
		return nil, diags
	}
	m, ds := l.LoadModuleFromFiles(".", files)
	return m, append(diags, ds...)
}

// LoadModuleFromFiles builds one module from file contents by base name;
// dir is the module's directory relative to the root ("." for the root),
// used as the prefix of range filenames and as Module.SourceDir. Names that
// are not configuration files (see the package doc) are skipped, and so is
// a .tf or .tf.json file beside a .tofu or .tofu.json file of the same
// stem, as OpenTofu does. Files are
// decoded in lexical order, override files after all others.
func (l *Loader) LoadModuleFromFiles(dir string, files map[string][]byte) (*Module, hcl.Diagnostics) {
	m := newModule(dir)
	var primary, override []string
	has := func(name string) bool { _, ok := files[name]; return ok }
	for name, src := range files {
		if shadowedByTofu(name, has) {
			continue
		}
		switch classifyFile(name) {
		case filePrimary:
			primary = append(primary, name)
		case fileOverride:
			override = append(override, name)
		default:
			continue
		}
		m.Files[name] = src
	}
	sort.Strings(primary)
	sort.Strings(override)
	var diags hcl.Diagnostics
	for _, name := range primary {
		f, ds := parseAndDecode(path.Join(dir, name), files[name], false)
		diags = append(diags, ds...)
		diags = append(diags, m.appendFile(f)...)
	}
	for _, name := range override {
		f, ds := parseAndDecode(path.Join(dir, name), files[name], true)
		diags = append(diags, ds...)
		diags = append(diags, m.mergeFile(f)...)
	}
	m.resolveProviders()
	diags = append(diags, m.checkProviderInstances()...)
	diags = append(diags, l.checkCoreVersion(m)...)
	return m, diags
}

func parseAndDecode(filename string, src []byte, override bool) (*file, hcl.Diagnostics) {
	hf, diags := parseSource(filename, src)
	if hf == nil || hf.Body == nil {
		return &file{}, diags
	}
	f, ds := decodeFile(hf.Body, override)
	return f, append(diags, ds...)
}

// checkCoreVersion reports each required_version constraint that excludes
// the compatibility version.
func (l *Loader) checkCoreVersion(m *Module) hcl.Diagnostics {
	vs := l.CompatibilityVersion
	if vs == "" {
		vs = DefaultCompatibilityVersion
	}
	v, err := version.NewVersion(vs)
	if err != nil {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid compatibility version",
			Detail: fmt.Sprintf("The loader's compatibility version %q is not a version: %s.", vs, err)}}
	}
	var diags hcl.Diagnostics
	for _, c := range m.CoreVersionConstraints {
		if c.Required.Check(v) {
			continue
		}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Unsupported Terraform Core version",
			Detail: fmt.Sprintf("This module requires Terraform %s, but plankit implements the configuration language of Terraform %s. "+
				"Relax the required_version constraint if the module works with Terraform %s.", c.Required, v, v),
			Subject: c.DeclRange.Ptr(),
		})
	}
	return diags
}
