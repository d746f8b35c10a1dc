package addrs

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

const (
	// DefaultProviderRegistryHost is the host of a source address that names none.
	DefaultProviderRegistryHost = "registry.terraform.io"
	// OpenTofuProviderRegistryHost is the host OpenTofu implies instead, and
	// so the host of the provider addresses in states OpenTofu writes.
	OpenTofuProviderRegistryHost = "registry.opentofu.org"
	// BuiltInProviderHost is the host of providers compiled into Terraform itself.
	BuiltInProviderHost = "terraform.io"
	// BuiltInProviderNamespace is the namespace of built-in providers.
	BuiltInProviderNamespace = "builtin"
	// DefaultProviderNamespace is the namespace implied for a one-part source.
	DefaultProviderNamespace = "hashicorp"
)

// Provider is a provider's source address: hostname/namespace/type, as in
// required_providers' source argument. It is comparable.
type Provider struct {
	Hostname  string
	Namespace string
	Type      string
}

// NewDefaultProvider returns registry.terraform.io/hashicorp/TYPE.
func NewDefaultProvider(typeName string) Provider {
	return Provider{Hostname: DefaultProviderRegistryHost, Namespace: DefaultProviderNamespace, Type: typeName}
}

// NewBuiltInProvider returns terraform.io/builtin/TYPE.
func NewBuiltInProvider(typeName string) Provider {
	return Provider{Hostname: BuiltInProviderHost, Namespace: BuiltInProviderNamespace, Type: typeName}
}

// ImpliedProviderForUnqualifiedType returns the provider a local name means
// when required_providers does not list it: terraform.io/builtin/terraform
// for "terraform", registry.terraform.io/hashicorp/NAME otherwise.
func ImpliedProviderForUnqualifiedType(localName string) Provider {
	if localName == "terraform" {
		return NewBuiltInProvider("terraform")
	}
	return NewDefaultProvider(localName)
}

// IsZero reports whether p is the zero value.
func (p Provider) IsZero() bool { return p == Provider{} }

// IsBuiltIn reports whether p is a built-in provider.
func (p Provider) IsBuiltIn() bool {
	return p.Hostname == BuiltInProviderHost && p.Namespace == BuiltInProviderNamespace
}

// RegistryTwin returns p under the other public registry: the
// registry.opentofu.org address for a registry.terraform.io one and the
// other way round; ok is false for any other host. The OpenTofu registry
// publishes the same providers under the same namespace and type, and
// OpenTofu itself reads registry.terraform.io addresses in a state as its
// own, so plankit treats twins as one provider (see Equivalent).
func (p Provider) RegistryTwin() (twin Provider, ok bool) {
	switch p.Hostname {
	case DefaultProviderRegistryHost:
		p.Hostname = OpenTofuProviderRegistryHost
	case OpenTofuProviderRegistryHost:
		p.Hostname = DefaultProviderRegistryHost
	default:
		return Provider{}, false
	}
	return p, true
}

// Equivalent reports whether p and o are the same provider, or the same
// provider under the two public registries' hosts (RegistryTwin).
func (p Provider) Equivalent(o Provider) bool {
	if p == o {
		return true
	}
	twin, ok := p.RegistryTwin()
	return ok && twin == o
}

// String returns the fully-qualified form hostname/namespace/type.
func (p Provider) String() string {
	if p.IsZero() {
		return ""
	}
	return p.Hostname + "/" + p.Namespace + "/" + p.Type
}

// ForDisplay returns the source as users usually write it: the hostname is
// left out for the default registry.
func (p Provider) ForDisplay() string {
	if p.Hostname == DefaultProviderRegistryHost {
		return p.Namespace + "/" + p.Type
	}
	return p.String()
}

// ParseProviderSourceString parses a required_providers source: "TYPE",
// "NAMESPACE/TYPE" or "HOSTNAME/NAMESPACE/TYPE". Names are case-folded to
// lowercase as Terraform does.
func ParseProviderSourceString(s string) (Provider, error) {
	if s == "" {
		return Provider{}, fmt.Errorf("a provider source address must not be empty")
	}
	parts := strings.Split(s, "/")
	if len(parts) > 3 {
		return Provider{}, fmt.Errorf("invalid provider source %q: a source has at most three parts, hostname/namespace/type", s)
	}
	for _, part := range parts {
		if part == "" {
			return Provider{}, fmt.Errorf("invalid provider source %q: it has an empty part", s)
		}
	}
	p := Provider{Hostname: DefaultProviderRegistryHost, Namespace: DefaultProviderNamespace}
	switch len(parts) {
	case 1:
		p.Type = parts[0]
	case 2:
		p.Namespace, p.Type = parts[0], parts[1]
	case 3:
		p.Hostname, p.Namespace, p.Type = strings.ToLower(parts[0]), parts[1], parts[2]
		if err := validHostname(p.Hostname); err != nil {
			return Provider{}, fmt.Errorf("invalid provider source %q: %w", s, err)
		}
	}
	var err error
	if p.Namespace, err = providerPart(p.Namespace, "namespace"); err != nil {
		return Provider{}, fmt.Errorf("invalid provider source %q: %w", s, err)
	}
	if p.Type, err = providerPart(p.Type, "type"); err != nil {
		return Provider{}, fmt.Errorf("invalid provider source %q: %w", s, err)
	}
	if p.Hostname == DefaultProviderRegistryHost && p.Type == "terraform" && p.Namespace == DefaultProviderNamespace {
		// The terraform provider is built in; a registry address for it is legacy.
		return NewBuiltInProvider("terraform"), nil
	}
	return p, nil
}

