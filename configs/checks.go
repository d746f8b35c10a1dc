package configs

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/addrs"
)

// This file holds the custom conditions Terraform 1.2+ and 1.5+ added:
// precondition and postcondition blocks in the lifecycle of resources and
// data sources, precondition blocks in outputs, and check blocks with
// assertions and an optional scoped data source.

// Check is a check block: assertions evaluated after everything they
// refer to, whose failures are warnings, and at most one scoped data
// source, read like any data source but only referable from the check's
// own assertions.
type Check struct {
	Name string
	// DataResource is the scoped data source (nil when none). It is also
	// in its module's DataResources, with Check set to this block's name.
	DataResource *Resource
	Asserts      []*CheckRule
	DeclRange    hcl.Range
}

var checkBlockSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "data", LabelNames: []string{"type", "name"}},
		{Type: "assert"},
	},
}

func decodeCheckBlock(block *hcl.Block, override bool) (*Check, hcl.Diagnostics) {
	c := &Check{Name: block.Labels[0], DeclRange: block.DefRange}
	if override {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Can't override check blocks",
			Detail:   "Override files cannot override check blocks; move this block to a primary file.",
			Subject:  block.DefRange.Ptr(),
		}}
	}
	diags := checkName(c.Name, "check block name", labelRange(block, 0))
	content, ds := block.Body.Content(checkBlockSchema)
	diags = append(diags, ds...)
	for _, b := range content.Blocks {
		switch b.Type {
		case "data":
			if c.DataResource != nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Multiple data resource blocks",
					Detail:   fmt.Sprintf("This check block already has a data resource defined at %s.", c.DataResource.DeclRange),
					Subject:  b.DefRange.Ptr(),
				})
				continue
			}
			r, ds := decodeNestedDataBlock(b)
			diags = append(diags, ds...)
			if r != nil {
				r.Check = c.Name
				c.DataResource = r
			}
		case "assert":
			cr, ds := decodeConditionBlock(b, false)
			diags = append(diags, ds...)
			if cr != nil {
				c.Asserts = append(c.Asserts, cr)
			}
		}
	}
	if len(c.Asserts) == 0 {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Zero assert blocks",
			Detail:   "Check blocks must have at least one assert block.",
			Subject:  block.DefRange.Ptr(),
		})
	}
	return c, diags
}

// decodeNestedDataBlock decodes the data block of a check: an ordinary
// data block without count, for_each or lifecycle, whose errors while
// reading become warnings.
func decodeNestedDataBlock(block *hcl.Block) (*Resource, hcl.Diagnostics) {
	r, content, diags := decodeResourceCommon(block, addrs.DataResourceMode)
	for _, name := range []string{"count", "for_each"} {
		if attr, ok := content.Attributes[name]; ok {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  fmt.Sprintf("Invalid %q attribute", name),
				Detail:   fmt.Sprintf("The %q meta-argument is not supported within nested data blocks.", name),
				Subject:  attr.NameRange.Ptr(),
			})
		}
	}
	r.Count, r.ForEach = nil, nil
	for _, b := range content.Blocks {
		switch b.Type {
		case "lifecycle":
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid lifecycle block",
				Detail:   `Nested data blocks do not support "lifecycle" blocks as the lifecycle is managed by the containing block.`,
				Subject:  b.DefRange.Ptr(),
			})
		case "connection", "provisioner":
			diags = append(diags, managedOnlyBlock(b))
		}
	}
	diags = append(diags, reservedBlocks(content, "data", "locals", "_")...)
	return r, diags
}

// decodeConditionBlock decodes a precondition, postcondition or assert
// block: a condition that must refer to something, and an error message.
// In an override file such blocks are refused, as Terraform does.
func decodeConditionBlock(block *hcl.Block, override bool) (*CheckRule, hcl.Diagnostics) {
	if override {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  fmt.Sprintf("Can't override %s blocks", block.Type),
			Detail:   fmt.Sprintf("Override files cannot override %q blocks; write them in the primary file.", block.Type),
			Subject:  block.DefRange.Ptr(),
		}}
	}
	cr, diags := decodeCheckRule(block)
	if cr == nil {
		return nil, diags
	}
	if len(cr.Condition.Variables()) == 0 {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  fmt.Sprintf("Invalid %s expression", block.Type),
			Detail:   "The condition expression must refer to at least one object from elsewhere in the configuration, or else its result would not be checking anything.",
			Subject:  cr.Condition.Range().Ptr(),
		})
		return nil, diags
	}
	return cr, diags
}

// decodeResourceConditions decodes the precondition and postcondition
// blocks of a resource's or data source's lifecycle block into r. A
// condition may not refer to its own resource by name (self is for that).
func decodeResourceConditions(blocks hcl.Blocks, r *Resource, override bool) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, b := range blocks {
		cr, ds := decodeConditionBlock(b, override)
		diags = append(diags, ds...)
		if cr == nil {
			continue
		}
		if d := selfReference(cr, b.Type, r.Addr()); d != nil {
			diags = append(diags, d)
			continue
		}
		switch b.Type {
		case "precondition":
			r.Preconditions = append(r.Preconditions, cr)
		case "postcondition":
			r.Postconditions = append(r.Postconditions, cr)
		}
	}
	return diags
}

// selfReference returns the error for a condition of resource addr that
// names the resource itself, nil when it does not.
func selfReference(cr *CheckRule, blockType string, addr addrs.Resource) *hcl.Diagnostic {
	for _, expr := range []hcl.Expression{cr.Condition, cr.ErrorMessage} {
		for _, trav := range expr.Variables() {
			ref, ds := addrs.ParseRef(trav)
			if ds.HasErrors() {
				continue
			}
			if r, ok := addrs.ReferencedResource(ref.Subject); ok && r == addr {
				return &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid reference in " + blockType,
					Detail:   fmt.Sprintf("Configuration for %s may not refer to itself; use self to refer to this object's own attributes.", addr),
					Subject:  expr.Range().Ptr(),
				}
			}
		}
	}
	return nil
}

// decodeOutputConditions decodes an output's precondition blocks.
func decodeOutputConditions(blocks hcl.Blocks, o *Output, override bool) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, b := range blocks {
		cr, ds := decodeConditionBlock(b, override)
		diags = append(diags, ds...)
		if cr != nil {
			o.Preconditions = append(o.Preconditions, cr)
		}
	}
	return diags
}

// appendChecks adds a primary file's check blocks to m, and their scoped
// data sources to m.DataResources, reporting duplicates of either.
func (m *Module) appendChecks(f *file) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, c := range f.checks {
		diags = append(diags, addUnique(m.Checks, c.Name, c, func(prev *Check) *hcl.Diagnostic {
			return duplicate(fmt.Sprintf("Duplicate check %q configuration", c.Name), fmt.Sprintf("A check block named %q", c.Name), prev.DeclRange, c.DeclRange)
		})...)
		if r := c.DataResource; r != nil && m.Checks[c.Name] == c {
			diags = append(diags, addUnique(m.DataResources, r.Addr().String(), r, func(prev *Resource) *hcl.Diagnostic {
				return duplicate(fmt.Sprintf("Duplicate data %q configuration", r.Type), fmt.Sprintf("A %s data resource named %q", r.Type, r.Name), prev.DeclRange, r.DeclRange)
			})...)
		}
	}
	return diags
}
