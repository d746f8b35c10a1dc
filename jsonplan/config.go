package jsonplan

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/lang"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
)

// configJSON is the "configuration" section: the module tree as written,
// with expressions as constant values or lists of references.
type configJSON struct {
	ProviderConfig map[string]providerConfig `json:"provider_config,omitempty"`
	RootModule     configModule              `json:"root_module"`
}

type providerConfig struct {
	Name              string                     `json:"name"`
	FullName          string                     `json:"full_name,omitempty"`
	Alias             string                     `json:"alias,omitempty"`
	ModuleAddress     string                     `json:"module_address,omitempty"`
	VersionConstraint string                     `json:"version_constraint,omitempty"`
	Expressions       map[string]json.RawMessage `json:"expressions,omitempty"`
}

type configModule struct {
	Outputs     map[string]configOutput   `json:"outputs,omitempty"`
	Resources   configResourceList        `json:"resources,omitempty"`
	ModuleCalls map[string]moduleCall     `json:"module_calls,omitempty"`
	Variables   map[string]configVariable `json:"variables,omitempty"`
}

type configOutput struct {
	Sensitive   bool            `json:"sensitive,omitempty"`
	Ephemeral   bool            `json:"ephemeral,omitempty"`
	Deprecated  string          `json:"deprecated,omitempty"`
	Expression  json.RawMessage `json:"expression,omitempty"`
	DependsOn   []string        `json:"depends_on,omitempty"`
	Description string          `json:"description,omitempty"`
}

type configResource struct {
	Address           string                     `json:"address"`
	Mode              string                     `json:"mode"`
	Type              string                     `json:"type"`
	Name              string                     `json:"name"`
	ProviderConfigKey string                     `json:"provider_config_key"`
	Provisioners      []configProvisioner        `json:"provisioners,omitempty"`
	Expressions       map[string]json.RawMessage `json:"expressions,omitempty"`
	SchemaVersion     uint64                     `json:"schema_version"`
	CountExpression   json.RawMessage            `json:"count_expression,omitempty"`
	ForEachExpression json.RawMessage            `json:"for_each_expression,omitempty"`
	DependsOn         []string                   `json:"depends_on,omitempty"`
}

type moduleCall struct {
	Source            string                     `json:"source"`
	Expressions       map[string]json.RawMessage `json:"expressions,omitempty"`
	CountExpression   json.RawMessage            `json:"count_expression,omitempty"`
	ForEachExpression json.RawMessage            `json:"for_each_expression,omitempty"`
	Module            configModule               `json:"module"`
	DependsOn         []string                   `json:"depends_on,omitempty"`
}

// configProvisioner is a provisioner block of a resource: its type and
// arguments (connection blocks are left out, as in Terraform).
type configProvisioner struct {
	Type        string                     `json:"type"`
	Expressions map[string]json.RawMessage `json:"expressions,omitempty"`
}

// configVariable is a variable declaration, the same in every module:
// type is the constraint (left out for "any"), required means no default.
type configVariable struct {
	Type        json.RawMessage `json:"type,omitempty"`
	Default     json.RawMessage `json:"default,omitempty"`
	Description string          `json:"description,omitempty"`
	Required    bool            `json:"required,omitempty"`
	Sensitive   bool            `json:"sensitive,omitempty"`
	Ephemeral   bool            `json:"ephemeral,omitempty"`
	Deprecated  string          `json:"deprecated,omitempty"`
}

