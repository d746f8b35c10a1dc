package configs

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/plankit/plankit/addrs"
)

// Resource is a resource, data or ephemeral block.
type Resource struct {
	Mode              addrs.ResourceMode
	Name, Type        string
	Config            hcl.Body           // remaining body after meta-arguments, lifecycle, provisioner, connection blocks
	Count, ForEach    hcl.Expression     // nil when absent
	ProviderConfigRef *ProviderConfigRef // nil when no provider argument
	Provider          addrs.Provider     // resolved source address of its provider
	DependsOn         []hcl.Traversal
	Managed           *ManagedResource // nil for data resources
	DeclRange         hcl.Range
	TypeRange         hcl.Range
	// Preconditions and Postconditions are the lifecycle's custom
	// conditions (configs/checks.go), in declaration order.
	Preconditions, Postconditions []*CheckRule
	// Check is the name of the check block a scoped data source is
	// nested in; "" for every other resource.
	Check string

	set map[string]bool // meta-arguments the block wrote, for override merging
	// decodedBody is the body decodeResourceCommon left in Config
	// (ConfigAttributes trusts Config only while it is still this one).
	decodedBody hcl.Body
}

// Addr returns the resource's address within its module.
func (r *Resource) Addr() addrs.Resource {
	return addrs.Resource{Mode: r.Mode, Type: r.Type, Name: r.Name}
}

// ProviderConfigAddr returns the provider configuration the resource uses:
// its provider argument, else the configuration named by its type's prefix
// ("aws" for "aws_instance").
func (r *Resource) ProviderConfigAddr() addrs.LocalProviderConfig {
	if r.ProviderConfigRef != nil {
		return r.ProviderConfigRef.Addr()
	}
	return addrs.LocalProviderConfig{LocalName: r.Addr().ImpliedProvider()}
}

// ManagedResource holds what only managed resources have.
type ManagedResource struct {
	CreateBeforeDestroy    bool
	CreateBeforeDestroySet bool
	PreventDestroy         bool
	IgnoreChanges          []hcl.Traversal // relative traversals (attribute paths)
	IgnoreAllChanges       bool
	ReplaceTriggeredBy     []hcl.Expression
	Provisioners           []*Provisioner
	// Connection is the resource-level connection block's body, nil if
	// none; only remote provisioners use it, which plankit does not run.
	Connection hcl.Body

	set map[string]bool // lifecycle arguments the block wrote
}

// ProvisionerWhen says when a provisioner runs.
type ProvisionerWhen int

const (
	ProvisionerWhenCreate ProvisionerWhen = iota
	ProvisionerWhenDestroy
)

// ProvisionerOnFailure says what a failing provisioner does to the apply.
type ProvisionerOnFailure int

const (
	ProvisionerOnFailureFail ProvisionerOnFailure = iota
	ProvisionerOnFailureContinue
)

// Provisioner is a provisioner block. Only "local-exec" is supported.
type Provisioner struct {
	Type      string
	Config    hcl.Body // the provisioner's own arguments (command, interpreter, environment, working_dir, quiet)
	When      ProvisionerWhen
	OnFailure ProvisionerOnFailure
	DeclRange hcl.Range
}

// resourceBlockSchema is the meta-argument schema of resource and data
// blocks alike: a data block is decoded with the same schema so that its
// connection and provisioner blocks get a specific error, not "unsupported
// block type".
var resourceBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "count"}, {Name: "for_each"}, {Name: "provider"}, {Name: "depends_on"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "lifecycle"},
		{Type: "connection"},
		{Type: "provisioner", LabelNames: []string{"type"}},
		{Type: "locals"}, // reserved
		{Type: "_"},      // meta-argument escaping block, not supported
	},
}

var lifecycleSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "create_before_destroy"}, {Name: "prevent_destroy"},
		{Name: "ignore_changes"}, {Name: "replace_triggered_by"},
	},
	Blocks: []hcl.BlockHeaderSchema{{Type: "precondition"}, {Type: "postcondition"}},
}

var dataLifecycleSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{{Type: "precondition"}, {Type: "postcondition"}},
}

func decodeResourceBlock(block *hcl.Block, override bool) (*Resource, hcl.Diagnostics) {
	r, content, diags := decodeResourceCommon(block, addrs.ManagedResourceMode)
	r.Managed = &ManagedResource{}
	for _, b := range content.Blocks {
		switch b.Type {
		case "lifecycle":
			conds, ds := decodeLifecycle(b, r.Managed)
			diags = append(diags, ds...)
			diags = append(diags, decodeResourceConditions(conds, r, override)...)
		case "connection":
			if r.Managed.Connection != nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Duplicate connection block",
					Detail:   "A resource may have only one connection block.",
					Subject:  b.DefRange.Ptr(),
				})
			}
			r.Managed.Connection = b.Body
		case "provisioner":
			p, ds := decodeProvisioner(b)
			diags = append(diags, ds...)
			if p != nil {
				r.Managed.Provisioners = append(r.Managed.Provisioners, p)
			}
		}
	}
	diags = append(diags, reservedBlocks(content, "resource", "locals", "_")...)
	return r, diags
}

