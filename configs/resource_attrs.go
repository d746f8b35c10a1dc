package configs

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// AttributeSchema is an attribute-only body schema prepared once for
// Resource.ConfigAttributes, which checks many resource bodies against it.
type AttributeSchema struct {
	index    map[string]int // attribute name -> position in the schema
	required []bool
}

// NewAttributeSchema prepares schema for Resource.ConfigAttributes. ok is
// false when schema has block types or names an attribute twice (such a
// schema needs Content).
func NewAttributeSchema(schema *hcl.BodySchema) (s *AttributeSchema, ok bool) {
	if schema == nil || len(schema.Blocks) > 0 {
		return nil, false
	}
	s = &AttributeSchema{index: make(map[string]int, len(schema.Attributes)), required: make([]bool, len(schema.Attributes))}
	for i, a := range schema.Attributes {
		if _, dup := s.index[a.Name]; dup {
			return nil, false
		}
		s.index[a.Name] = i
		s.required[i] = a.Required
	}
	return s, true
}

// ConfigAttributes returns the expression of each attribute of s's schema
// in r.Config (nil when absent), in the schema's order, and ok true only
// when r.Config.Content(schema) gives exactly those attributes and no
// diagnostic at all. It is what the core checks every resource body with:
// Content copies the body's hidden names and builds maps on each call.
//
// It knows what Content would say because r.Config is still the body
// decodeResourceCommon took the meta-arguments from: its hidden
// arguments are the meta-arguments the block wrote and its hidden blocks
// every block type of resourceBlockSchema. Otherwise (a body merged from
// an override file or replaced by generated configuration, JSON syntax)
// ok is false and the caller uses Content. O(arguments in the body).
func (r *Resource) ConfigAttributes(s *AttributeSchema) (exprs []hcl.Expression, ok bool) {
	sb, isNative := r.Config.(*hclsyntax.Body)
	if s == nil || !isNative || sb != r.decodedBody {
		return nil, false
	}
	for _, b := range sb.Blocks {
		if !isResourceMetaBlock(b.Type) {
			return nil, false // Content: "Unsupported block type"
		}
	}
	exprs = make([]hcl.Expression, len(s.required))
	for name, a := range sb.Attributes {
		if isResourceMetaAttr(name) {
			continue // hidden: present, so taken by decodeResourceCommon
		}
		i, known := s.index[name]
		if !known {
			return nil, false // Content: "Unsupported argument"
		}
		exprs[i] = a.Expr
	}
	for i, req := range s.required {
		if req && exprs[i] == nil {
			return nil, false // Content: "Missing required argument"
		}
	}
	return exprs, true
}

// Arguments calls fn with the name and expression of each argument of
// r.Config, in no particular order: what r.Config.JustAttributes()
// returns, without the map and the copies it makes. It reports false,
// calling nothing, unless r.Config is still the native-syntax body
// decodeResourceCommon decoded (whose hidden arguments are the
// meta-arguments it has) and has no nested block at all; the caller then
// uses JustAttributes. O(arguments).
func (r *Resource) Arguments(fn func(name string, expr hcl.Expression)) bool {
	sb, isNative := r.Config.(*hclsyntax.Body)
	if !isNative || sb != r.decodedBody || len(sb.Blocks) > 0 {
		return false
	}
	for name, a := range sb.Attributes {
		if !isResourceMetaAttr(name) {
			fn(name, a.Expr)
		}
	}
	return true
}

// isResourceMetaAttr reports whether name is an attribute of
// resourceBlockSchema.
func isResourceMetaAttr(name string) bool {
	for _, a := range resourceBlockSchema.Attributes {
		if a.Name == name {
			return true
		}
	}
	return false
}

// isResourceMetaBlock reports whether typ is a block type of
// resourceBlockSchema.
func isResourceMetaBlock(typ string) bool {
	for _, b := range resourceBlockSchema.Blocks {
		if b.Type == typ {
			return true
		}
	}
	return false
}

// resourceMetaContent is body.PartialContent(resourceBlockSchema) without
// its allocations for the usual body, one with no meta-argument and no
// block at all: PartialContent would find nothing and return a body that
// hides only the schema's block types (absent here) and the meta-arguments
// present (none), so the body itself behaves as that remain in every
// method. Any other body goes through PartialContent.
// FuzzResourceMetaContent compares the two.
func resourceMetaContent(body hcl.Body) (*hcl.BodyContent, hcl.Body, hcl.Diagnostics) {
	sb, ok := body.(*hclsyntax.Body)
	if !ok || len(sb.Blocks) > 0 {
		return body.PartialContent(resourceBlockSchema)
	}
	for _, a := range resourceBlockSchema.Attributes {
		if _, present := sb.Attributes[a.Name]; present {
			return body.PartialContent(resourceBlockSchema)
		}
	}
	return &hcl.BodyContent{MissingItemRange: sb.MissingItemRange()}, sb, nil
}
