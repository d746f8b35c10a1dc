package terraform

import (
	"slices"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/customdecode"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// fastBody decodes a resource body that has only attributes (an
// hcldec.ObjectSpec of AttrSpecs) without hcldec's per-call work: building
// the body schema from the spec, matching the body's content against it
// and the dynamic-block wrapper take about half the allocations of an
// instance's evaluation, yet their result depends only on the body and the
// spec, which every instance of the resource shares. The structure is
// checked once (hclsyntax's Content must accept it without any
// diagnostic); after that each instance evaluates the attributes' own
// expressions and converts them, as hcldec.AttrSpec does. Any diagnostic
// makes the caller decode the ordinary way, so messages are unchanged.
//
// The bound attributes are kept only when a second instance of the node is
// evaluated: a resource without count or for_each keeps nothing extra.
type fastBody struct {
	evals atomic.Int32
	once  sync.Once
	attrs []fastAttr // nil: decode the ordinary way
}

type fastAttr struct {
	key  string         // the object attribute (ObjectSpec key)
	name string         // the argument in the body (AttrSpec.Name)
	ty   cty.Type       // AttrSpec.Type
	expr hcl.Expression // nil: absent from the body, the value is null
	null cty.Value      // the value of an absent attribute
	// check is the Func of a ValidateSpec wrapping the AttrSpec (such as
	// configschema's refusal of computed-only arguments), or nil.
	check func(cty.Value) hcl.Diagnostics
}

// fastAttrs returns the attributes to evaluate for body, or nil when this
// node's body goes through hcldec (a spec with more than attributes, or a
// body whose content has any diagnostic: unknown arguments, blocks, dynamic
// blocks, missing required arguments). The first instance's are not kept.
func (f *fastBody) fastAttrs(body hcl.Body, fs *fastSpec) []fastAttr {
	tmpl, schema := fs.get()
	if tmpl == nil {
		return nil
	}
	if f.evals.Add(1) < 2 {
		return bindFastAttrs(body, tmpl, schema)
	}
	f.once.Do(func() { f.attrs = bindFastAttrs(body, tmpl, schema) })
	return f.attrs
}

// fastSpec is what a decoder spec gives every body decoded with it (one per
// resource schema, shared by its resources): the attributes to evaluate and
// the body schema, built once.
type fastSpec struct {
	spec   hcldec.Spec
	once   sync.Once
	attrs  []fastAttr // expressions unset; nil: the spec is not attributes only
	schema *hcl.BodySchema
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
	})
	return fs.attrs, fs.schema
}

// bindFastAttrs returns tmpl with the expressions of body, or nil when
// body is not plain HCL syntax or its content has any diagnostic.
func bindFastAttrs(body hcl.Body, tmpl []fastAttr, schema *hcl.BodySchema) []fastAttr {
	sb, ok := body.(*hclsyntax.Body)
	if !ok {
		return nil
	}
	content, diags := sb.Content(schema)
	if len(diags) > 0 || len(content.Blocks) > 0 {
		return nil
	}
	out := slices.Clone(tmpl)
	for i := range out {
		if a, ok := content.Attributes[out[i].name]; ok {
			out[i].expr = a.Expr
		}
	}
	return out
}

// decodeFast evaluates attrs in ctx into the object hcldec.Decode would
// return; ok is false when any expression or conversion had a diagnostic.
func decodeFast(attrs []fastAttr, ctx *hcl.EvalContext) (cty.Value, bool) {
	vals := make(map[string]cty.Value, len(attrs))
	for _, a := range attrs {
		v := a.null
		if a.expr != nil {
			ev, diags := a.expr.Value(ctx)
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
