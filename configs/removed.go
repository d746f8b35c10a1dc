package configs

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/plankit/plankit/addrs"
)

// Removed is a removed block: the record that a resource (every instance
// of it) or a whole module call was taken out of the configuration, and
// whether its objects are destroyed (Destroy) or only forgotten, left
// alone and dropped from the state.
type Removed struct {
	// FromModule is the module path of the target, relative to the module
	// that declares the block; FromResource the resource in it, nil when
	// the target is the module call itself (module.a.module.b).
	FromModule   addrs.Module
	FromResource *addrs.Resource

	// Destroy is lifecycle.destroy. As in Terraform it defaults to true:
	// a removed block without it destroys. DestroySet says whether the
	// block wrote it (OpenTofu forgets by default, so plankit warns).
	Destroy    bool
	DestroySet bool

	// Provisioners are its destroy-time provisioners (a resource target
	// only); Connection the connection block's body, nil when none.
	Provisioners []*Provisioner
	Connection   hcl.Body

	DeclRange hcl.Range
	FromRange hcl.Range
}

// Target returns the target's address in module mod (the module that
// declares the block): a resource when FromResource is set, a module
// otherwise.
func (r *Removed) Target(mod addrs.Module) (addrs.Module, *addrs.Resource) {
	p := make(addrs.Module, 0, len(mod)+len(r.FromModule))
	p = append(append(p, mod...), r.FromModule...)
	return p, r.FromResource
}

// FromString returns the from address as written, relative to the
// declaring module ("aws_instance.a", "module.net").
func (r *Removed) FromString() string {
	if r.FromResource == nil {
		return r.FromModule.String()
	}
	return addrs.ConfigResource{Module: r.FromModule, Resource: *r.FromResource}.String()
}

var removedBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "from", Required: true}},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "lifecycle"},
		{Type: "connection"},
		{Type: "provisioner", LabelNames: []string{"type"}},
	},
}

var removedLifecycleSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "destroy"}},
}

// decodeRemovedBlock decodes a removed block. The rules are Terraform
// 1.9's: from is a resource or module address without instance keys and
// not a data source; provisioners must be destroy-time ones and, with a
// connection block, are allowed only when the target is a resource;
// lifecycle.destroy is a literal bool, true when absent.
func decodeRemovedBlock(block *hcl.Block) (*Removed, hcl.Diagnostics) {
	r := &Removed{DeclRange: block.DefRange, Destroy: true}
	content, diags := block.Body.Content(removedBlockSchema)
	attr, ok := content.Attributes["from"]
	if !ok {
		return nil, diags
	}
	r.FromRange = attr.Expr.Range()
	trav, tdiags := hcl.AbsTraversalForExpr(attr.Expr)
	if tdiags.HasErrors() {
		return nil, append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid removed address",
			Detail:   "The from argument of a removed block must be the address of a resource or a module, like aws_instance.web or module.network, written without quotes and without instance keys.",
			Subject:  attr.Expr.Range().Ptr(),
		})
	}
	mod, res, d := parseRemoveTarget(trav)
	diags = append(diags, d...)
	if d.HasErrors() {
		return nil, diags
	}
	r.FromModule, r.FromResource = mod, res

	diags = append(diags, r.decodeBlocks(content.Blocks)...)
	if diags.HasErrors() {
		return nil, diags
	}
	return r, append(diags, r.choiceWarnings(block)...)
}

// decodeBlocks decodes the removed block's lifecycle, connection and
// provisioner blocks into r; the last two only when it names a resource.
func (r *Removed) decodeBlocks(blocks []*hcl.Block) hcl.Diagnostics {
	var diags hcl.Diagnostics
	var lifecycle, connection *hcl.Block
	for _, b := range blocks {
		switch b.Type {
		case "lifecycle":
			if lifecycle != nil {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Duplicate lifecycle block",
					Detail:  fmt.Sprintf("This removed block already has a lifecycle block at %s; keep one.", lifecycle.DefRange),
					Subject: b.DefRange.Ptr()})
				continue
			}
			lifecycle = b
			diags = append(diags, r.decodeLifecycle(b)...)
		case "connection":
			if r.FromResource == nil {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid connection block",
					Detail:  "Provisioner connection configuration is valid only when a removed block targets a managed resource, not a module.",
					Subject: b.DefRange.Ptr()})
				continue
			}
			if connection != nil {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Duplicate connection block",
					Detail:  fmt.Sprintf("This removed block already has a connection block at %s.", connection.DefRange),
					Subject: b.DefRange.Ptr()})
				continue
			}
			connection = b
			r.Connection = b.Body
		case "provisioner":
			if r.FromResource == nil {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid provisioner block",
					Detail:  "Provisioners are valid only when a removed block targets a managed resource, not a module.",
					Subject: b.DefRange.Ptr()})
				continue
			}
			p, ds := decodeProvisioner(b)
			diags = append(diags, ds...)
			if p == nil {
				continue
			}
			if p.When != ProvisionerWhenDestroy {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid provisioner block",
					Detail:  "Only destroy-time provisioners are valid in removed blocks. To declare one, add:\n    when = destroy",
					Subject: b.DefRange.Ptr()})
				continue
			}
			r.Provisioners = append(r.Provisioners, p)
		}
	}
	return diags
}

