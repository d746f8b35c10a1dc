package terraform

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/configs/genconfig"
	"github.com/plankit/plankit/internal/lang"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/tfdiags"
)

// Import blocks (Terraform 1.5+). A normal-mode plan resolves the import
// blocks that target a resource when that resource's node expands (their
// for_each, to key and id are evaluated in the root module, after what
// they refer to: references() adds those edges), and each configured
// instance that is an import target and has no object in the state is
// imported (ImportResourceState, then ReadResource) instead of refreshed,
// then planned like any other instance. The change records Importing (and
// GeneratedConfig for a target planned from generated configuration); the
// imported object is in the plan's PriorState, so applying the plan
// writes it to the state.

// importTarget is one resolved import: an instance, the ID to import and
// the block that asked for it.
type importTarget struct {
	addr  addrs.AbsResourceInstance
	id    string
	block *configs.Import
	// generate: the target has no resource block; its configuration is
	// generated from the imported object (-generate-config-out).
	generate bool
	// provider is the target's provider (source address), for the
	// duplicate-object check.
	provider string
}

// importSet holds a plan's import blocks by target resource and the
// targets resolved so far, by instance address. Safe for concurrent use.
type importSet struct {
	byResource map[string][]*configs.Import // ConfigResource.String()
	// generated are the resources whose block was generated.
	generated map[string]bool

	mu      sync.Mutex
	targets map[string]*importTarget
	// texts are the generated resource blocks by instance address.
	texts map[string]string

	// managedOnce builds managedIDs, the "id" attribute of every managed
	// object of the prior state, by "provider|type|id", for the check
	// that an imported object is not already managed elsewhere.
	managedOnce sync.Once
	managedIDs  map[string]addrs.AbsResourceInstance
}

// prepareImports checks the import blocks of config statically and, when
// generate is set, adds a resource block for every import target that has
// none (to a copy of the root module: config itself is not changed). The
// returned set is nil when there are no imports or the plan's mode ignores
// them (destroy and refresh-only plans, as in Terraform).
func prepareImports(config *configs.Config, mode plans.Mode, generate bool) (*configs.Config, *importSet, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	config.DeepEach(func(c *configs.Config) {
		if c.Path.IsRoot() {
			return
		}
		for _, imp := range c.Module.Import {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid import configuration",
				Detail:  fmt.Sprintf("An import block was found in %s. Import blocks are only allowed in the root module; move it there and address the target with the module's path (%s.TYPE.NAME).", c.Path, c.Path),
				Subject: imp.DeclRange.Ptr()})
		}
	})
	imports := config.Module.Import
	if len(imports) == 0 || mode != plans.NormalMode {
		return config, nil, diags
	}
	set := &importSet{byResource: map[string][]*configs.Import{}, generated: map[string]bool{}, targets: map[string]*importTarget{}, texts: map[string]string{}}
	var missing []*configs.Import
	for _, imp := range imports {
		key := imp.ToResource.String()
		set.byResource[key] = append(set.byResource[key], imp)
		if d := importSelfReference(imp); d != nil {
			diags = append(diags, d)
			continue
		}
		mc := config.Descendant(imp.ToResource.Module)
		var block *configs.Resource
		if mc != nil {
			block = mc.Module.ResourceByAddr(imp.ToResource.Resource)
		}
		switch {
		case block == nil && mc != nil && imp.ToResource.Module.IsRoot() && generate:
			if imp.ForEach != nil || imp.Keyed() {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Configuration generation not supported for this import",
					Detail:  fmt.Sprintf("Configuration can be generated only for a single resource instance without an instance key; %s has no resource block and this import uses for_each or an instance key. Write the resource block for %s yourself.", imp.ToResource, imp.ToResource),
					Subject: imp.DeclRange.Ptr()})
				continue
			}
			if !set.generated[key] {
				missing = append(missing, imp)
			}
			set.generated[key] = true
		case block == nil:
			detail := fmt.Sprintf("The configuration for the import target %s does not exist. All import targets must have a resource block in the configuration", imp.ToResource)
			if imp.ToResource.Module.IsRoot() {
				detail += "; write one, or run plan with -generate-config-out=FILE to have one generated."
			} else {
				detail += "; configuration can be generated only for resources of the root module."
			}
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Configuration for import target does not exist",
				Detail: detail, Subject: imp.DeclRange.Ptr()})
		case imp.ProviderConfigRef != nil && block.ProviderConfigAddr() != imp.ProviderConfigAddr():
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid import provider argument",
				Detail:  fmt.Sprintf("The import block's provider (%s) must be the one the resource block at %s uses (%s).", imp.ProviderConfigAddr(), block.DeclRange, block.ProviderConfigAddr()),
				Subject: imp.ProviderConfigRef.NameRange.Ptr()})
		}
	}
	if len(missing) == 0 || diags.HasErrors() {
		return config, set, diags
	}
	root := *config
	mod := *config.Module
	mod.ManagedResources = maps.Clone(mod.ManagedResources)
	for _, imp := range missing {
		r := &configs.Resource{Mode: addrs.ManagedResourceMode, Type: imp.ToResource.Resource.Type, Name: imp.ToResource.Resource.Name,
			Config: hcl.EmptyBody(), ProviderConfigRef: imp.ProviderConfigRef, Managed: &configs.ManagedResource{},
			DeclRange: imp.DeclRange, TypeRange: imp.DeclRange}
		r.Provider = mod.ProviderForLocalConfig(r.ProviderConfigAddr())
		mod.ManagedResources[imp.ToResource.Resource.String()] = r
	}
	root.Module = &mod
	root.Root = &root
	return &root, set, diags
}

