package terraform

import (
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
// It is built only when a second instance of the node is evaluated: a
// resource without count or for_each keeps nothing extra.
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

// fastAttrs returns the attributes to evaluate for body and spec, or nil
// when this node's body goes through hcldec (first instance, a body with
// blocks or dynamic blocks, a spec with more than attributes, or one whose
// content had diagnostics).
func (f *fastBody) fastAttrs(body hcl.Body, spec hcldec.Spec) []fastAttr {
	if f.evals.Add(1) < 2 {
		return nil
	}
	f.once.Do(func() { f.attrs = buildFastAttrs(body, spec) })
	return f.attrs
}

func buildFastAttrs(body hcl.Body, spec hcldec.Spec) []fastAttr {
	sb, ok := body.(*hclsyntax.Body)
	os, ok2 := spec.(hcldec.ObjectSpec)
	if !ok || !ok2 || len(os) == 0 {
		return nil
	}
	out := make([]fastAttr, 0, len(os))
	for key, s := range os {
		var check func(cty.Value) hcl.Diagnostics
		if vs, ok := s.(*hcldec.ValidateSpec); ok {
			s, check = vs.Wrapped, vs.Func
		}
		as, ok := s.(*hcldec.AttrSpec)
		if !ok || customdecode.CustomExpressionDecoderForType(as.Type) != nil {
			return nil
		}
		out = append(out, fastAttr{key: key, name: as.Name, ty: as.Type, check: check,
			null: cty.NullVal(as.Type.WithoutOptionalAttributesDeep())})
	}
	content, diags := sb.Content(hcldec.ImpliedSchema(spec))
	if len(diags) > 0 || len(content.Blocks) > 0 {
		return nil
	}
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