// choiceWarnings warns of a removed block that leaves lifecycle.destroy
// unsaid (Terraform and OpenTofu differ there), and of provisioners that
// will not run because the block forgets instead of destroying.
func (r *Removed) choiceWarnings(block *hcl.Block) hcl.Diagnostics {
	var diags hcl.Diagnostics
	if !r.DestroySet {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Removed block without lifecycle.destroy",
			Detail:  fmt.Sprintf("This removed block does not say whether %s should be destroyed. plankit follows Terraform and destroys it; OpenTofu would only remove it from the state. Add lifecycle { destroy = true } or lifecycle { destroy = false } to make the choice explicit.", r.FromString()),
			Subject: block.DefRange.Ptr()})
	} else if !r.Destroy && len(r.Provisioners) > 0 {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Removed block provisioners will not run",
			Detail:  fmt.Sprintf("This removed block forgets %s without destroying it (lifecycle.destroy = false), so its destroy-time provisioners will not run.", r.FromString()),
			Subject: block.DefRange.Ptr()})
	}
	return diags
}

// decodeLifecycle reads lifecycle { destroy = BOOL }: a literal, since it
// decides the plan's shape before anything is evaluated.
func (r *Removed) decodeLifecycle(b *hcl.Block) hcl.Diagnostics {
	lc, diags := b.Body.Content(removedLifecycleSchema)
	attr, ok := lc.Attributes["destroy"]
	if !ok {
		return diags
	}
	v, vd := attr.Expr.Value(nil)
	if !vd.HasErrors() {
		var err error
		v, err = convert.Convert(v, cty.Bool)
		if err == nil && (v.IsNull() || !v.IsKnown()) {
			err = fmt.Errorf("null")
		}
		if err == nil {
			r.Destroy, r.DestroySet = v.True(), true
			return diags
		}
	}
	return append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid lifecycle.destroy value",
		Detail:  "The destroy argument of a removed block's lifecycle must be the literal true or false (references and functions are not allowed here).",
		Subject: attr.Expr.Range().Ptr()})
}

// parseRemoveTarget parses a removed block's from traversal: zero or more
// module.NAME steps, then optionally TYPE.NAME. Instance keys, on modules
// or resources, and data sources are errors, with Terraform's summaries.
func parseRemoveTarget(trav hcl.Traversal) (addrs.Module, *addrs.Resource, hcl.Diagnostics) {
	bad := func(rng hcl.Range, summary, detail string) (addrs.Module, *addrs.Resource, hcl.Diagnostics) {
		return nil, nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: rng.Ptr()}}
	}
	var mod addrs.Module
	rest := trav
	for len(rest) > 0 {
		name, ok := addrs.StepName(rest[0])
		if !ok || name != "module" {
			break
		}
		if len(rest) < 2 {
			return bad(rest[0].SourceRange(), "Invalid address", "Prefix \"module.\" must be followed by a module name.")
		}
		call, ok := rest[1].(hcl.TraverseAttr)
		if !ok {
			return bad(rest[1].SourceRange(), "Invalid address", "Prefix \"module.\" must be followed by a module name.")
		}
		mod = append(mod, call.Name)
		rest = rest[2:]
		if len(rest) > 0 {
			if _, ok := rest[0].(hcl.TraverseIndex); ok {
				return bad(rest[0].SourceRange(), "Module instance keys not allowed",
					"A removed block's from must be a module (e.g. \"module.foo\"), not a module instance (e.g. \"module.foo[1]\"): it removes every instance.")
			}
		}
	}
	if len(rest) == 0 {
		if len(mod) == 0 {
			return bad(trav.SourceRange(), "Invalid address", "The from argument must name a resource or a module.")
		}
		return mod, nil, nil
	}
	if name, _ := addrs.StepName(rest[0]); name == "data" {
		return bad(trav.SourceRange(), "Data source address not allowed",
			"Data sources are never destroyed, so they are not valid targets of removed blocks. To remove the data source from the state, remove the data block from the configuration.")
	}
	if len(rest) < 2 {
		return bad(rest[0].SourceRange(), "Invalid address", "Resource specification must include a resource type and name.")
	}
	typ, ok1 := addrs.StepName(rest[0])
	name, ok2 := rest[1].(hcl.TraverseAttr)
	if !ok1 || !ok2 {
		return bad(trav.SourceRange(), "Invalid address", "Resource specification must include a resource type and name.")
	}
	if len(rest) > 2 {
		if _, ok := rest[2].(hcl.TraverseIndex); ok {
			return bad(rest[2].SourceRange(), "Resource instance keys not allowed",
				"A removed block's from must be a resource (e.g. \"test_instance.foo\"), not a resource instance (e.g. \"test_instance.foo[1]\"): it removes every instance.")
		}
		return bad(rest[2].SourceRange(), "Invalid address", "Unexpected step after the resource name.")
	}
	return mod, &addrs.Resource{Mode: addrs.ManagedResourceMode, Type: typ, Name: name.Name}, nil
}