func marshalConfig(c *configs.Config, schemas map[addrs.Provider]*providers.GetProviderSchemaResponse, hosts map[addrs.Provider]addrs.Provider) *configJSON {
	out := &configJSON{ProviderConfig: map[string]providerConfig{}}
	c.DeepEach(func(n *configs.Config) {
		m := n.Module
		prefix := ""
		if !n.Path.IsRoot() {
			prefix = n.Path.String() + ":"
		}
		for _, key := range slices.Sorted(maps.Keys(m.ProviderConfigs)) {
			pc := m.ProviderConfigs[key]
			typ := m.ProviderForLocalConfig(pc.Addr())
			p := providerConfig{Name: pc.Name, FullName: hostOf(hosts, typ).String(), Alias: pc.Alias, ModuleAddress: n.Path.String()}
			if rp := m.ProviderRequirements[pc.Name]; rp != nil {
				p.VersionConstraint = rp.Requirement.Required.String()
			}
			var schema *configschema.Block
			if ps := schemas[typ]; ps != nil {
				schema = ps.Provider.Block
			}
			p.Expressions = marshalBody(pc.Config, schema)
			out.ProviderConfig[prefix+key] = p
		}
	})
	// Providers used without a provider block are listed by local name, as
	// Terraform lists implied provider configurations. Each module's
	// resources are sorted once, for this and for its section.
	resources := map[*configs.Module][]*configs.Resource{}
	c.DeepEach(func(n *configs.Config) {
		if _, done := resources[n.Module]; !done {
			resources[n.Module] = allResources(n.Module)
		}
		for _, r := range resources[n.Module] {
			key := providerKey(n, r)
			if _, ok := out.ProviderConfig[key]; !ok {
				p := providerConfig{Name: r.ProviderConfigAddr().LocalName, FullName: hostOf(hosts, r.Provider).String()}
				// The version constraint is the root module's requirement,
				// as for a provider block.
				if rp := c.Module.ProviderRequirements[p.Name]; rp != nil && rp.Type == r.Provider && !strings.Contains(key, ":") {
					p.VersionConstraint = rp.Requirement.Required.String()
				}
				out.ProviderConfig[key] = p
			}
		}
	})
	out.RootModule = marshalConfigModule(c, schemas, resources)
	return out
}

// providerKey names the provider configuration a resource uses: the
// module's own block if it has one, else the nearest ancestor's.
func providerKey(n *configs.Config, r *configs.Resource) string {
	local := r.ProviderConfigAddr()
	for cur := n; cur != nil; cur = cur.Parent {
		name := local.String()
		if cur != n {
			name = cur.Module.LocalNameForProvider(r.Provider)
			if local.Alias != "" {
				name += "." + local.Alias
			}
		}
		if _, ok := cur.Module.ProviderConfigs[name]; ok {
			if cur.Path.IsRoot() {
				return name
			}
			return cur.Path.String() + ":" + name
		}
	}
	return local.String()
}

func allResources(m *configs.Module) []*configs.Resource {
	var out []*configs.Resource
	for _, k := range slices.Sorted(maps.Keys(m.ManagedResources)) {
		out = append(out, m.ManagedResources[k])
	}
	for _, k := range slices.Sorted(maps.Keys(m.DataResources)) {
		out = append(out, m.DataResources[k])
	}
	return out
}

// marshalConfigModule is the section of module n; sorted holds the
// resources of every module of the tree in order (allResources), looked
// up by module.
func marshalConfigModule(n *configs.Config, schemas map[addrs.Provider]*providers.GetProviderSchemaResponse, sorted map[*configs.Module][]*configs.Resource) configModule {
	m := n.Module
	out := configModule{}
	if len(m.Outputs) > 0 {
		out.Outputs = map[string]configOutput{}
		for name, o := range m.Outputs {
			out.Outputs[name] = configOutput{Sensitive: o.Sensitive, Ephemeral: o.Ephemeral, Deprecated: o.Deprecated, Expression: marshalExpr(o.Expr), DependsOn: traversalStrings(o.DependsOn), Description: o.Description}
		}
	}
	// Each resource's entry is made only when the encoder writes it
	// (config_stream.go).
	resources := sorted[m]
	if len(resources) > 0 {
		out.Resources = make(configResourceList, len(resources))
		for i, r := range resources {
			out.Resources[i] = configResourceEntry{n: n, r: r, schemas: schemas}
		}
	}
	if len(m.ModuleCalls) > 0 {
		out.ModuleCalls = map[string]moduleCall{}
		for name, mc := range m.ModuleCalls {
			call := moduleCall{Source: mc.SourceAddr, DependsOn: traversalStrings(mc.DependsOn)}
			if attrs, diags := mc.Config.JustAttributes(); !diags.HasErrors() {
				call.Expressions = map[string]json.RawMessage{}
				for an, a := range attrs {
					call.Expressions[an] = marshalExpr(a.Expr)
				}
			}
			if mc.Count != nil {
				call.CountExpression = marshalExpr(mc.Count)
			}
			if mc.ForEach != nil {
				call.ForEachExpression = marshalExpr(mc.ForEach)
			}
			if child := n.Children[name]; child != nil {
				call.Module = marshalConfigModule(child, schemas, sorted)
			}
			out.ModuleCalls[name] = call
		}
	}
	if len(m.Variables) > 0 {
		out.Variables = map[string]configVariable{}
		for name, v := range m.Variables {
			cv := configVariable{Description: v.Description, Sensitive: v.Sensitive, Ephemeral: v.Ephemeral, Deprecated: v.Deprecated, Required: v.Default == cty.NilVal}
			if v.Type != cty.NilType && v.Type != cty.DynamicPseudoType {
				if raw, err := v.Type.MarshalJSON(); err == nil {
					cv.Type = raw
				}
			}
			if v.Default != cty.NilVal {
				if raw, err := marshalValue(v.Default); err == nil {
					cv.Default = raw
				}
			}
			out.Variables[name] = cv
		}
	}
	return out
}

