package terraform

import (
	"context"
	"maps"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/lang"
	"github.com/plankit/plankit/internal/lang/marks"
	"github.com/plankit/plankit/internal/terraform/filerec"
	"github.com/plankit/plankit/internal/terraform/namedvals"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/tfdiags"
)

// Plan builds the plan graph for opts.Mode and walks it once: each
// resource instance is refreshed (unless SkipRefresh) right before it is
// planned, the refreshed objects forming the plan's PriorState and the
// differences its DriftedResources. prevRunState is not modified. The plan
// is returned even when planning failed (Errored set), with the
// diagnostics.
func (c *Context) Plan(ctx context.Context, config *configs.Config, prevRunState *states.State, opts *PlanOpts) (*plans.Plan, hcl.Diagnostics) {
	if opts == nil {
		opts = &PlanOpts{}
	}
	if prevRunState == nil {
		prevRunState = states.NewState()
	}
	switch opts.Mode {
	case plans.NormalMode, plans.DestroyMode, plans.RefreshOnlyMode:
	default:
		return nil, hcl.Diagnostics{tfdiags.Errorf("Unsupported plan mode", "Plan mode %s is not supported.", opts.Mode)}
	}
	diags := checkRootVariables(config, opts.SetVariables)
	defer c.closeSpares()
	config, imports, d := prepareImports(config, opts.Mode, opts.GenerateConfig)
	diags = append(diags, d...)
	schemas, d := c.schemasFor(neededProviders(config, prevRunState))
	diags = append(diags, d...)
	if diags.HasErrors() {
		return nil, diags
	}
	if opts.SchemasLoaded != nil {
		opts.SchemasLoaded(schemas)
	}
	moves, d := applyMoves(config, prevRunState, opts)
	if d.HasErrors() {
		return nil, append(diags, d...)
	}
	prevRunState = moves.moved // the walk plans from the moved objects
	pw := newPlanWalk(opts, filerec.NewRecorder(lang.OSFiles(c.workingDir)))
	pw.imports = imports
	pw.moves = moves
	ws := c.newWalkState(pw, config, schemas)
	ws.prevState = prevRunState
	// The working state shares prevRunState's objects, which are
	// immutable: the walk replaces objects, never edits them. A deep copy
	// would hold a second copy of every stored object for the whole plan.
	ws.state = prevRunState.Snapshot().SyncWrapper()
	ws.rootVars = opts.SetVariables
	ws.clock = lang.NewPlanClock(opts.Timestamp)
	ws.files = pw.fileRec
	removed, d := removedStatements(config)
	if diags = append(diags, d...); d.HasErrors() {
		return nil, diags
	}
	in := &buildInput{config: config, schemas: schemas, state: prevRunState, targets: opts.Targets, removed: removed}
	builder := planBuilder(in)
	if opts.Mode == plans.DestroyMode {
		builder = planDestroyBuilder(in)
	}
	g, d := builder.Build()
	diags = append(diags, d...)
	if d.HasErrors() {
		return nil, diags
	}
	c.phaseDone("graph")
	diags = append(diags, ws.walk(ctx, g)...)
	diags = append(diags, imports.duplicateIDs()...)
	if ctx.Err() != nil {
		diags = append(diags, tfdiags.Error("Operation cancelled", "The plan was interrupted before it completed."+ws.notStartedNote("planned")))
	}
	var invalid bool
	if diags, invalid = moves.validate(ws, diags); invalid {
		return nil, diags
	}
	p := pw.assemble(ws, keptRootOutputs(g, opts.Targets), diags.HasErrors())
	c.phaseDone("walk")
	return p, append(diags, forgetWarning(p)...)
}

// neededProviders lists the providers the configuration and the state use.
func neededProviders(config *configs.Config, st *states.State) []addrs.Provider {
	ps := config.ProviderTypes()
	for _, mi := range st.ModuleInstances() {
		for _, rs := range st.Module(mi).Resources {
			ps = append(ps, rs.ProviderConfig.Provider)
		}
	}
	return ps
}