// appendRemoved adds a primary file's removed blocks to m. Two blocks for
// one target are allowed when they agree (Terraform keeps either), an
// error when one destroys and the other forgets.
func (m *Module) appendRemoved(rs []*Removed) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, r := range rs {
		for _, prev := range m.Removed {
			if prev.FromString() == r.FromString() && prev.Destroy != r.Destroy {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Conflicting removed blocks",
					Detail:  fmt.Sprintf("The removed block for %s at %s sets lifecycle.destroy = %t, and this one sets %t. Keep one of them.", r.FromString(), prev.DeclRange, prev.Destroy, r.Destroy),
					Subject: r.DeclRange.Ptr()})
			}
		}
		m.Removed = append(m.Removed, r)
	}
	return diags
}

// overrideRemoved is the error for removed blocks in override files, which
// have nothing to override (Terraform silently ignores them).
func overrideRemoved(rs []*Removed) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, r := range rs {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Cannot override 'removed' blocks",
			Detail:  "Removed blocks can appear only in normal files, not in override files. Move this block to a primary file.",
			Subject: r.DeclRange.Ptr()})
	}
	return diags
}

// RemovedStatement is a removed block resolved to an absolute target in
// the module tree.
type RemovedStatement struct {
	Module   addrs.Module    // the target module (the module itself when Resource is nil)
	Resource *addrs.Resource // nil: every resource in Module and below
	Block    *Removed
	// Declared is the module that declares the block (destroy-time
	// provisioners are evaluated there).
	Declared *Config
}

// AsResource returns a resource block standing for the removed resource,
// carrying the removed block's destroy-time provisioners, for the checks
// that read provisioners from a resource; nil for a module target.
func (s RemovedStatement) AsResource() *Resource {
	if s.Resource == nil {
		return nil
	}
	return &Resource{Mode: s.Resource.Mode, Type: s.Resource.Type, Name: s.Resource.Name, DeclRange: s.Block.DeclRange,
		Managed: &ManagedResource{Provisioners: s.Block.Provisioners, Connection: s.Block.Connection}}
}

// Contains reports whether the statement covers resource r of module m.
func (s RemovedStatement) Contains(m addrs.Module, r addrs.Resource) bool {
	if s.Resource != nil {
		return m.Equal(s.Module) && *s.Resource == r
	}
	return s.Module.IsAncestorOf(m)
}

// RemovedStatements returns the removed blocks of the whole tree, with
// absolute targets, root module first; a block in a parent module wins
// over one in a child for the same target, as in Terraform. A target that
// the configuration still declares (a resource block or a module call) is
// an error naming the declaration. O(modules + removed blocks).
func (c *Config) RemovedStatements() ([]RemovedStatement, hcl.Diagnostics) {
	var out []RemovedStatement
	var diags hcl.Diagnostics
	seen := map[string]bool{}
	c.DeepEach(func(n *Config) {
		for _, r := range n.Module.Removed {
			mod, res := r.Target(n.Path)
			key := mod.String()
			if res != nil {
				key = addrs.ConfigResource{Module: mod, Resource: *res}.String()
			}
			if seen[key] {
				continue
			}
			seen[key] = true
			if d := c.removedStillDeclared(r, mod, res, key); d != nil {
				diags = append(diags, d)
				continue
			}
			out = append(out, RemovedStatement{Module: mod, Resource: res, Block: r, Declared: n})
		}
	})
	return out, diags
}

// removedStillDeclared is the error for a removed block whose target is
// still in the configuration, nil otherwise.
func (c *Config) removedStillDeclared(r *Removed, mod addrs.Module, res *addrs.Resource, key string) *hcl.Diagnostic {
	target := c.Descendant(mod)
	if target == nil {
		return nil
	}
	if res == nil {
		return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Removed module still exists",
			Detail:  fmt.Sprintf("This removed block declares that %s was removed, but it is still declared in the configuration at %s. Remove the module block, or this removed block.", key, rangeLine(target.CallRange)),
			Subject: r.DeclRange.Ptr()}
	}
	if rb := target.Module.ResourceByAddr(*res); rb != nil {
		return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Removed resource still exists",
			Detail:  fmt.Sprintf("This removed block declares that %s was removed, but it is still declared in the configuration at %s. Remove the resource block, or this removed block.", key, rangeLine(rb.DeclRange)),
			Subject: r.DeclRange.Ptr()}
	}
	return nil
}

// rangeLine is "file:line" of r's start.
func rangeLine(r hcl.Range) string { return fmt.Sprintf("%s:%d", r.Filename, r.Start.Line) }