// importSelfReference returns the error for an import whose id or for_each
// refers to the resource it imports into (which cannot be known before it
// is imported), nil otherwise. Imports are in the root module, so only a
// root target can be referred to.
func importSelfReference(imp *configs.Import) *hcl.Diagnostic {
	if !imp.ToResource.Module.IsRoot() {
		return nil
	}
	for _, e := range []hcl.Expression{imp.ID, imp.ForEach} {
		if e == nil {
			continue
		}
		refs, _ := lang.ReferencesInExpr(e)
		for _, r := range refs {
			if res, ok := addrs.ReferencedResource(r.Subject); ok && res == imp.ToResource.Resource {
				return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid import id argument",
					Detail:  fmt.Sprintf("The import ID cannot reference the resource being imported (%s): its values are not known before it is imported.", res),
					Subject: r.SourceRange.Ptr()}
			}
		}
	}
	return nil
}

// importReferenceKeys are the references of the import blocks targeting
// n's resource (their for_each, id and to expressions, all evaluated in
// the root module), so that the node runs after what they refer to.
func importReferenceKeys(n *nodeResource) []refKey {
	if n.cfg == nil || n.addr.Resource.Mode != addrs.ManagedResourceMode {
		return nil
	}
	root := n.cfg.Root
	if root == nil {
		root = n.cfg
	}
	var keys []refKey
	for _, imp := range root.Module.ImportsFor(n.addr) {
		keys = append(keys, exprKeys(addrs.RootModule, append(imp.KeyExprs(), imp.ForEach, imp.ID)...)...)
	}
	return keys
}

// resolveImports evaluates the import blocks that target n (once its
// instances are expanded) and records their targets. Errors: a target
// instance the configuration does not expand to, an unknown or invalid
// id, two imports of one instance.
func (pw *planWalk) resolveImports(ws *walkState, n *nodeResource) hcl.Diagnostics {
	set := pw.imports
	if set == nil || n.addr.Resource.Mode != addrs.ManagedResourceMode {
		return nil
	}
	blocks := set.byResource[n.addr.String()]
	if len(blocks) == 0 {
		return nil
	}
	roots := ws.exp.moduleInstances(addrs.RootModule)
	if len(roots) != 1 {
		return nil
	}
	root := roots[0]
	var diags hcl.Diagnostics
	mine := map[string]*importTarget{}
	var order []string
	for _, imp := range blocks {
		reps := []*repetition{nil}
		if imp.ForEach != nil {
			var d hcl.Diagnostics
			reps, d = importForEach(ws, root, imp.ForEach)
			diags = append(diags, d...)
			if d.HasErrors() {
				continue
			}
		}
		for _, rep := range reps {
			t, d := resolveImport(ws, root, imp, rep)
			diags = append(diags, d...)
			if t == nil {
				continue
			}
			t.generate = set.generated[n.addr.String()]
			t.provider = n.provider.Provider.String()
			k := t.addr.String()
			if prev := mine[k]; prev != nil {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Duplicate import configuration",
					Detail:  fmt.Sprintf("%s is already imported by the import block at %s. An instance can be the target of only one import; remove one of them.", k, prev.block.DeclRange),
					Subject: imp.DeclRange.Ptr()})
				continue
			}
			if !ws.values.hasInstance(t.addr) {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Configuration for import target does not exist",
					Detail:  fmt.Sprintf("The configuration does not have the import target %s: the count or for_each of the resource block (or of its module) does not include that instance. Every import target must be an instance of the configuration.", k),
					Subject: imp.DeclRange.Ptr()})
				continue
			}
			mine[k] = t
			order = append(order, k)
		}
	}
	set.mu.Lock()
	for _, k := range order {
		set.targets[k] = mine[k]
	}
	set.mu.Unlock()
	return diags
}