func decodeDataBlock(block *hcl.Block, override bool) (*Resource, hcl.Diagnostics) {
	r, content, diags := decodeResourceCommon(block, addrs.DataResourceMode)
	for _, b := range content.Blocks {
		switch b.Type {
		case "lifecycle":
			lc, ds := b.Body.Content(dataLifecycleSchema)
			diags = append(diags, ds...)
			diags = append(diags, decodeResourceConditions(lc.Blocks, r, override)...)
		case "connection", "provisioner":
			diags = append(diags, managedOnlyBlock(b))
		}
	}
	diags = append(diags, reservedBlocks(content, "data", "locals", "_")...)
	return r, diags
}

// decodeEphemeralBlock decodes an ephemeral block: the meta-arguments of
// a data block (count, for_each, provider, depends_on, lifecycle
// conditions) and nothing of a managed resource's lifecycle.
func decodeEphemeralBlock(block *hcl.Block, override bool) (*Resource, hcl.Diagnostics) {
	r, content, diags := decodeResourceCommon(block, addrs.EphemeralResourceMode)
	for _, b := range content.Blocks {
		switch b.Type {
		case "lifecycle":
			lc, ds := b.Body.Content(dataLifecycleSchema)
			diags = append(diags, ds...)
			diags = append(diags, decodeResourceConditions(lc.Blocks, r, override)...)
		case "connection", "provisioner":
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid " + b.Type + " block",
				Detail:   fmt.Sprintf("Ephemeral resources do not have %s blocks; only managed resources (resource blocks) do.", b.Type),
				Subject:  b.DefRange.Ptr(),
			})
		}
	}
	diags = append(diags, reservedBlocks(content, "ephemeral", "locals", "_")...)
	return r, diags
}

// managedOnlyBlock is the error for a connection or provisioner block b
// in a data block (top-level or nested in a check).
func managedOnlyBlock(b *hcl.Block) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Invalid " + b.Type + " block",
		Detail:   fmt.Sprintf("Data resources do not have %s blocks; only managed resources (resource blocks) do.", b.Type),
		Subject:  b.DefRange.Ptr(),
	}
}

// decodeResourceCommon decodes labels and the meta-arguments resource and
// data blocks share, returning the blocks for the caller.
func decodeResourceCommon(block *hcl.Block, mode addrs.ResourceMode) (*Resource, *hcl.BodyContent, hcl.Diagnostics) {
	r := &Resource{
		Mode: mode, Type: block.Labels[0], Name: block.Labels[1],
		DeclRange: block.DefRange, TypeRange: labelRange(block, 0),
	}
	kind := "resource"
	switch mode {
	case addrs.DataResourceMode:
		kind = "data source"
	case addrs.EphemeralResourceMode:
		kind = "ephemeral resource"
	}
	diags := checkName(r.Type, kind+" type", r.TypeRange)
	diags = append(diags, checkName(r.Name, kind+" name", labelRange(block, 1))...)
	content, remain, ds := resourceMetaContent(block.Body)
	diags = append(diags, ds...)
	r.Config = remain
	if _, native := block.Body.(*hclsyntax.Body); native {
		r.decodedBody = remain
	}
	for name := range content.Attributes {
		if r.set == nil {
			r.set = map[string]bool{}
		}
		r.set[name] = true
	}
	countAttr, forEachAttr := content.Attributes["count"], content.Attributes["for_each"]
	if countAttr != nil {
		r.Count = countAttr.Expr
	}
	if forEachAttr != nil {
		r.ForEach = forEachAttr.Expr
	}
	diags = append(diags, countForEachConflict(countAttr, forEachAttr, kind)...)
	if attr, ok := content.Attributes["provider"]; ok {
		ref, ds := decodeProviderInstanceRef(attr.Expr, "provider argument")
		diags = append(diags, ds...)
		r.ProviderConfigRef = ref
	}
	if attr, ok := content.Attributes["depends_on"]; ok {
		deps, ds := decodeDependsOn(attr)
		diags = append(diags, ds...)
		r.DependsOn = deps
	}
	return r, content, diags
}

// decodeLifecycle decodes a managed resource's lifecycle arguments into m
// and returns its precondition and postcondition blocks.
func decodeLifecycle(block *hcl.Block, m *ManagedResource) (hcl.Blocks, hcl.Diagnostics) {
	content, diags := block.Body.Content(lifecycleSchema)
	for name := range content.Attributes {
		if m.set == nil {
			m.set = map[string]bool{}
		}
		m.set[name] = true
	}
	if attr, ok := content.Attributes["create_before_destroy"]; ok {
		b, ds := constBool(attr.Expr, "create_before_destroy value")
		diags = append(diags, ds...)
		m.CreateBeforeDestroy, m.CreateBeforeDestroySet = b, !ds.HasErrors()
	}
	if attr, ok := content.Attributes["prevent_destroy"]; ok {
		b, ds := constBool(attr.Expr, "prevent_destroy value")
		diags = append(diags, ds...)
		m.PreventDestroy = b
	}
	if attr, ok := content.Attributes["ignore_changes"]; ok {
		diags = append(diags, decodeIgnoreChanges(attr, m)...)
	}
	if attr, ok := content.Attributes["replace_triggered_by"]; ok {
		exprs, ds := decodeReplaceTriggeredBy(attr)
		diags = append(diags, ds...)
		m.ReplaceTriggeredBy = exprs
	}
	return content.Blocks, diags
}