// marshalBody renders a block body's arguments by the schema: each
// attribute as an expression, nested blocks as lists of such objects.
// Without a schema the body's plain attributes are used.
func marshalBody(body hcl.Body, schema *configschema.Block) map[string]json.RawMessage {
	if body == nil {
		return nil
	}
	if out, ok := marshalBodyFast(body, schema); ok && configFast {
		return out
	}
	return marshalBodySlow(body, schema)
}

// marshalBodySlow is marshalBody by the body's own decoding methods, for
// any body (config_fast.go has the common case's shortcut).
func marshalBodySlow(body hcl.Body, schema *configschema.Block) map[string]json.RawMessage {
	out := map[string]json.RawMessage{}
	if schema == nil {
		if sb, ok := body.(*hclsyntax.Body); ok {
			return marshalBodyUntyped(sb)
		}
		attrs, diags := body.JustAttributes()
		if diags.HasErrors() {
			return nil
		}
		for name, a := range attrs {
			out[name] = marshalExpr(a.Expr)
		}
		return out
	}
	content, _, _ := body.PartialContent(bodySchema(schema))
	if content == nil {
		return nil
	}
	for name, a := range content.Attributes {
		out[name] = marshalExpr(a.Expr)
	}
	blocks := map[string][]map[string]json.RawMessage{}
	for _, b := range content.Blocks {
		nb := schema.BlockTypes[b.Type]
		if nb == nil {
			continue
		}
		blocks[b.Type] = append(blocks[b.Type], marshalBody(b.Body, &nb.Block))
	}
	for name, list := range blocks {
		e := &encoder{}
		if err := e.encode(list); err == nil {
			out[name] = e.buf
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// marshalExpr renders an expression as {"constant_value": V} when it
// refers to nothing, else {"references": [...]}: each reference by its
// subject with the first attribute after it, then the subject alone
// ("null_resource.a.id", "null_resource.a").
func marshalExpr(expr hcl.Expression) json.RawMessage {
	if expr == nil {
		return nil
	}
	if raw, ok := marshalExprFast(expr); ok && configFast {
		return raw
	}
	return marshalExprSlow(expr)
}

// marshalExprSlow is marshalExpr by evaluating the expression, for any
// expression (config_fast.go has the literal string's shortcut).
func marshalExprSlow(expr hcl.Expression) json.RawMessage {
	vars := lang.Variables(expr)
	if len(vars) == 0 {
		v, diags := expr.Value(nil)
		if diags.HasErrors() || !v.IsWhollyKnown() {
			return json.RawMessage("{}")
		}
		v, _ = v.UnmarkDeep()
		b, err := appendKnown(append(make([]byte, 0, 64), `{"constant_value":`...), v)
		if err != nil {
			return json.RawMessage("{}")
		}
		return append(b, '}')
	}
	// Each reference is listed as OpenTofu lists it, repeats included:
	// the subject with all of the steps after it, then with one step
	// fewer down to the subject alone, then the module call or resource
	// an instance or output of it belongs to.
	var refs []string
	for _, trav := range vars {
		ref, diags := addrs.ParseRef(trav)
		if diags.HasErrors() || ref == nil {
			continue
		}
		subject := ref.Subject.String()
		for n := len(ref.Remaining); n > 0; n-- {
			refs = append(refs, subject+relativeTraversal(ref.Remaining[:n]))
		}
		refs = append(refs, subject)
		switch s := ref.Subject.(type) {
		case addrs.ResourceInstance:
			if s.Key != addrs.NoKey {
				refs = append(refs, s.Resource.String())
			}
		case addrs.ModuleCallInstance:
			if s.Key != addrs.NoKey {
				refs = append(refs, s.Call.String())
			}
		case addrs.ModuleCallInstanceOutput:
			refs = append(refs, s.Call.String())
		}
	}
	if refs == nil {
		return json.RawMessage(`{"references":null}`)
	}
	b := append(make([]byte, 0, 64), `{"references":[`...)
	for i, r := range refs {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, r)
	}
	return append(b, "]}"...)
}

var bodySchemas sync.Map // *configschema.Block -> *hcl.BodySchema

// bodySchema is the HCL schema that picks a resource body's arguments and
// nested blocks by the provider schema, made once per schema.
func bodySchema(schema *configschema.Block) *hcl.BodySchema {
	if bs, ok := bodySchemas.Load(schema); ok {
		return bs.(*hcl.BodySchema)
	}
	bs := &hcl.BodySchema{}
	for name := range schema.Attributes {
		bs.Attributes = append(bs.Attributes, hcl.AttributeSchema{Name: name})
	}
	for name, nb := range schema.BlockTypes {
		var labels []string
		if nb.Nesting == configschema.NestingMap {
			labels = []string{"key"}
		}
		bs.Blocks = append(bs.Blocks, hcl.BlockHeaderSchema{Type: name, LabelNames: labels})
	}
	bodySchemas.Store(schema, bs)
	return bs
}

func traversalStrings(ts []hcl.Traversal) []string {
	var out []string
	for _, t := range ts {
		var b strings.Builder
		for i, step := range t {
			switch s := step.(type) {
			case hcl.TraverseRoot:
				b.WriteString(s.Name)
			case hcl.TraverseAttr:
				if i > 0 {
					b.WriteString(".")
				}
				b.WriteString(s.Name)
			case hcl.TraverseIndex:
				if k, err := addrs.ParseInstanceKey(s.Key); err == nil {
					b.WriteString(k.String())
				}
			}
		}
		out = append(out, b.String())
	}
	return out
}

// relativeTraversal writes relative traversal steps as they appear in an
// address: .name for attributes, [0] or ["key"] for indexes.
func relativeTraversal(steps hcl.Traversal) string {
	var b strings.Builder
	for _, step := range steps {
		switch s := step.(type) {
		case hcl.TraverseAttr:
			b.WriteString(".")
			b.WriteString(s.Name)
		case hcl.TraverseIndex:
			if k, err := addrs.ParseInstanceKey(s.Key); err == nil {
				b.WriteString(k.String())
			}
		case hcl.TraverseSplat:
			b.WriteString("[*]")
		}
	}
	return b.String()
}

// marshalBodyUntyped is marshalBody of a native-syntax body with no
// schema at hand (a plan file that carries none): its arguments as
// written, and its nested blocks, each type as a list whatever its nesting
// mode, which only the schema tells (a single block is an object there).
// The arguments the resource block's own decoding took stay hidden, as
// PartialContent hides them.
func marshalBodyUntyped(b *hclsyntax.Body) map[string]json.RawMessage {
	bs := &hcl.BodySchema{}
	for name := range b.Attributes {
		bs.Attributes = append(bs.Attributes, hcl.AttributeSchema{Name: name})
	}
	seen := map[string]bool{}
	for _, blk := range b.Blocks {
		if !seen[blk.Type] {
			seen[blk.Type] = true
			bs.Blocks = append(bs.Blocks, hcl.BlockHeaderSchema{Type: blk.Type, LabelNames: make([]string, len(blk.Labels))})
		}
	}
	content, _, diags := b.PartialContent(bs)
	if diags.HasErrors() || content == nil {
		return nil
	}
	out := map[string]json.RawMessage{}
	for name, a := range content.Attributes {
		out[name] = marshalExpr(a.Expr)
	}
	blocks := map[string][]map[string]json.RawMessage{}
	for _, blk := range content.Blocks {
		inner, _ := blk.Body.(*hclsyntax.Body)
		var m map[string]json.RawMessage
		if inner != nil {
			m = marshalBodyUntyped(inner)
		}
		if m == nil {
			m = map[string]json.RawMessage{}
		}
		blocks[blk.Type] = append(blocks[blk.Type], m)
	}
	for name, list := range blocks {
		e := &encoder{}
		if err := e.encode(list); err == nil {
			out[name] = e.buf
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
