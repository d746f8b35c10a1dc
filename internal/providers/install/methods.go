package install

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
)

// MethodKind is one installation method of the CLI configuration's
// provider_installation block.
type MethodKind int

const (
	// Direct is the origin registry (providers.v1 protocol).
	Direct MethodKind = iota + 1
	// NetworkMirror is a provider network mirror (index.json,
	// VERSION.json).
	NetworkMirror
	// FilesystemMirror is a local directory in the mirror layout.
	FilesystemMirror
)

// Method is one installation method with its include/exclude patterns.
type Method struct {
	Kind MethodKind
	// URL is a network mirror's base URL, ending in "/".
	URL string
	// Dir is a filesystem mirror's directory.
	Dir              string
	Include, Exclude []Pattern
}

// Serves reports whether the method's patterns let it serve p.
func (m *Method) Serves(p addrs.Provider) bool {
	if len(m.Include) > 0 && !matchAny(m.Include, p) {
		return false
	}
	return !matchAny(m.Exclude, p)
}

// String names the method for messages.
func (m *Method) String() string {
	switch m.Kind {
	case Direct:
		return "the origin registry"
	case NetworkMirror:
		return "network mirror " + m.URL
	}
	return "filesystem mirror " + m.Dir
}

var methodSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "path"}, {Name: "url"}, {Name: "include"}, {Name: "exclude"}},
}

// LoadMethods reads the provider_installation block of the CLI
// configuration env names (TF_CLI_CONFIG_FILE, else ~/.terraformrc).
// Without a block, it returns nil: the caller uses Terraform's implied
// methods.
func LoadMethods(env []string) ([]*Method, hcl.Diagnostics) {
	path := lookupEnv(env, "TF_CLI_CONFIG_FILE")
	if path == "" {
		home := lookupEnv(env, "HOME")
		if home == "" {
			return nil, nil
		}
		path = filepath.Join(home, ".terraformrc")
	}
	src, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot read the CLI configuration",
			Detail: fmt.Sprintf("Reading %s failed: %s.", path, err)}}
	}
	return ParseMethods(src, path, env)
}

// ParseMethods parses the provider_installation block of CLI
// configuration source; nil when the source has none.
func ParseMethods(src []byte, filename string, env []string) ([]*Method, hcl.Diagnostics) {
	f, _, diags := parseCLIFile(src, filename)
	if diags.HasErrors() {
		return nil, diags
	}
	content, _, ds := f.Body.PartialContent(cliConfigSchema)
	diags = append(diags, ds...)
	var out []*Method
	for i, block := range content.Blocks {
		if i > 0 {
			break // LoadCLIConfig reports the duplicate
		}
		inner, ds := block.Body.Content(installationSchema)
		diags = append(diags, ds...)
		out = []*Method{}
		for _, b := range inner.Blocks {
			if b.Type == "dev_overrides" {
				continue
			}
			m, ds := decodeMethod(b, env)
			diags = append(diags, ds...)
			if m != nil {
				out = append(out, m)
			}
		}
	}
	return out, diags
}

func decodeMethod(block *hcl.Block, env []string) (*Method, hcl.Diagnostics) {
	content, diags := block.Body.Content(methodSchema)
	if diags.HasErrors() {
		return nil, diags
	}
	m := &Method{}
	need := ""
	switch block.Type {
	case "direct":
		m.Kind = Direct
	case "network_mirror":
		m.Kind, need = NetworkMirror, "url"
	case "filesystem_mirror":
		m.Kind, need = FilesystemMirror, "path"
	}
	for _, name := range []string{"path", "url"} {
		attr, ok := content.Attributes[name]
		if !ok {
			continue
		}
		if name != need {
			return nil, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unsupported argument",
				Detail: fmt.Sprintf("A %s block has no %q argument.", block.Type, name), Subject: attr.NameRange.Ptr()})
		}
		s, ds := stringValue(attr.Expr, name)
		diags = append(diags, ds...)
		if name == "path" {
			m.Dir = expandPath(s, env)
		} else {
			u, err := url.Parse(s)
			if err != nil || u.Scheme != "https" || u.Host == "" {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid network mirror URL",
					Detail: fmt.Sprintf("A network mirror URL must be an absolute https:// URL; got %q.", s), Subject: attr.Expr.Range().Ptr()})
			}
			if !strings.HasSuffix(s, "/") {
				s += "/"
			}
			m.URL = s
		}
	}
	if need != "" && m.URL == "" && m.Dir == "" && !diags.HasErrors() {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Missing required argument",
			Detail: fmt.Sprintf("A %s block needs the %q argument.", block.Type, need), Subject: block.DefRange.Ptr()})
	}
	// include/exclude: decoded as filesystem_mirror's are.
	tmp := &Source{}
	for _, name := range []string{"include", "exclude"} {
		attr, ok := content.Attributes[name]
		if !ok {
			continue
		}
		pats, ds := decodePatterns(attr, name)
		diags = append(diags, ds...)
		if name == "include" {
			tmp.Include = pats
		} else {
			tmp.Exclude = pats
		}
	}
	m.Include, m.Exclude = tmp.Include, tmp.Exclude
	if diags.HasErrors() {
		return nil, diags
	}
	return m, diags
}

func decodePatterns(attr *hcl.Attribute, name string) ([]Pattern, hcl.Diagnostics) {
	v, diags := attr.Expr.Value(nil)
	if diags.HasErrors() {
		return nil, diags
	}
	bad := func(detail string) hcl.Diagnostics {
		return append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid " + name,
			Detail: detail, Subject: attr.Expr.Range().Ptr()})
	}
	if v.IsNull() || !v.IsKnown() || !(v.Type().IsTupleType() || v.Type().IsListType()) {
		return nil, bad(name + " must be a list of provider patterns such as \"registry.terraform.io/hashicorp/*\".")
	}
	var out []Pattern
	for it := v.ElementIterator(); it.Next(); {
		_, ev := it.Element()
		if ev.IsNull() || !ev.IsKnown() || ev.Type() != cty.String {
			return nil, bad("Each pattern must be a string such as \"hashicorp/*\".")
		}
		pt, err := ParsePattern(ev.AsString())
		if err != nil {
			return nil, bad(err.Error() + ".")
		}
		out = append(out, pt)
	}
	return out, diags
}
