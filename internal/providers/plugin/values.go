package plugin

import (
	"context"
	"fmt"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	ctymsgpack "github.com/zclconf/go-cty/cty/msgpack"

	"github.com/plankit/plankit/internal/fastmsgpack"
	"github.com/plankit/plankit/internal/safecty"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
	"github.com/plankit/plankit/tfdiags"
)

// encodeValue encodes v as msgpack of type ty (cty.DynamicPseudoType
// encodes the value's type with it). A cty.NilVal is null. Marks are
// dropped: providers never see them.
//
// Every call encodes several values, most often a null prior state or
// provider_meta: a null of a static type is msgpack nil, with no encoder.
// Marked values are rare here (the core unmarks what it sends), so the
// value is first encoded as is, and only unmarked when that fails.
func encodeValue(v cty.Value, ty cty.Type) ([]byte, error) {
	if v == cty.NilVal || (ty != cty.DynamicPseudoType && !v.IsMarked() && v.IsNull()) {
		return []byte{fastmsgpack.Nil}, nil
	}
	b, err := fastmsgpack.Marshal(v, ty)
	if err != nil && v.ContainsMarked() {
		v, _ = v.UnmarkDeep()
		return fastmsgpack.Marshal(v, ty)
	}
	return b, err
}

// decodeValue decodes a DynamicValue of type ty: msgpack when present,
// else JSON, else null (an absent DynamicValue).
//
// A malformed value from a buggy provider is an error, never a panic (cty's
// decoders panic on some malformed dynamic values; see internal/safecty),
// and so is a value not of type ty (cty's msgpack decoder returns an empty
// object for an empty map whatever the object type).
func decodeValue(msgpack, json []byte, ty cty.Type) (cty.Value, error) {
	v, err := decodeRaw(msgpack, json, ty)
	if err != nil {
		return cty.NilVal, err
	}
	if errs := v.Type().TestConformance(ty); len(errs) > 0 {
		return cty.NilVal, fmt.Errorf("value does not conform to the schema: %s", errs[0])
	}
	return v, nil
}

func decodeRaw(msgpack, json []byte, ty cty.Type) (v cty.Value, err error) {
	switch {
	case len(msgpack) > 0:
		if v, ok := fastmsgpack.Decode(msgpack, ty); ok {
			return v, nil
		}
		defer func() {
			if r := recover(); r != nil {
				v, err = cty.NilVal, fmt.Errorf("malformed msgpack value: %v", r)
			}
		}()
		return ctymsgpack.Unmarshal(msgpack, ty)
	case len(json) > 0:
		return safecty.Unmarshal(json, ty)
	default:
		return cty.NullVal(ty), nil
	}
}

// valueError is the diagnostic for a value that would not encode or
// decode.
func valueError(p *process, what string, err error) hcl.Diagnostics {
	return hcl.Diagnostics{tfdiags.Errorf("Invalid provider value",
		"plankit could not translate %s for provider %s: %v", what, p.meta.Provider, err)}
}

// schemaCache holds the schemas of providers that declared
// get_provider_schema_optional, by executable, so later processes of the
// same binary in this run skip GetProviderSchema.
var schemaCache sync.Map // string -> *providers.GetProviderSchemaResponse

func cacheKey(m Meta) string { return m.Provider.String() + "\x00" + m.Version + "\x00" + m.Executable }

// schemas is the per-process schema state of the translation: the
// response is fetched at most once per process (once per run when the
// provider allows it) and the implied types are kept.
type schemas struct {
	once sync.Once
	resp providers.GetProviderSchemaResponse
	// Implied types, computed once: per resource type, per data source,
	// and of the provider and provider_meta blocks.
	resources, data        map[string]cty.Type
	ephemeral              map[string]cty.Type
	providerType, metaType cty.Type
}

// get returns the schema, calling fetch the first time unless the cache
// has one from another process of the same binary.
func (s *schemas) get(p *process, fetch func() providers.GetProviderSchemaResponse) *providers.GetProviderSchemaResponse {
	s.once.Do(func() {
		key := cacheKey(p.meta)
		if c, ok := schemaCache.Load(key); ok {
			s.resp = *c.(*providers.GetProviderSchemaResponse)
		} else {
			s.resp = fetch()
			if !s.resp.Diagnostics.HasErrors() && s.resp.ServerCapabilities.GetProviderSchemaOptional {
				r := s.resp
				schemaCache.Store(key, &r)
			}
		}
		s.providerType = s.resp.Provider.Block.ImpliedType()
		s.metaType = s.resp.ProviderMeta.Block.ImpliedType()
		s.resources = make(map[string]cty.Type, len(s.resp.ResourceTypes))
		for n, rs := range s.resp.ResourceTypes {
			s.resources[n] = rs.Block.ImpliedType()
		}
		s.data = make(map[string]cty.Type, len(s.resp.DataSources))
		for n, ds := range s.resp.DataSources {
			s.data[n] = ds.Block.ImpliedType()
		}
		s.ephemeral = make(map[string]cty.Type, len(s.resp.EphemeralResourceTypes))
		for n, es := range s.resp.EphemeralResourceTypes {
			s.ephemeral[n] = es.Block.ImpliedType()
		}
	})
	return &s.resp
}

