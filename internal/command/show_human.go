package command

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/command/render"
	"github.com/plankit/plankit/internal/command/views"
	"github.com/plankit/plankit/internal/operation"
	"github.com/plankit/plankit/jsonplan"
	"github.com/plankit/plankit/planfile"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
)

// showHuman is plan show without -json: the plan is decoded without its
// resource changes' values, and each change's values are decoded as it
// is rendered, on every core, so the first changes are written while
// the rest are still encoded and the values are never all in memory at
// once. The archive's state entries are not read (the rendering does
// not use them). A value that cannot be decoded ends the output early
// with an error and exit status 1.
func showHuman(m *Meta, u *ui, r *planfile.Reader, req showRequest) int {
	defer r.Close()
	p, changes, err := r.ReadPlanDeferred()
	if err != nil {
		u.diags(operation.ArchiveDiags(err), views.Sources{})
		return ExitError
	}
	relevantFromArchive(p, r)
	if err := render.PlanLoading(m.Stdout, p, u.col.Enabled, changes.Load); err != nil {
		// A write error is the reader's business (a closed pipe); an
		// undecodable change is explained.
		var pe *planfile.Error
		if errors.As(err, &pe) {
			u.diags(operation.ArchiveDiags(err), views.Sources{})
		}
		return ExitError
	}
	return req.exitCode(p)
}

// relevantFromArchive sets p's relevant attributes from the archive's
// show -json members, made at plan time. Without them (an older
// plankit's archive, or one planned with -generate-config-out) they stay
// unknown and all drift is shown. A plan with no drift, or a refresh-only
// one (which shows all of it), needs none: the members, large for a large
// plan, are then not parsed.
func relevantFromArchive(p *plans.Plan, r *planfile.Reader) {
	if len(p.DriftedResources) == 0 || p.UIMode == plans.RefreshOnlyMode {
		return
	}
	raw, ok := r.ShowJSON()
	if !ok {
		return
	}
	s, err := jsonplan.ParseSections(raw)
	if err != nil {
		return // plan show -json reports the damage
	}
	var attrs []plans.RelevantAttribute
	if len(s.RelevantAttributes) > 0 {
		if err := json.Unmarshal(s.RelevantAttributes, &attrs); err != nil {
			return
		}
	}
	p.RelevantAttributes, p.RelevantKnown = attrs, true
}

// showForeignHuman is plan show of a plan file Terraform or OpenTofu
// wrote: the writer first, then the plan as for plankit's own archives,
// then the changes whose values were shown without a schema.
func showForeignHuman(m *Meta, u *ui, w *planfile.ForeignWriter, p *plans.Plan, info *plans.ForeignInfo, req showRequest) int {
	fmt.Fprintf(m.Stdout, "Plan file written by %s, read by plankit without it.\n", w)
	impliedSchemas(p)
	if err := render.Plan(m.Stdout, p, u.col.Enabled); err != nil {
		return ExitError
	}
	if len(info.WithoutSchema) > 0 {
		fmt.Fprintf(m.Stdout, "\nThe plan file carries no provider schema for these changes; their values are\nshown as the file's bytes give them (lists and sets as tuples, maps as\nobjects; see docs/foreign-plans.md):\n  %s\n", strings.Join(info.WithoutSchema, "\n  "))
	}
	return req.exitCode(p)
}

// impliedSchemas gives each resource type p has changes of but no
// schema for a schema implied by the values themselves: one attribute
// of any type per attribute the objects have, so the renderer shows
// them as the plan file's bytes give them. Sensitivity still comes from
// the paths the plan records.
func impliedSchemas(p *plans.Plan) {
	if p.ProviderSchemas == nil {
		p.ProviderSchemas = map[addrs.Provider]*providers.GetProviderSchemaResponse{}
	}
	var rcs []*plans.ResourceInstanceChange
	if p.Changes != nil {
		rcs = append(rcs, p.Changes.Resources...)
	}
	rcs = append(rcs, p.DriftedResources...)
	implied := map[*configschema.Block]bool{}
	for _, rc := range rcs {
		res := rc.Addr.Resource.Resource
		block := providers.ResourceSchema(p.ProviderSchemas, rc.ProviderAddr.Provider, res)
		if block != nil && !implied[block] {
			continue
		}
		if block == nil {
			block = &configschema.Block{Attributes: map[string]*configschema.Attribute{}}
			implied[block] = true
			ps := p.ProviderSchemas[rc.ProviderAddr.Provider]
			if ps == nil {
				ps = &providers.GetProviderSchemaResponse{}
				p.ProviderSchemas[rc.ProviderAddr.Provider] = ps
			}
			if res.Mode == addrs.DataResourceMode {
				if ps.DataSources == nil {
					ps.DataSources = map[string]providers.Schema{}
				}
				ps.DataSources[res.Type] = providers.Schema{Block: block}
			} else {
				if ps.ResourceTypes == nil {
					ps.ResourceTypes = map[string]providers.Schema{}
				}
				ps.ResourceTypes[res.Type] = providers.Schema{Block: block}
			}
		}
		for _, v := range []cty.Value{rc.Change.Before, rc.Change.After} {
			if v == cty.NilVal || v.IsNull() || !v.IsKnown() {
				continue
			}
			if ty := v.Type(); ty.IsObjectType() {
				for name := range ty.AttributeTypes() {
					block.Attributes[name] = &configschema.Attribute{Type: cty.DynamicPseudoType, Optional: true}
				}
			}
		}
	}
}