// providerPart checks a namespace or type name: letters, digits and dashes,
// not starting or ending with a dash; it returns the name lowercased.
func providerPart(s, what string) (string, error) {
	s = strings.ToLower(s)
	for i, c := range s {
		ok := c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-'
		if what == "namespace" && c == '_' {
			ok = true
		}
		if !ok {
			return "", fmt.Errorf("the %s %q may contain only letters, digits and dashes", what, s)
		}
		if c == '-' && (i == 0 || i == len(s)-1) {
			return "", fmt.Errorf("the %s %q may not start or end with a dash", what, s)
		}
	}
	return s, nil
}

func validHostname(h string) error {
	host := h
	if i := strings.LastIndexByte(h, ':'); i >= 0 {
		if _, err := strconv.Atoi(h[i+1:]); err != nil {
			return fmt.Errorf("the hostname %q has an invalid port", h)
		}
		host = h[:i]
	}
	for _, label := range strings.Split(host, ".") {
		if label == "" {
			return fmt.Errorf("the hostname %q has an empty label", h)
		}
		for _, c := range label {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c > 127) {
				return fmt.Errorf("the hostname %q is not a valid hostname", h)
			}
		}
	}
	return nil
}

// LocalProviderConfig is how a module refers to a provider configuration:
// its local name and optional alias, e.g. null or aws.west.
type LocalProviderConfig struct {
	LocalName string
	Alias     string
}

// String returns "NAME" or "NAME.ALIAS".
func (p LocalProviderConfig) String() string {
	if p.Alias == "" {
		return p.LocalName
	}
	return p.LocalName + "." + p.Alias
}

// AbsProviderConfig is a provider configuration by its defining module, its
// provider and its alias: the address a state file records for a resource.
type AbsProviderConfig struct {
	Module   Module
	Provider Provider
	Alias    string
}

// String returns e.g. `provider["registry.terraform.io/hashicorp/null"].alias`
// or `module.child.provider["..."]`, the form in the v4 state file.
func (p AbsProviderConfig) String() string {
	s := `provider[` + strconv.Quote(p.Provider.String()) + `]`
	if p.Alias != "" {
		s += "." + p.Alias
	}
	return joinModule(p.Module.String(), s)
}

// UniqueKey returns a comparable key for p (its string form).
func (p AbsProviderConfig) UniqueKey() string { return p.String() }

// Equal reports whether p and o are the same configuration.
func (p AbsProviderConfig) Equal(o AbsProviderConfig) bool {
	return p.Provider == o.Provider && p.Alias == o.Alias && p.Module.Equal(o.Module)
}

// Equivalent reports whether p and o are the same configuration of
// equivalent providers (Provider.Equivalent): a state written by OpenTofu
// names provider["registry.opentofu.org/hashicorp/null"] where plankit's
// configuration implies provider["registry.terraform.io/hashicorp/null"].
func (p AbsProviderConfig) Equivalent(o AbsProviderConfig) bool {
	return p.Provider.Equivalent(o.Provider) && p.Alias == o.Alias && p.Module.Equal(o.Module)
}

// ParseAbsProviderConfigStr parses the String form of an AbsProviderConfig.
func ParseAbsProviderConfigStr(s string) (AbsProviderConfig, hcl.Diagnostics) {
	trav, diags := hclsyntax.ParseTraversalAbs([]byte(s), "", hcl.InitialPos)
	if diags.HasErrors() {
		return AbsProviderConfig{}, providerConfigErr(s, "it is not a valid address")
	}
	var ret AbsProviderConfig
	for len(trav) >= 2 && firstName(trav) == "module" {
		name, ok := trav[1].(hcl.TraverseAttr)
		if !ok {
			return AbsProviderConfig{}, providerConfigErr(s, "module must be followed by a module name")
		}
		ret.Module = ret.Module.Child(name.Name)
		trav = trav[2:]
	}
	if len(trav) < 2 || firstName(trav) != "provider" {
		return AbsProviderConfig{}, providerConfigErr(s, `expected provider["SOURCE"]`)
	}
	idx, ok := trav[1].(hcl.TraverseIndex)
	if !ok || !idx.Key.Type().Equals(cty.String) {
		return AbsProviderConfig{}, providerConfigErr(s, `expected provider["SOURCE"]`)
	}
	p, err := ParseProviderSourceString(idx.Key.AsString())
	if err != nil {
		return AbsProviderConfig{}, providerConfigErr(s, err.Error())
	}
	ret.Provider = p
	switch len(trav) {
	case 2:
	case 3:
		alias, ok := trav[2].(hcl.TraverseAttr)
		if !ok {
			return AbsProviderConfig{}, providerConfigErr(s, "the alias must be a name")
		}
		ret.Alias = alias.Name
	default:
		return AbsProviderConfig{}, providerConfigErr(s, "unexpected extra parts after the alias")
	}
	return ret, nil
}

func providerConfigErr(s, why string) hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Invalid provider configuration address",
		Detail:   fmt.Sprintf("%q is not a provider configuration address: %s.", s, why),
	}}
}

func firstName(trav hcl.Traversal) string {
	n, _ := StepName(trav[0])
	return n
}