// resolveImport evaluates one import (one for_each element when rep is
// set): its target address and its ID.
func resolveImport(ws *walkState, root moduleInst, imp *configs.Import, rep *repetition) (*importTarget, hcl.Diagnostics) {
	scope := ws.scope(root, ws.config, rep, nil)
	defer ws.putScope(scope)
	addr, diags := imp.Target(func(e hcl.Expression) (cty.Value, hcl.Diagnostics) {
		v, d := scope.EvalExpr(e, cty.DynamicPseudoType)
		if !d.HasErrors() && !v.IsWhollyKnown() {
			d = append(d, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid import address",
				Detail: "An instance key of the import target depends on values that cannot be determined until apply.", Subject: e.Range().Ptr()})
		}
		return v, d
	})
	if diags.HasErrors() {
		return nil, diags
	}
	v, diags := scope.EvalExpr(imp.ID, cty.DynamicPseudoType)
	if diags.HasErrors() {
		return nil, diags
	}
	bad := func(why string) (*importTarget, hcl.Diagnostics) {
		return nil, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid import id argument",
			Detail: "The import ID for " + addr.String() + " " + why, Subject: imp.ID.Range().Ptr()})
	}
	if !v.IsWhollyKnown() {
		return bad("depends on values that cannot be determined until apply, so plankit cannot plan to import this resource. Use values known at plan time (variables, locals, attributes of existing resources).")
	}
	v, _ = v.UnmarkDeep()
	if v.IsNull() {
		return bad("is null; it must be a non-empty string.")
	}
	sv, err := convert.Convert(v, cty.String)
	if err != nil {
		return bad(fmt.Sprintf("must be a string, not %s.", v.Type().FriendlyName()))
	}
	if sv.AsString() == "" {
		return bad("is empty; it must be a non-empty string.")
	}
	return &importTarget{addr: addr, id: sv.AsString(), block: imp}, diags
}

// hasInstance reports whether addr is one of the instances its resource
// expanded to. O(1) for count, O(log instances) for for_each keys.
func (s *valueStore) hasInstance(addr addrs.AbsResourceInstance) bool {
	s.mu.RLock()
	rv := s.m[addr.ContainingResource().String()]
	s.mu.RUnlock()
	if rv == nil {
		return false
	}
	if rv.mode == expCount {
		i, ok := addr.Resource.Key.(addrs.IntKey)
		return ok && int(i) >= 0 && int(i) < len(rv.byIdx)
	}
	_, found := slices.BinarySearchFunc(rv.keys, addr.Resource.Key, addrs.CompareInstanceKeys) // for_each keys are sorted
	return found
}

// target returns the import of addr when it is to happen: addr is an
// import target and has no object in the state (an address already in
// the state was imported before; its import block is a no-op).
func (pw *planWalk) importTarget(addr addrs.AbsResourceInstance, cur *states.ResourceInstanceObjectSrc) *importTarget {
	if pw.imports == nil || cur != nil {
		return nil
	}
	pw.imports.mu.Lock()
	defer pw.imports.mu.Unlock()
	return pw.imports.targets[addr.String()]
}