// decodeIgnoreChanges reads ignore_changes: the keyword all, or a list of
// attribute paths relative to the resource (tags, tags["Name"]).
func decodeIgnoreChanges(attr *hcl.Attribute, m *ManagedResource) hcl.Diagnostics {
	if hcl.ExprAsKeyword(attr.Expr) == "all" {
		m.IgnoreAllChanges = true
		return nil
	}
	exprs, diags := hcl.ExprList(attr.Expr)
	if diags.HasErrors() {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid ignore_changes",
			Detail:   "ignore_changes must be the keyword all or a list of attribute names, like [tags, ami].",
			Subject:  attr.Expr.Range().Ptr(),
		}}
	}
	m.IgnoreChanges = nil
	for _, expr := range exprs {
		expr, ds := unquoteTraversal(expr, false)
		diags = append(diags, ds...)
		if kw := hcl.ExprAsKeyword(expr); kw == "all" {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid ignore_changes wildcard",
				Detail:   "To ignore all changes write ignore_changes = all, not a list containing all.",
				Subject:  expr.Range().Ptr(),
			})
			continue
		}
		trav, ds := hcl.RelTraversalForExpr(expr)
		if ds.HasErrors() || len(trav) == 0 {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid ignore_changes element",
				Detail:   `Each ignore_changes element must be an attribute of the resource written as an unquoted path, like tags or tags["Name"].`,
				Subject:  expr.Range().Ptr(),
			})
			continue
		}
		m.IgnoreChanges = append(m.IgnoreChanges, trav)
	}
	return diags
}

// decodeReplaceTriggeredBy reads the replace_triggered_by list: each element
// must refer to a managed resource (or one of its instances or attributes).
func decodeReplaceTriggeredBy(attr *hcl.Attribute) ([]hcl.Expression, hcl.Diagnostics) {
	exprs, diags := hcl.ExprList(attr.Expr)
	if diags.HasErrors() {
		return nil, diags
	}
	var out []hcl.Expression
	for _, expr := range exprs {
		ok := false
		for _, trav := range expr.Variables() {
			ref, ds := addrs.ParseRef(trav)
			if ds.HasErrors() {
				diags = append(diags, ds...)
				continue
			}
			if r, isRes := addrs.ReferencedResource(ref.Subject); isRes && r.Mode == addrs.ManagedResourceMode {
				ok = true
			}
		}
		if !ok {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid replace_triggered_by expression",
				Detail:   "Each replace_triggered_by element must refer to a managed resource, one of its instances or attributes, like aws_instance.a or aws_instance.a[count.index].id.",
				Subject:  expr.Range().Ptr(),
			})
			continue
		}
		out = append(out, expr)
	}
	return out, diags
}

var provisionerBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "when"}, {Name: "on_failure"}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "connection"}, {Type: "_"}},
}

func decodeProvisioner(block *hcl.Block) (*Provisioner, hcl.Diagnostics) {
	p := &Provisioner{Type: block.Labels[0], DeclRange: block.DefRange}
	if p.Type != "local-exec" {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Unsupported provisioner type",
			Detail:   fmt.Sprintf("plankit supports only the \"local-exec\" provisioner, not %q.", p.Type),
			Subject:  labelRange(block, 0).Ptr(),
		}}
	}
	content, config, diags := block.Body.PartialContent(provisionerBlockSchema)
	p.Config = config
	if attr, ok := content.Attributes["when"]; ok {
		expr, ds := unquoteTraversal(attr.Expr, true)
		diags = append(diags, ds...)
		switch hcl.ExprAsKeyword(expr) {
		case "create":
			p.When = ProvisionerWhenCreate
		case "destroy":
			p.When = ProvisionerWhenDestroy
		default:
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid \"when\" keyword",
				Detail:   "The \"when\" argument takes the unquoted keyword create or destroy.",
				Subject:  attr.Expr.Range().Ptr(),
			})
		}
	}
	if attr, ok := content.Attributes["on_failure"]; ok {
		expr, ds := unquoteTraversal(attr.Expr, true)
		diags = append(diags, ds...)
		switch hcl.ExprAsKeyword(expr) {
		case "fail":
			p.OnFailure = ProvisionerOnFailureFail
		case "continue":
			p.OnFailure = ProvisionerOnFailureContinue
		default:
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid \"on_failure\" keyword",
				Detail:   "The \"on_failure\" argument takes the unquoted keyword continue or fail.",
				Subject:  attr.Expr.Range().Ptr(),
			})
		}
	}
	diags = append(diags, reservedBlocks(content, "provisioner", "_")...)
	return p, diags
}
