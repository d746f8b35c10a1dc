package configs

import (
	"fmt"
	"path"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/addrs"
)

// ModuleCall is a module block.
type ModuleCall struct {
	Name, SourceAddr string
	SourceAddrRange  hcl.Range
	// Version is a registry module's version constraint ("" when none).
	Version        string
	VersionRange   hcl.Range
	Config         hcl.Body       // remaining body: the module's input variables as attributes
	Count, ForEach hcl.Expression // nil when absent
	Providers      []PassedProviderConfig
	DependsOn      []hcl.Traversal
	DeclRange      hcl.Range

	set map[string]bool // meta-arguments the block wrote, for override merging
}

// PassedProviderConfig is one entry of a module block's providers map: the
// child's name for a configuration and the parent's configuration it gets.
type PassedProviderConfig struct {
	InChild, InParent addrs.LocalProviderConfig
	// InParentKey selects an instance of InParent when it has for_each
	// (OpenTofu: providers = { aws = aws.by_region[each.key] }); evaluated
	// in the calling module, per instance of the call. nil otherwise.
	InParentKey hcl.Expression
	DeclRange   hcl.Range
}

var moduleBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "source"}, {Name: "version"}, {Name: "count"}, {Name: "for_each"},
		{Name: "depends_on"}, {Name: "providers"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "_"}, {Type: "lifecycle"}, {Type: "locals"}, {Type: "provider", LabelNames: []string{"type"}},
	},
}

func decodeModuleBlock(block *hcl.Block, override bool) (*ModuleCall, hcl.Diagnostics) {
	mc := &ModuleCall{Name: block.Labels[0], DeclRange: block.DefRange, set: map[string]bool{}}
	diags := checkName(mc.Name, "module name", labelRange(block, 0))
	content, remain, ds := block.Body.PartialContent(moduleBlockSchema)
	diags = append(diags, ds...)
	mc.Config = remain
	for name := range content.Attributes {
		mc.set[name] = true
	}
	if attr, ok := content.Attributes["source"]; ok {
		mc.SourceAddrRange = attr.Expr.Range()
		src, ds := constString(attr.Expr, "module source")
		diags = append(diags, ds...)
		if !ds.HasErrors() {
			mc.SourceAddr = src
		}
	} else if !override {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Missing required argument",
			Detail:   `The argument "source" is required: a module block must say where the module is, like source = "./modules/net".`,
			Subject:  block.DefRange.Ptr(),
		})
	}
	if attr, ok := content.Attributes["version"]; ok && isLocalSource(mc.SourceAddr) {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid version argument for a local module",
			Detail:   "The version argument applies only to registry modules; a local module path has no version. Remove it.",
			Subject:  attr.NameRange.Ptr(),
		})
	} else if ok {
		mc.VersionRange = attr.Expr.Range()
		v, ds := constString(attr.Expr, "module version")
		diags = append(diags, ds...)
		mc.Version = v
	}
	countAttr, forEachAttr := content.Attributes["count"], content.Attributes["for_each"]
	if countAttr != nil {
		mc.Count = countAttr.Expr
	}
	if forEachAttr != nil {
		mc.ForEach = forEachAttr.Expr
	}
	diags = append(diags, countForEachConflict(countAttr, forEachAttr, "module")...)
	if attr, ok := content.Attributes["depends_on"]; ok {
		deps, ds := decodeDependsOn(attr)
		diags = append(diags, ds...)
		mc.DependsOn = deps
	}
	if attr, ok := content.Attributes["providers"]; ok {
		pcs, ds := decodePassedProviders(attr)
		diags = append(diags, ds...)
		mc.Providers = pcs
	}
	diags = append(diags, reservedBlocks(content, "module", "_", "lifecycle", "locals", "provider")...)
	return mc, diags
}

func isLocalSource(src string) bool {
	return strings.HasPrefix(src, "./") || strings.HasPrefix(src, "../") || src == "." || src == ".."
}

// childDir returns the slash-separated directory of a local module source
// relative to the root, given its caller's directory.
func childDir(parentDir, src string) string {
	return path.Clean(path.Join(parentDir, src))
}

func decodePassedProviders(attr *hcl.Attribute) ([]PassedProviderConfig, hcl.Diagnostics) {
	pairs, diags := hcl.ExprMap(attr.Expr)
	if diags.HasErrors() {
		return nil, diags
	}
	var out []PassedProviderConfig
	seen := map[string]hcl.Range{}
	for _, kv := range pairs {
		child, ds1 := decodeProviderRef(kv.Key, "providers map key")
		parent, ds2 := decodeProviderInstanceRef(kv.Value, "providers map value")
		diags = append(diags, ds1...)
		diags = append(diags, ds2...)
		if ds1.HasErrors() || ds2.HasErrors() {
			continue
		}
		rng := hcl.RangeBetween(kv.Key.Range(), kv.Value.Range())
		key := child.Addr().String()
		if prev, dup := seen[key]; dup {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Duplicate provider address",
				Detail:   fmt.Sprintf("The provider configuration %s was already passed at %s; each child configuration may be given only once.", key, prev),
				Subject:  kv.Key.Range().Ptr(),
			})
			continue
		}
		seen[key] = rng
		out = append(out, PassedProviderConfig{InChild: child.Addr(), InParent: parent.Addr(), InParentKey: parent.KeyExpr, DeclRange: rng})
	}
	return out, diags
}
