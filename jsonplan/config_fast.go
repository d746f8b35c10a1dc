package jsonplan

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"golang.org/x/text/unicode/norm"

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

// marshalExprFast is marshalExpr of a static expression (lang.Static): a
// literal, a quoted string without interpolation ("v0"), or a tuple or
// object constructor of them ({ idx = 0, name = "r0" }). It refers to
// nothing and its value is the one the syntax spells, so the constant
// value is written from the syntax tree: the general path's walk for
// references, its evaluation (a cty object and type per constructor) and
// the value's encoding are skipped. ok is false for any other expression,
// and for the rare static shapes written differently once evaluated
// (repeated or non-string keys, templates of several parts).
func marshalExprFast(expr hcl.Expression) (json.RawMessage, bool) {
	b, ok := appendStatic(append(make([]byte, 0, 64), `{"constant_value":`...), expr)
	if !ok {
		return nil, false
	}
	return append(b, '}'), true
}

// appendStatic appends the JSON of static expression expr's value, as
// appendKnown writes the evaluated value.
func appendStatic(b []byte, expr hcl.Expression) ([]byte, bool) {
	switch e := expr.(type) {
	case *hclsyntax.LiteralValueExpr:
		if e.Val.IsMarked() || !e.Val.IsWhollyKnown() {
			return b, false
		}
		b, err := appendKnown(b, e.Val)
		return b, err == nil
	case *hclsyntax.TemplateExpr:
		// One literal part evaluates to itself (the parser normalised it
		// as cty.StringVal does); other parts convert to a string first.
		s, ok := staticString(e)
		if !ok {
			return b, false
		}
		return appendJSONString(b, s), true
	case *hclsyntax.TupleConsExpr:
		b = append(b, '[')
		for i, x := range e.Exprs {
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = appendStatic(b, x); !ok {
				return b, false
			}
		}
		return append(b, ']'), true
	case *hclsyntax.ObjectConsExpr:
		return appendStaticObject(b, e)
	}
	return b, false
}

// appendStaticObject is appendStatic of an object constructor: its
// attributes in name order, as a cty object's.
func appendStaticObject(b []byte, e *hclsyntax.ObjectConsExpr) ([]byte, bool) {
	type attr struct {
		name string
		expr hclsyntax.Expression
	}
	var buf [8]attr
	attrs := buf[:0]
	for _, item := range e.Items {
		name, ok := staticKeyName(item.KeyExpr)
		if !ok {
			return b, false
		}
		attrs = append(attrs, attr{name, item.ValueExpr})
	}
	slices.SortFunc(attrs, func(x, y attr) int { return strings.Compare(x.name, y.name) })
	b = append(b, '{')
	for i, a := range attrs {
		if i > 0 {
			if a.name == attrs[i-1].name {
				return b, false // the last one wins when evaluated
			}
			b = append(b, ',')
		}
		b = append(appendJSONString(b, a.name), ':')
		var ok bool
		if b, ok = appendStatic(b, a.expr); !ok {
			return b, false
		}
	}
	return append(b, '}'), true
}

// staticKeyName is the name an object constructor's key spells: a bare name
// (not parenthesised, one step) or a quoted string without
// interpolation, as evaluation gives it (cty.StringVal normalises a
// string to NFC; a name that is not already so is declined).
func staticKeyName(key hclsyntax.Expression) (string, bool) {
	k, isKey := key.(*hclsyntax.ObjectConsKeyExpr)
	if !isKey {
		return "", false
	}
	switch w := k.Wrapped.(type) {
	case *hclsyntax.ScopeTraversalExpr:
		if k.ForceNonLiteral || len(w.Traversal) != 1 {
			return "", false
		}
		name := w.Traversal.RootName()
		return name, norm.NFC.IsNormalString(name)
	case *hclsyntax.TemplateExpr:
		return staticString(w)
	}
	return "", false
}

// staticString is the value of a template of one literal string part.
func staticString(t *hclsyntax.TemplateExpr) (string, bool) {
	if len(t.Parts) != 1 {
		return "", false
	}
	lit, isLiteral := t.Parts[0].(*hclsyntax.LiteralValueExpr)
	if !isLiteral {
		return "", false
	}
	v := lit.Val
	if v.Type() != cty.String || v.IsMarked() || !v.IsKnown() || v.IsNull() {
		return "", false
	}
	return v.AsString(), true
}