// importObject imports t's object and reads it: the result is the
// instance's prior object, written to the working state (the plan's
// PriorState), with the src the planning step needs.
func (pi *planInstance) importObject(t *importTarget) (*states.ResourceInstanceObjectSrc, cty.Value, hcl.Diagnostics) {
	n := pi.n
	null := cty.NullVal(n.ty)
	blockDiags := func(diags hcl.Diagnostics) hcl.Diagnostics {
		out := make(hcl.Diagnostics, len(diags))
		for i, d := range diags {
			c := *d
			if c.Subject == nil {
				c.Subject = t.block.DeclRange.Ptr()
			}
			if c.Severity == hcl.DiagError {
				c.Detail = fmt.Sprintf("%s\n\n(importing %s with ID %q)", c.Detail, t.addr, t.id)
			}
			out[i] = &c
		}
		return out
	}
	pi.ws.hook(func(h Hook) (HookAction, error) {
		if ih, ok := h.(ImportHook); ok {
			return ih.PrePlanImport(t.addr, t.id)
		}
		return HookActionContinue, nil
	})
	resp := pi.p.ImportResourceState(providers.ImportResourceStateRequest{TypeName: n.typ, ID: t.id})
	diags := blockDiags(resp.Diagnostics)
	if diags.HasErrors() {
		return nil, null, diags
	}
	if len(resp.ImportedResources) != 1 {
		return nil, null, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid import result",
			Detail:  fmt.Sprintf("The provider returned %d objects for the ID %q of %s; an import block can import exactly one object.", len(resp.ImportedResources), t.id, t.addr),
			Subject: t.block.DeclRange.Ptr()})
	}
	imported := resp.ImportedResources[0]
	if imported.State == cty.NilVal || imported.State.IsNull() || len(imported.State.Type().TestConformance(n.ty)) > 0 {
		return nil, null, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Provider produced invalid object",
			Detail:  fmt.Sprintf("Provider %s returned a null or wrongly typed object when importing %s. This is a bug in the provider.", n.provider.Provider.ForDisplay(), t.addr),
			Subject: t.block.DeclRange.Ptr()})
	}
	pi.ws.hook(func(h Hook) (HookAction, error) { return h.PreRefresh(t.addr, addrs.NotDeposed, imported.State) })
	read := pi.p.ReadResource(providers.ReadResourceRequest{TypeName: n.typ, PriorState: imported.State, Private: imported.Private})
	if !read.Diagnostics.HasErrors() {
		pi.ws.hook(func(h Hook) (HookAction, error) {
			return h.PostRefresh(t.addr, addrs.NotDeposed, imported.State, read.NewState)
		})
	}
	diags = append(diags, blockDiags(read.Diagnostics)...)
	if diags.HasErrors() {
		return nil, null, diags
	}
	nv := read.NewState
	if nv == cty.NilVal || nv.IsNull() {
		return nil, null, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Cannot import non-existent remote object",
			Detail:  fmt.Sprintf("While importing an existing object to %s, the provider found no object with the ID %q. Only existing objects can be imported: check the ID, and that the provider is configured for the region or endpoint where the object is; or remove the import block to have plankit create the object.", t.addr, t.id),
			Subject: t.block.DeclRange.Ptr()})
	}
	if errs := nv.Type().TestConformance(n.ty); len(errs) > 0 {
		return nil, null, append(diags, tfdiags.Errorf("Provider produced invalid object",
			"Provider %s returned a value of the wrong type for %s after import: %s. This is a bug in the provider.", n.provider.Provider.ForDisplay(), t.addr, errs[0]))
	}
	if d := pi.pw.imports.alreadyManaged(pi.ws.prevState, n, t, nv); d != nil {
		return nil, null, append(diags, d)
	}
	marked := pi.markSchema(nv)
	obj := &states.ResourceInstanceObject{Value: marked, Private: read.Private, Status: states.ObjectReady}
	src, err := obj.Encode(n.ty, uint64(n.schema.Version))
	if err != nil {
		return nil, null, append(diags, tfdiags.FromError(fmt.Sprintf("Failed to encode %s for the state", t.addr), err)...)
	}
	if t.generate {
		diags = append(diags, pi.generateConfig(t, nv)...)
		if diags.HasErrors() {
			return nil, null, diags
		}
	}
	pi.setState(addrs.NotDeposed, src)
	return src, marked, diags
}

// generateConfig writes the HCL of t's resource block from the imported
// object and makes it the (generated) block's body.
func (pi *planInstance) generateConfig(t *importTarget, v cty.Value) hcl.Diagnostics {
	n := pi.n
	gt := genconfig.Target{Type: n.addr.Resource.Type, Name: n.addr.Resource.Name}
	if ref := n.block.ProviderConfigRef; ref != nil && (ref.Alias != "" || ref.Name != n.addr.Resource.ImpliedProvider()) {
		gt.Provider = ref.Addr().String()
	}
	text, diags := genconfig.Resource(gt, n.schema.Block, v)
	f, d := hclsyntax.ParseConfig([]byte(text), "generated:"+t.addr.String(), hcl.InitialPos)
	if d.HasErrors() {
		return append(diags, tfdiags.Errorf("Failed to generate configuration",
			"The configuration generated for %s does not parse: %s. This is a bug in plankit.", t.addr, d.Error()))
	}
	content, d := f.Body.Content(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "resource", LabelNames: []string{"type", "name"}}}})
	if d.HasErrors() || len(content.Blocks) != 1 {
		return append(diags, tfdiags.Errorf("Failed to generate configuration", "The configuration generated for %s is not one resource block. This is a bug in plankit.", t.addr))
	}
	// The body holds a provider argument when one was written; the
	// block's own ProviderConfigRef already says the same.
	_, body, _ := content.Blocks[0].Body.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "provider"}}})
	n.block.Config = body
	pi.pw.imports.mu.Lock()
	pi.pw.imports.texts[t.addr.String()] = text
	pi.pw.imports.mu.Unlock()
	return diags
}