// assemble builds the plan from what the walk collected; kept are the
// root outputs a targeted graph kept (nil: all).
func (pw *planWalk) assemble(ws *walkState, kept map[string]bool, errored bool) *plans.Plan {
	opts := pw.opts
	if opts.Mode != plans.DestroyMode {
		// A destroy plan evaluates no outputs. (OpenTofu's refreshes
		// first in a refresh-only walk, which evaluates them.)
		ws.priorOutputs()
	}
	prior := ws.state.Close()
	p := &plans.Plan{
		UIMode:            opts.Mode,
		VariableValues:    map[string]cty.Value{},
		VariableSensitive: map[string]bool{},
		Changes:           &plans.Changes{Resources: pw.changes.sorted(), Outputs: ws.outputChanges(opts.Mode, kept)},
		DriftedResources:  pw.drift.sorted(),
		TargetAddrs:       opts.Targets,
		ForceReplaceAddrs: opts.ForceReplace,
		PrevRunState:      ws.prevState,
		PriorState:        prior,
		Errored:           errored,
		Complete:          !errored && len(opts.Targets) == 0,
	}
	if ws.clock.Used() {
		p.Timestamp = ws.clock.Time()
	}
	pw.moves.record(p, ws.schemas)
	if opts.Mode == plans.DestroyMode {
		p.Checks = destroyChecks(ws.config)
	} else {
		ws.checks.complete(ws.config, ws.exp)
		p.Checks = ws.checks.results()
	}
	p.Files = pw.fileRec.Files()
	for name, v := range ws.config.Module.Variables {
		if v.Ephemeral {
			// Never stored: apply is given it again.
			p.ApplyTimeVariables = append(p.ApplyTimeVariables, name)
			continue
		}
		val, ok := ws.named.GetKey("", namedvals.Variable, name)
		if !ok {
			continue
		}
		u, _ := val.UnmarkDeep()
		// A value the caller set is recorded as given (the apply converts
		// it again, with the type's optional() defaults), as OpenTofu
		// records it; show -json shows it so. An unset variable records
		// its default as the configuration converts it.
		if iv := ws.rootVars[name]; iv != nil && iv.Value != cty.NilVal && iv.Value.IsWhollyKnown() {
			u, _ = iv.Value.UnmarkDeep()
		}
		p.VariableValues[name] = u
		if v.Sensitive || marks.Contains(val, marks.Sensitive) {
			p.VariableSensitive[name] = true
		}
	}
	slices.Sort(p.ApplyTimeVariables)
	p.ProviderSchemas = ws.touchedSchemas(p)
	p.Applyable = !errored && (!p.Changes.Empty() || (opts.Mode == plans.RefreshOnlyMode && len(p.DriftedResources) > 0))
	return p
}

// priorOutputs writes into the refreshed state the root outputs the plan
// evaluated to wholly known values (removing those now null), as OpenTofu
// records them in its plan's prior state; an output whose value waits on
// the apply, or that the configuration no longer declares, keeps its
// previous value there.
func (ws *walkState) priorOutputs() {
	s := ws.state.Lock()
	defer ws.state.Unlock()
	for name, r := range ws.outputs {
		v, _ := r.val.UnmarkDeep()
		switch {
		case !v.IsWhollyKnown():
		case v.IsNull():
			s.RemoveOutputValue(rootOutputAddr(name))
		default:
			s.SetOutputValue(rootOutputAddr(name), v, r.sensitive || marks.Contains(r.val, marks.Sensitive))
		}
	}
}

// outputChanges returns the root output changes, sorted by name: each
// evaluated output against its previous value, and deletions of outputs
// the configuration (or, in destroy mode, the plan) no longer has. A
// targeted plan changes only the outputs its graph kept (kept; nil: all).
func (ws *walkState) outputChanges(mode plans.Mode, kept map[string]bool) []*plans.OutputChange {
	prev := ws.prevState.RootOutputValues()
	names := map[string]bool{}
	for n := range prev {
		names[n] = true
	}
	for n := range ws.outputs {
		names[n] = true
	}
	if kept != nil {
		for n := range names {
			if !kept[n] {
				delete(names, n)
			}
		}
	}
	var out []*plans.OutputChange
	for _, name := range slices.Sorted(maps.Keys(names)) {
		before := cty.NullVal(cty.DynamicPseudoType)
		bSens := false
		if pv := prev[name]; pv != nil {
			before, bSens = pv.Value, pv.Sensitive
		}
		after := cty.NullVal(cty.DynamicPseudoType)
		aSens := false
		r, ok := ws.outputs[name]
		if ok && mode != plans.DestroyMode {
			after, aSens = r.val, r.sensitive || marks.Contains(r.val, marks.Sensitive)
		}
		after, _ = after.UnmarkDeep()
		before, _ = before.UnmarkDeep()
		oc := &plans.OutputChange{Addr: rootOutputAddr(name), Sensitive: aSens || bSens,
			Change: plans.Change{Before: before, After: after}}
		switch {
		case before.IsNull() && !after.IsNull():
			oc.Action = plans.Create
		case after.IsNull() && !before.IsNull() && (!ok || mode == plans.DestroyMode):
			oc.Action = plans.Delete // no longer declared, or destroying
		case before.IsNull() && after.IsNull():
			oc.Action = plans.NoOp
		default:
			if eq := before.Equals(after); !eq.IsKnown() || eq.False() {
				oc.Action = plans.Update
			}
		}
		out = append(out, oc)
	}
	return out
}

