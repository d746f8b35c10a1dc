package jsonplan

import (
	"encoding/json"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/providers/configschema"
)

// Shortcuts for the configuration section's commonest shapes: a resource
// body of plain arguments, and an argument that is a quoted string
// without interpolation. Each gives the bytes the general path
// (marshalBodySlow, marshalExprSlow) gives, or declines;
// TestConfigFastMatchesSlow and FuzzConfigFastMatchesSlow hold them to
// that.

// configFast turns the shortcuts on (off for the benchmarks).
var configFast = true

// marshalBodyFast is marshalBody of a native-syntax body without nested
// blocks, read with JustAttributes (which, like PartialContent, skips the
// arguments the resource block's own decoding took: count, provider and
// the rest) and filtered by the schema's attributes: the same arguments
// PartialContent returns for a schema without required attributes, with
// none of its copies of the body. ok is false for any other body.
func marshalBodyFast(body hcl.Body, schema *configschema.Block) (out map[string]json.RawMessage, ok bool) {
	b, isSyntax := body.(*hclsyntax.Body)
	if !isSyntax || schema == nil || len(b.Blocks) > 0 {
		return nil, false
	}
	attrs, diags := b.JustAttributes()
	if diags.HasErrors() {
		return nil, false
	}
	for name, a := range attrs {
		if _, inSchema := schema.Attributes[name]; !inSchema {
			continue
		}
		if out == nil {
			out = make(map[string]json.RawMessage, len(attrs))
		}
		out[name] = marshalExpr(a.Expr)
	}
	return out, true // nil when nothing matched, as marshalBodySlow
}

// marshalResourceBody is marshalBody of resource block r's body; a body
// marshalBodyFast would take (native syntax, no nested block, a schema)
// is read through r.Arguments, without JustAttributes' copies.
func marshalResourceBody(r *configs.Resource, schema *configschema.Block) map[string]json.RawMessage {
	if schema != nil && configFast {
		var out map[string]json.RawMessage
		if r.Arguments(func(name string, expr hcl.Expression) {
			if _, inSchema := schema.Attributes[name]; inSchema {
				if out == nil {
					out = make(map[string]json.RawMessage, 1)
				}
				out[name] = marshalExpr(expr)
			}
		}) {
			return out // nil when nothing matched, as marshalBodySlow
		}
	}
	return marshalBody(r.Config, schema)
}

// marshalExprFast is marshalExpr of a quoted string without
// interpolation ("v0"): its value is the literal the parser made, so it
// refers to nothing and evaluates to that string, and the general path's
// walk for references and template evaluation are skipped. ok is false
// for any other expression.
func marshalExprFast(expr hcl.Expression) (json.RawMessage, bool) {
	t, isTemplate := expr.(*hclsyntax.TemplateExpr)
	if !isTemplate || len(t.Parts) != 1 {
		return nil, false
	}
	lit, isLiteral := t.Parts[0].(*hclsyntax.LiteralValueExpr)
	if !isLiteral {
		return nil, false
	}
	v := lit.Val
	if v.Type() != cty.String || v.IsMarked() || !v.IsKnown() || v.IsNull() {
		return nil, false
	}
	b := append(make([]byte, 0, len(`{"constant_value":""}`)+len(v.AsString())+8), `{"constant_value":`...)
	b = appendJSONString(b, v.AsString())
	return append(b, '}'), true
}