// alreadyManaged returns the error for an imported object that the prior
// state already has at another address (same provider, type and id
// attribute), nil otherwise.
func (s *importSet) alreadyManaged(prev *states.State, n *nodeResource, t *importTarget, v cty.Value) *hcl.Diagnostic {
	if !v.Type().IsObjectType() || !v.Type().HasAttribute("id") {
		return nil
	}
	idv := v.GetAttr("id")
	if idv.IsNull() || !idv.IsKnown() || idv.Type() != cty.String {
		return nil
	}
	s.managedOnce.Do(func() { s.managedIDs = managedIDs(prev) })
	other, ok := s.managedIDs[managedKey(n.provider.Provider.String(), n.typ, idv.AsString())]
	if !ok || other.Equal(t.addr) {
		return nil
	}
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Resource already managed",
		Detail:  fmt.Sprintf("The object with ID %q that this block imports to %s is already managed by plankit at %s. An object can be managed at one address only: remove this import block, or use a moved block to change the object's address.", t.id, t.addr, other),
		Subject: t.block.DeclRange.Ptr()}
}

func managedKey(provider, typ, id string) string { return provider + "|" + typ + "|" + id }

// managedIDs indexes the string "id" attribute of every current managed
// object in st. O(objects).
func managedIDs(st *states.State) map[string]addrs.AbsResourceInstance {
	out := map[string]addrs.AbsResourceInstance{}
	if st == nil {
		return out
	}
	for _, rs := range st.AllResources() {
		if rs.Addr.Resource.Mode != addrs.ManagedResourceMode {
			continue
		}
		for _, k := range rs.SortedKeys() {
			ri := rs.Instances[k]
			if ri.Current == nil {
				continue
			}
			var obj struct {
				ID *string `json:"id"`
			}
			if json.Unmarshal(ri.Current.AttrsJSON, &obj) != nil || obj.ID == nil {
				continue
			}
			mk := managedKey(rs.ProviderConfig.Provider.String(), rs.Addr.Resource.Type, *obj.ID)
			if _, dup := out[mk]; !dup {
				out[mk] = rs.Addr.Instance(k)
			}
		}
	}
	return out
}

// priorOrImported is the instance's prior object: the refreshed current
// object (prior), or, for an import target the state lacks, the imported
// one (imp is then the import).
func (pi *planInstance) priorOrImported(cur *states.ResourceInstanceObjectSrc) (*importTarget, *states.ResourceInstanceObjectSrc, cty.Value, hcl.Diagnostics) {
	if imp := pi.pw.importTarget(pi.w.addr, cur); imp != nil && !pi.w.gone {
		src, v, diags := pi.importObject(imp)
		return imp, src, v, diags
	}
	v, diags := pi.prior(cur, addrs.NotDeposed)
	return nil, cur, v, diags
}

// markImported records the import on addr's planned change. When
// planning the target failed after its configuration was generated (a
// required argument the generator could only write as null, say), a no-op
// change still carries the generated text: the plan is errored and cannot
// be applied, but plan -generate-config-out writes the file for the user
// to complete, as Terraform does.
func (pw *planWalk) markImported(t *importTarget, prior cty.Value, provider addrs.AbsProviderConfig) {
	if t == nil {
		return
	}
	pw.imports.mu.Lock()
	text := pw.imports.texts[t.addr.String()]
	pw.imports.mu.Unlock()
	rc := pw.changes.get(t.addr)
	if rc == nil {
		if text == "" {
			return
		}
		u, _ := prior.UnmarkDeep()
		rc = &plans.ResourceInstanceChange{Addr: t.addr, PrevRunAddr: t.addr, ProviderAddr: provider,
			Change: plans.Change{Action: plans.NoOp, Before: u, After: u}}
		pw.changes.add(rc)
	}
	rc.Importing = &plans.Importing{ID: t.id}
	rc.GeneratedConfig = text
}