// resourceType returns the implied type of a managed resource type.
func (s *schemas) resourceType(p *process, fetch func() providers.GetProviderSchemaResponse, typeName string) (cty.Type, hcl.Diagnostics) {
	return s.lookup(p, fetch, func() map[string]cty.Type { return s.resources }, typeName, "Unsupported resource type", "resource type")
}

// dataType returns the implied type of a data source.
func (s *schemas) dataType(p *process, fetch func() providers.GetProviderSchemaResponse, typeName string) (cty.Type, hcl.Diagnostics) {
	return s.lookup(p, fetch, func() map[string]cty.Type { return s.data }, typeName, "Unsupported data source", "data source")
}

// ephemeralType returns the implied type of an ephemeral resource type.
func (s *schemas) ephemeralType(p *process, fetch func() providers.GetProviderSchemaResponse, typeName string) (cty.Type, hcl.Diagnostics) {
	return s.lookup(p, fetch, func() map[string]cty.Type { return s.ephemeral }, typeName, "Unsupported ephemeral resource type", "ephemeral resource type")
}

// lookup fetches the schema once, then finds typeName in the map of one
// kind (read after the fetch filled it); an unknown type is an error
// naming the provider and the kind.
func (s *schemas) lookup(p *process, fetch func() providers.GetProviderSchemaResponse, types func() map[string]cty.Type, typeName, summary, kind string) (cty.Type, hcl.Diagnostics) {
	resp := s.get(p, fetch)
	if resp.Diagnostics.HasErrors() {
		return cty.NilType, resp.Diagnostics
	}
	ty, ok := types()[typeName]
	if !ok {
		return cty.NilType, hcl.Diagnostics{tfdiags.Errorf(summary,
			"The provider %s has no %s %q.", p.meta.Provider, kind, typeName)}
	}
	return ty, nil
}

// typeOf returns the implied type of the provider ("provider") or
// provider_meta ("meta") schema.
func (s *schemas) typeOf(p *process, fetch func() providers.GetProviderSchemaResponse, which string) (cty.Type, hcl.Diagnostics) {
	resp := s.get(p, fetch)
	if resp.Diagnostics.HasErrors() {
		return cty.NilType, resp.Diagnostics
	}
	if which == "meta" {
		return s.metaType, nil
	}
	return s.providerType, nil
}

// function finds function name among fns, the provider's functions, and
// the type each of n arguments of a call converts to; the error is the
// CallFunction error of either protocol.
func (pr *process) function(fns providers.GetFunctionsResponse, name string, n int) (providers.FunctionDecl, []cty.Type, error) {
	if fns.Diagnostics.HasErrors() {
		return providers.FunctionDecl{}, nil, fns.Diagnostics
	}
	decl, ok := fns.Functions[name]
	if !ok {
		return decl, nil, fmt.Errorf("provider %s has no function %q", pr.meta.Provider, name)
	}
	tys, err := functionTypes(name, decl, n)
	return decl, tys, err
}

// functionError is the error of a function call the provider refused,
// given the protocol's FunctionError fields.
func functionError(text string, arg *int64) *providers.FunctionError {
	e := &providers.FunctionError{Text: text}
	if arg != nil {
		i := int(*arg)
		e.Argument = &i
	}
	return e
}

// functionTypes returns the parameter type of each argument of a call of
// decl (variadic ones included) or an error for a wrong argument count.
func functionTypes(name string, decl providers.FunctionDecl, n int) ([]cty.Type, error) {
	if n < len(decl.Parameters) || (decl.VariadicParameter == nil && n > len(decl.Parameters)) {
		return nil, fmt.Errorf("function %q takes %d arguments, got %d", name, len(decl.Parameters), n)
	}
	tys := make([]cty.Type, n)
	for i := range tys {
		if i < len(decl.Parameters) {
			tys[i] = decl.Parameters[i].Type
		} else {
			tys[i] = decl.VariadicParameter.Type
		}
	}
	return tys, nil
}

// emptyBlock makes a nil schema block an empty one.
func emptyBlock(b *configschema.Block) *configschema.Block {
	if b == nil {
		return &configschema.Block{}
	}
	return b
}

// pathStep is one step of a protocol attribute path, as the protocol
// adapters give it to buildPath, which makes a cty.Path of them.
type pathStep struct {
	attr   string
	strKey string
	intKey int64
	kind   int // 1 attribute, 2 string key, 3 int key
}

func buildPath(steps []pathStep) cty.Path {
	if len(steps) == 0 {
		return nil
	}
	p := make(cty.Path, 0, len(steps))
	for _, s := range steps {
		switch s.kind {
		case 1:
			p = append(p, cty.GetAttrStep{Name: s.attr})
		case 2:
			p = append(p, cty.IndexStep{Key: cty.StringVal(s.strKey)})
		case 3:
			p = append(p, cty.IndexStep{Key: cty.NumberIntVal(s.intKey)})
		}
	}
	return p
}

// bg is the context of every provider call: calls are not cancelled;
// Stop is how an in-flight operation is interrupted.
var bg = context.Background()

// concat joins diagnostics lists.
func concat(ds ...hcl.Diagnostics) hcl.Diagnostics {
	var out hcl.Diagnostics
	for _, d := range ds {
		out = append(out, d...)
	}
	return out
}
