package terraform

import (
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/customdecode"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/lang"
)

// fastBody decodes a resource body that has only attributes (an
// hcldec.ObjectSpec of AttrSpecs) without hcldec's per-call work: building
// the body schema from the spec, matching the body's content against it
// and the dynamic-block wrapper are much of the allocation of an
// instance's evaluation, yet their result depends only on the body and the
// spec, which every instance of the resource shares. The structure is
// checked once per node (hclsyntax's Content must accept it without any
// diagnostic), and the body's references are found from the same content;
// after that each instance evaluates the attributes' own expressions and
// converts them, as hcldec.AttrSpec does. Any diagnostic makes the caller
// decode the ordinary way, so messages are unchanged.
//
// A node keeps one expression pointer per attribute of the schema.
// bodyFast turns it on (off for BenchmarkPlanBodyFast's general path).
type fastBody struct {
	once  sync.Once
	tmpl  []fastAttr       // the spec's attributes; nil: decode the ordinary way
	exprs []hcl.Expression // the body's expression for tmpl[i]; nil when absent
}

type fastAttr struct {
	key  string    // the object attribute (ObjectSpec key)
	name string    // the argument in the body (AttrSpec.Name)
	ty   cty.Type  // AttrSpec.Type
	null cty.Value // the value of an absent attribute
	// check is the Func of a ValidateSpec wrapping the AttrSpec (such as
	// configschema's refusal of computed-only arguments), or nil.
	check func(cty.Value) hcl.Diagnostics
}

var bodyFast = true

// bind checks body against fs once and returns the attributes and their
// expressions, or nil when the body goes through hcldec (a spec with more
// than attributes, or a body whose content has any diagnostic: unknown
// arguments, blocks, dynamic blocks, missing required arguments).
//
// res, when not nil, is the resource whose Config body is: its
// ConfigAttributes answers as Content would, without Content's
// allocations (TestConfigAttributesMatchContent), when it can tell.
func (f *fastBody) bind(body hcl.Body, res *configs.Resource, fs *fastSpec) ([]fastAttr, []hcl.Expression) {
	f.once.Do(func() {
		tmpl, schema := fs.get()
		sb, ok := body.(*hclsyntax.Body)
		if tmpl == nil || !ok {
			return
		}
		if res != nil && res.Config == body {
			if byName, ok := res.ConfigAttributes(fs.attrSchema); ok {
				exprs := make([]hcl.Expression, len(tmpl))
				for i := range tmpl {
					exprs[i] = byName[fs.schemaIndex[i]]
				}
				f.tmpl, f.exprs = tmpl, exprs
				return
			}
		}
		content, diags := sb.Content(schema)
		if len(diags) > 0 || len(content.Blocks) > 0 {
			return
		}
		exprs := make([]hcl.Expression, len(tmpl))
		for i := range tmpl {
			if a, ok := content.Attributes[tmpl[i].name]; ok {
				exprs[i] = a.Expr
			}
		}
		f.tmpl, f.exprs = tmpl, exprs
	})
	return f.tmpl, f.exprs
}

// references returns the references of a body bind accepted (ok false
// otherwise): those of its attributes' expressions, as
// lang.ReferencesInBlock finds them, without matching the body again.
func (f *fastBody) references(body hcl.Body, res *configs.Resource, fs *fastSpec) (refs []*addrs.Reference, diags hcl.Diagnostics, ok bool) {
	tmpl, exprs := f.bind(body, res, fs)
	if tmpl == nil {
		return nil, nil, false
	}
	var travs []hcl.Traversal
	for _, e := range exprs {
		if e != nil {
			travs = append(travs, lang.Variables(e)...)
		}
	}
	refs, diags = lang.References(travs)
	return refs, diags, true
}

// fastSpec is what a decoder spec gives every body decoded with it (one per
// resource schema, shared by its resources): the attributes to evaluate and
// the body schema, built once.
type fastSpec struct {
	spec   hcldec.Spec
	once   sync.Once
	attrs  []fastAttr // nil: the spec is not attributes only
	schema *hcl.BodySchema
	// attrSchema is schema prepared for configs.Resource.ConfigAttributes
	// (nil: it cannot be), and schemaIndex[i] the position of attrs[i]
	// in schema.Attributes.
	attrSchema  *configs.AttributeSchema
	schemaIndex []int
}

func newFastSpec(spec hcldec.Spec) *fastSpec { return &fastSpec{spec: spec} }

func (fs *fastSpec) get() ([]fastAttr, *hcl.BodySchema) {
	if fs == nil {
		return nil, nil
	}
	fs.once.Do(func() {
		os, ok := fs.spec.(hcldec.ObjectSpec)
		if !ok || len(os) == 0 {
			return
		}
		out := make([]fastAttr, 0, len(os))
		for key, s := range os {
			var check func(cty.Value) hcl.Diagnostics
			if vs, ok := s.(*hcldec.ValidateSpec); ok {
				s, check = vs.Wrapped, vs.Func
			}
			as, ok := s.(*hcldec.AttrSpec)
			if !ok || customdecode.CustomExpressionDecoderForType(as.Type) != nil {
				return
			}
			out = append(out, fastAttr{key: key, name: as.Name, ty: as.Type, check: check,
				null: cty.NullVal(as.Type.WithoutOptionalAttributesDeep())})
		}
		fs.attrs, fs.schema = out, hcldec.ImpliedSchema(fs.spec)
		if as, ok := configs.NewAttributeSchema(fs.schema); ok {
			pos := make(map[string]int, len(fs.schema.Attributes))
			for i, a := range fs.schema.Attributes {
				pos[a.Name] = i
			}
			idx := make([]int, len(out))
			for i, a := range out {
				j, found := pos[a.name]
				if !found {
					return
				}
				idx[i] = j
			}
			fs.attrSchema, fs.schemaIndex = as, idx
		}
	})
	return fs.attrs, fs.schema
}

// decodeFast evaluates the attributes in ctx into the object hcldec.Decode
// would return; ok is false when any expression or conversion had a
// diagnostic.
func decodeFast(tmpl []fastAttr, exprs []hcl.Expression, ctx *hcl.EvalContext) (cty.Value, bool) {
	vals := make(map[string]cty.Value, len(tmpl))
	for i, a := range tmpl {
		v := a.null
		if e := exprs[i]; e != nil {
			ev, diags := e.Value(ctx)
			if len(diags) > 0 {
				return cty.NilVal, false
			}
			var err error
			if v, err = convert.Convert(ev, a.ty); err != nil {
				return cty.NilVal, false
			}
		}
		if a.check != nil && len(a.check(v)) > 0 {
			return cty.NilVal, false
		}
		vals[a.key] = v
	}
	return cty.ObjectVal(vals), true
}
