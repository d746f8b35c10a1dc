package configs

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
)

// mergedBody is an hcl.Body that overlays an override file's block body on
// the primary block's body: an attribute in Override replaces the one of the
// same name in Base, and if Override has any nested blocks of a type, they
// replace all of Base's blocks of that type. Each call costs one decode of
// both bodies.
type mergedBody struct {
	Base, Override hcl.Body
}

var _ hcl.Body = mergedBody{}

// mergeBodies returns base overlaid with override.
func mergeBodies(base, override hcl.Body) hcl.Body {
	if override == nil {
		return base
	}
	if base == nil {
		return override
	}
	return mergedBody{Base: base, Override: override}
}

// relaxed returns schema with no attribute required: requiredness is
// checked on the merged content, since the override may supply what the
// base lacks.
func relaxed(schema *hcl.BodySchema) *hcl.BodySchema {
	out := &hcl.BodySchema{Blocks: schema.Blocks}
	for _, a := range schema.Attributes {
		out.Attributes = append(out.Attributes, hcl.AttributeSchema{Name: a.Name})
	}
	return out
}

func (b mergedBody) Content(schema *hcl.BodySchema) (*hcl.BodyContent, hcl.Diagnostics) {
	r := relaxed(schema)
	bc, diags := b.Base.Content(r)
	oc, ds := b.Override.Content(r)
	diags = append(diags, ds...)
	content := mergeContent(bc, oc)
	return content, append(diags, b.checkRequired(schema, content)...)
}

func (b mergedBody) PartialContent(schema *hcl.BodySchema) (*hcl.BodyContent, hcl.Body, hcl.Diagnostics) {
	r := relaxed(schema)
	bc, bRemain, diags := b.Base.PartialContent(r)
	oc, oRemain, ds := b.Override.PartialContent(r)
	diags = append(diags, ds...)
	content := mergeContent(bc, oc)
	diags = append(diags, b.checkRequired(schema, content)...)
	return content, mergedBody{Base: bRemain, Override: oRemain}, diags
}

func (b mergedBody) JustAttributes() (hcl.Attributes, hcl.Diagnostics) {
	attrs, diags := b.Base.JustAttributes()
	oAttrs, ds := b.Override.JustAttributes()
	diags = append(diags, ds...)
	out := hcl.Attributes{}
	for k, v := range attrs {
		out[k] = v
	}
	for k, v := range oAttrs {
		out[k] = v
	}
	return out, diags
}

func (b mergedBody) MissingItemRange() hcl.Range { return b.Base.MissingItemRange() }

func (b mergedBody) checkRequired(schema *hcl.BodySchema, content *hcl.BodyContent) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, a := range schema.Attributes {
		if _, ok := content.Attributes[a.Name]; a.Required && !ok {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Missing required argument",
				Detail:   fmt.Sprintf("The argument %q is required, but neither the block nor its override sets it.", a.Name),
				Subject:  b.MissingItemRange().Ptr(),
			})
		}
	}
	return diags
}

func mergeContent(base, override *hcl.BodyContent) *hcl.BodyContent {
	if base == nil {
		base = &hcl.BodyContent{}
	}
	if override == nil {
		override = &hcl.BodyContent{}
	}
	out := &hcl.BodyContent{Attributes: hcl.Attributes{}, MissingItemRange: base.MissingItemRange}
	for k, v := range base.Attributes {
		out.Attributes[k] = v
	}
	for k, v := range override.Attributes {
		out.Attributes[k] = v
	}
	overridden := map[string]bool{}
	for _, blk := range override.Blocks {
		overridden[blk.Type] = true
	}
	for _, blk := range base.Blocks {
		if !overridden[blk.Type] {
			out.Blocks = append(out.Blocks, blk)
		}
	}
	out.Blocks = append(out.Blocks, override.Blocks...)
	return out
}
