package encryption

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"
	"github.com/zclconf/go-cty/cty"
)

// Config is a decoded terraform { encryption { ... } } block (or
// TF_ENCRYPTION). Expressions are kept unevaluated: key providers run only
// when a state or plan is encrypted or decrypted, so a plan that never
// touches encrypted data never asks an external command for a key.
type Config struct {
	KeyProviders []*KeyProviderConfig
	Methods      []*MethodConfig
	// State and Plan are nil when the block does not configure them: that
	// target is then stored in clear.
	State, Plan *TargetConfig
	// RemoteStateDataSources is accepted for compatibility and not used:
	// plankit has no terraform_remote_state data source yet.
	RemoteStateDataSources hcl.Body
	DeclRange              hcl.Range
}

// KeyProviderConfig is one key_provider "TYPE" "NAME" block. Attrs holds its
// arguments; after a merge, an override's arguments replace the base's one
// by one, as OpenTofu merges bodies.
type KeyProviderConfig struct {
	Type, Name string
	Attrs      hcl.Attributes
	DeclRange  hcl.Range
}

// Addr is "key_provider.TYPE.NAME".
func (k *KeyProviderConfig) Addr() string { return "key_provider." + k.Type + "." + k.Name }

// MethodConfig is one method "TYPE" "NAME" block.
type MethodConfig struct {
	Type, Name string
	Attrs      hcl.Attributes
	DeclRange  hcl.Range
}

// Addr is "method.TYPE.NAME".
func (m *MethodConfig) Addr() string { return "method." + m.Type + "." + m.Name }

// TargetConfig is a state or plan block (Enforced is always false in a
// fallback block).
type TargetConfig struct {
	Enforced bool
	// Method is the method.TYPE.NAME reference (a string of that form in
	// JSON); nil when the block does not set it.
	Method    hcl.Expression
	Fallback  *TargetConfig
	DeclRange hcl.Range
}

var nameRe = regexp.MustCompile(`^[a-zA-Z_0-9-]+$`)

var encryptionSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "key_provider", LabelNames: []string{"type", "name"}},
		{Type: "method", LabelNames: []string{"type", "name"}},
		{Type: "state"},
		{Type: "plan"},
		{Type: "remote_state_data_sources"},
	},
}

var targetSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "enforced"}, {Name: "method"}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "fallback"}},
}

var fallbackSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "method"}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "fallback"}},
}

// DecodeConfig decodes the body of an encryption block. Duplicate key
// providers, methods or targets and invalid names are errors naming the
// block.
func DecodeConfig(body hcl.Body, declRange hcl.Range) (*Config, hcl.Diagnostics) {
	cfg := &Config{DeclRange: declRange}
	content, diags := body.Content(encryptionSchema)
	seen := map[string]hcl.Range{}
	for _, b := range content.Blocks {
		switch b.Type {
		case "key_provider", "method":
			typ, name := b.Labels[0], b.Labels[1]
			addr := b.Type + "." + typ + "." + name
			for i, l := range b.Labels {
				if !nameRe.MatchString(l) {
					diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid " + b.Type + " label",
						Detail:  fmt.Sprintf("%q is not a valid %s %s: use letters, digits, underscores and dashes.", l, b.Type, []string{"type", "name"}[i]),
						Subject: b.LabelRanges[i].Ptr()})
				}
			}
			if prev, ok := seen[addr]; ok {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Duplicate " + b.Type,
					Detail:  fmt.Sprintf("%s is declared twice; the first is at %s.", addr, prev),
					Subject: b.DefRange.Ptr()})
				continue
			}
			seen[addr] = b.DefRange
			attrs, ds := b.Body.JustAttributes()
			diags = append(diags, ds...)
			if b.Type == "key_provider" {
				cfg.KeyProviders = append(cfg.KeyProviders, &KeyProviderConfig{Type: typ, Name: name, Attrs: attrs, DeclRange: b.DefRange})
			} else {
				cfg.Methods = append(cfg.Methods, &MethodConfig{Type: typ, Name: name, Attrs: attrs, DeclRange: b.DefRange})
			}
		case "state", "plan":
			if prev, ok := seen[b.Type]; ok {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Duplicate " + b.Type + " block",
					Detail: fmt.Sprintf("An encryption block may have one %s block; the first is at %s.", b.Type, prev), Subject: b.DefRange.Ptr()})
				continue
			}
			seen[b.Type] = b.DefRange
			t, ds := decodeTarget(b, true)
			diags = append(diags, ds...)
			if b.Type == "state" {
				cfg.State = t
			} else {
				cfg.Plan = t
			}
		case "remote_state_data_sources":
			cfg.RemoteStateDataSources = b.Body
		}
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return cfg, diags
}