// duplicateIDs reports imports of one object (provider, type and ID) to
// two addresses, after the walk so that the message does not depend on
// scheduling: the later address (in address order) gets the error.
func (s *importSet) duplicateIDs() hcl.Diagnostics {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	keys := slices.Collect(maps.Keys(s.targets))
	ts := make([]*importTarget, 0, len(keys))
	for _, k := range keys {
		ts = append(ts, s.targets[k])
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i].addr.Less(ts[j].addr) })
	seen := map[string]*importTarget{}
	var diags hcl.Diagnostics
	for _, t := range ts {
		k := managedKey(t.provider, t.addr.Resource.Resource.Type, t.id)
		if prev := seen[k]; prev != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Duplicate import of one object",
				Detail:  fmt.Sprintf("The object with ID %q is imported both to %s (import block at %s) and to %s. An object can be managed at one address only; remove one of the imports.", t.id, prev.addr, prev.block.DeclRange, t.addr),
				Subject: t.block.DeclRange.Ptr()})
			continue
		}
		seen[k] = t
	}
	return diags
}

// ImportHook is a Hook that also hears of imports while planning (an
// optional interface: hooks that do not implement it are not told).
type ImportHook interface {
	// PrePlanImport is called before the provider imports id into addr.
	PrePlanImport(addr addrs.AbsResourceInstance, id string) (HookAction, error)
}

// importForEach evaluates an import block's for_each: as in Terraform, any
// collection, each.key being a map's key, a list's index or a set's
// element (sets of strings or numbers here), each.value the element. A
// null collection imports nothing; an unknown one is an error.
func importForEach(ws *walkState, root moduleInst, expr hcl.Expression) ([]*repetition, hcl.Diagnostics) {
	scope := ws.scope(root, ws.config, nil, nil)
	v, diags := scope.EvalExpr(expr, cty.DynamicPseudoType)
	ws.putScope(scope)
	if diags.HasErrors() {
		return nil, diags
	}
	bad := func(detail string) ([]*repetition, hcl.Diagnostics) {
		return nil, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid for_each argument", Detail: detail, Subject: expr.Range().Ptr()})
	}
	if !v.IsWhollyKnown() {
		return bad("The for_each value of an import block depends on values that cannot be determined until apply; imports are planned from values known at plan time.")
	}
	v, _ = v.UnmarkDeep()
	if v.IsNull() {
		return nil, diags
	}
	if !v.CanIterateElements() {
		return bad(fmt.Sprintf("The for_each expression must be a collection (a map, an object, a list, a tuple or a set), not %s.", v.Type().FriendlyName()))
	}
	set := v.Type().IsSetType()
	var reps []*repetition
	for it := v.ElementIterator(); it.Next(); {
		k, ev := it.Element()
		if set {
			k = ev
		}
		key, err := addrs.ParseInstanceKey(k)
		if err != nil {
			return bad("The elements of a set in an import block's for_each must be strings or whole numbers: " + err.Error() + ".")
		}
		reps = append(reps, &repetition{mode: expForEach, key: key, eachValue: ev})
	}
	return reps, diags
}

// ApplyImportHook is a Hook that also hears of the imports an apply
// completes (optional, like ImportHook). The imported object is already in
// the plan's prior state, so applying the import is writing it to the
// state: the two calls come together, before any other change of the
// instance.
type ApplyImportHook interface {
	PreApplyImport(addr addrs.AbsResourceInstance, id string) (HookAction, error)
	PostApplyImport(addr addrs.AbsResourceInstance, id string) (HookAction, error)
}

// announceImport tells the hooks that the apply imports ch's object
// (nothing when ch imports nothing).
func (ai *applyInstance) announceImport(ch *plans.ResourceInstanceChange) {
	if ch == nil || ch.Importing == nil || ch.DeposedKey != addrs.NotDeposed {
		return
	}
	addr, id := ch.Addr, ch.Importing.ID
	for _, post := range []bool{false, true} {
		ai.ws.hook(func(h Hook) (HookAction, error) {
			ih, ok := h.(ApplyImportHook)
			switch {
			case !ok:
				return HookActionContinue, nil
			case post:
				return ih.PostApplyImport(addr, id)
			}
			return ih.PreApplyImport(addr, id)
		})
	}
}