// touchedSchemas returns, per provider, the provider schema and the
// schemas of only the resource types the plan's changes, drift and prior
// state use.
func (ws *walkState) touchedSchemas(p *plans.Plan) map[addrs.Provider]*providers.GetProviderSchemaResponse {
	type use struct {
		mode addrs.ResourceMode
		typ  string
	}
	used := map[addrs.Provider]map[use]bool{}
	note := func(pr addrs.Provider, r addrs.Resource) {
		if used[pr] == nil {
			used[pr] = map[use]bool{}
		}
		used[pr][use{r.Mode, r.Type}] = true
	}
	for _, rc := range p.Changes.Resources {
		note(rc.ProviderAddr.Provider, rc.Addr.Resource.Resource)
	}
	for _, rc := range p.DriftedResources {
		note(rc.ProviderAddr.Provider, rc.Addr.Resource.Resource)
	}
	for _, st := range []*states.State{p.PriorState, p.PrevRunState} {
		for _, mi := range st.ModuleInstances() {
			for _, rs := range st.Module(mi).Resources {
				note(rs.ProviderConfig.Provider, rs.Addr.Resource)
			}
		}
	}
	// The configuration's resource blocks and provider blocks too, those
	// without instances included, so that show -json of the stored plan
	// writes every block of the "configuration" section by its schema,
	// as one made from the full schemas (PlanOpts.SchemasLoaded) does.
	if ws.config != nil {
		ws.config.DeepEach(func(c *configs.Config) {
			m := c.Module
			for _, rs := range []map[string]*configs.Resource{m.ManagedResources, m.DataResources} {
				for _, r := range rs {
					note(r.Provider, r.Addr())
				}
			}
			// An ephemeral resource's provider is one the apply starts;
			// its schemas stay out of the plan, as its values do.
			for _, r := range m.EphemeralResources {
				if used[r.Provider] == nil {
					used[r.Provider] = map[use]bool{}
				}
			}
			for _, pc := range m.ProviderConfigs {
				if pr := m.ProviderForLocalConfig(pc.Addr()); used[pr] == nil {
					used[pr] = map[use]bool{}
				}
			}
		})
	}
	out := map[addrs.Provider]*providers.GetProviderSchemaResponse{}
	for pr, uses := range used {
		full := ws.schemas[pr]
		if full == nil {
			continue
		}
		s := &providers.GetProviderSchemaResponse{Provider: full.Provider, ProviderMeta: full.ProviderMeta,
			ResourceTypes: map[string]providers.Schema{}, DataSources: map[string]providers.Schema{},
			ServerCapabilities: full.ServerCapabilities}
		for u := range uses {
			if u.mode == addrs.DataResourceMode {
				if rs, ok := full.DataSources[u.typ]; ok {
					s.DataSources[u.typ] = rs
				}
			} else if rs, ok := full.ResourceTypes[u.typ]; ok {
				s.ResourceTypes[u.typ] = rs
			}
		}
		out[pr] = s
	}
	return out
}

// checkRootVariables reports values given for variables the root module
// does not declare: an error for -var, a warning for files, nothing for
// the environment (as Terraform does).
func checkRootVariables(config *configs.Config, vals InputValues) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, name := range slices.Sorted(maps.Keys(vals)) {
		if _, ok := config.Module.Variables[name]; ok {
			continue
		}
		iv := vals[name]
		d := &hcl.Diagnostic{Summary: "Value for undeclared variable",
			Detail: "A variable named \"" + name + "\" was assigned a value, but the root module does not declare a variable of that name. To use this value, add a \"variable\" block to the configuration."}
		if iv.SourceRange.Filename != "" {
			d.Subject = iv.SourceRange.Ptr()
		}
		switch iv.SourceType {
		case ValueFromCLIArg:
			d.Severity = hcl.DiagError
		case ValueFromNamedFile, ValueFromAutoFile:
			d.Severity = hcl.DiagWarning
		default:
			continue
		}
		diags = append(diags, d)
	}
	return diags
}