func decodeTarget(b *hcl.Block, enforceable bool) (*TargetConfig, hcl.Diagnostics) {
	schema := fallbackSchema
	if enforceable {
		schema = targetSchema
	}
	content, diags := b.Body.Content(schema)
	t := &TargetConfig{DeclRange: b.DefRange}
	if a, ok := content.Attributes["method"]; ok {
		t.Method = a.Expr
	}
	if a, ok := content.Attributes["enforced"]; ok {
		v, ds := a.Expr.Value(nil)
		diags = append(diags, ds...)
		if !ds.HasErrors() {
			if v.Type() != cty.Bool || v.IsNull() || !v.IsKnown() {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid enforced value",
					Detail: "enforced must be true or false.", Subject: a.Expr.Range().Ptr()})
			} else {
				t.Enforced = v.True()
			}
		}
	}
	for i, fb := range content.Blocks {
		if i > 0 {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Duplicate fallback block",
				Detail: "A state, plan or fallback block may have one fallback block; nest fallbacks to chain more methods.", Subject: fb.DefRange.Ptr()})
			continue
		}
		f, ds := decodeTarget(fb, false)
		diags = append(diags, ds...)
		t.Fallback = f
	}
	return t, diags
}

// ParseConfig parses an encryption configuration given as text, the way
// OpenTofu reads TF_ENCRYPTION: JSON when it starts with "{", HCL native
// syntax otherwise, with the encryption block's content at the top level
// (key_provider, method, state, plan blocks). name is used in diagnostics.
func ParseConfig(name, src string) (*Config, hcl.Diagnostics) {
	src = strings.TrimSpace(src)
	var file *hcl.File
	var diags hcl.Diagnostics
	if strings.HasPrefix(src, "{") {
		file, diags = hcljson.Parse([]byte(src), name)
	} else {
		file, diags = hclsyntax.ParseConfig([]byte(src), name, hcl.InitialPos)
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return DecodeConfig(file.Body, hcl.Range{Filename: name, Start: hcl.InitialPos, End: hcl.InitialPos})
}

// Merge returns base with override applied, as OpenTofu merges
// TF_ENCRYPTION into the configuration's block: key providers and methods
// of the same type and name have their arguments overridden one by one
// (new ones are appended); a state or plan block in override replaces the
// method and fallback it sets, and enforced is true if either says so.
// Neither input is modified. Either may be nil.
func Merge(base, override *Config) *Config {
	if base == nil {
		return override
	}
	if override == nil {
		return base
	}
	out := &Config{DeclRange: base.DeclRange, RemoteStateDataSources: base.RemoteStateDataSources}
	if override.RemoteStateDataSources != nil {
		out.RemoteStateDataSources = override.RemoteStateDataSources
	}
	out.KeyProviders = append(out.KeyProviders, base.KeyProviders...)
	for _, o := range override.KeyProviders {
		i := indexOf(out.KeyProviders, func(k *KeyProviderConfig) bool { return k.Type == o.Type && k.Name == o.Name })
		if i < 0 {
			out.KeyProviders = append(out.KeyProviders, o)
			continue
		}
		cp := *out.KeyProviders[i]
		cp.Attrs = mergeAttrs(cp.Attrs, o.Attrs)
		out.KeyProviders[i] = &cp
	}
	out.Methods = append(out.Methods, base.Methods...)
	for _, o := range override.Methods {
		i := indexOf(out.Methods, func(m *MethodConfig) bool { return m.Type == o.Type && m.Name == o.Name })
		if i < 0 {
			out.Methods = append(out.Methods, o)
			continue
		}
		cp := *out.Methods[i]
		cp.Attrs = mergeAttrs(cp.Attrs, o.Attrs)
		out.Methods[i] = &cp
	}
	out.State = mergeTarget(base.State, override.State)
	out.Plan = mergeTarget(base.Plan, override.Plan)
	return out
}

func indexOf[T any](s []T, f func(T) bool) int {
	for i, v := range s {
		if f(v) {
			return i
		}
	}
	return -1
}

func mergeAttrs(base, override hcl.Attributes) hcl.Attributes {
	out := make(hcl.Attributes, len(base)+len(override))
	for k, v := range base {
		out[k] = v
	}
	for k, v := range override {
		out[k] = v
	}
	return out
}

func mergeTarget(base, override *TargetConfig) *TargetConfig {
	if base == nil {
		return override
	}
	if override == nil {
		return base
	}
	out := &TargetConfig{Enforced: base.Enforced || override.Enforced, Method: base.Method, Fallback: base.Fallback, DeclRange: override.DeclRange}
	if override.Method != nil {
		out.Method = override.Method
	}
	if override.Fallback != nil {
		out.Fallback = override.Fallback
	}
	return out
}
