package views

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/command/render"
	"github.com/plankit/plankit/internal/review"
	"github.com/plankit/plankit/jsonplan"
	"github.com/plankit/plankit/planfile"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
)

// Show writes what plan show prints: a plan as text, as Terraform's JSON
// plan representation, or as a review summary or report. Its methods
// return the error that stopped the writing: a write error, or a value
// that could not be decoded or rendered.
type Show struct {
	Out   io.Writer
	Color bool
}

// Human renders a plankit plan as plan does; load, when not nil, decodes
// each change's values as it is rendered (render.PlanLoading).
func (v *Show) Human(p *plans.Plan, load render.Loader) error {
	return render.PlanLoading(v.Out, p, v.Color, load)
}

// Foreign renders a plan Terraform or OpenTofu wrote: the writer first,
// then the plan as for plankit's own, its provider resources (whose
// schema the file does not carry) with their values as the file's bytes
// give them, then the list of those changes.
func (v *Show) Foreign(w *planfile.ForeignWriter, p *plans.Plan, info *plans.ForeignInfo) error {
	if _, err := fmt.Fprintf(v.Out, "Plan file written by %s, read by plankit without it.\n", w); err != nil {
		return err
	}
	impliedSchemas(p)
	if err := render.Plan(v.Out, p, v.Color); err != nil {
		return err
	}
	if len(info.WithoutSchema) > 0 {
		_, err := fmt.Fprintf(v.Out, "\nThe plan file carries no provider schema for these changes; their values are\nshown as the file's bytes give them (lists and sets as tuples, maps as\nobjects; see docs/foreign-plans.md):\n  %s\n", strings.Join(info.WithoutSchema, "\n  "))
		return err
	}
	return nil
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
		for _, val := range []cty.Value{rc.Change.Before, rc.Change.After} {
			if val == cty.NilVal || val.IsNull() || !val.IsKnown() {
				continue
			}
			if ty := val.Type(); ty.IsObjectType() {
				for name := range ty.AttributeTypes() {
					block.Attributes[name] = &configschema.Attribute{Type: cty.DynamicPseudoType, Optional: true}
				}
			}
		}
	}
}

// JSON writes the show -json document of p, streamed; with redact it is
// made whole and every sensitive value replaced (jsonplan.Redact).
func (v *Show) JSON(p *plans.Plan, opts jsonplan.Options, redact bool) error {
	if !redact {
		return jsonplan.Write(v.Out, p, opts)
	}
	var buf bytes.Buffer
	if err := jsonplan.Write(&buf, p, opts); err != nil {
		return err
	}
	doc, err := jsonplan.Redact(buf.Bytes(), p)
	if err != nil {
		return err
	}
	_, err = v.Out.Write(append(doc, '\n'))
	return err
}

// Markdown writes the review summary of the archives within maxBytes
// (review.Markdown).
func (v *Show) Markdown(archives []*review.Archive, maxBytes int) error {
	md, err := review.Markdown(archives, review.Options{MaxBytes: maxBytes, Command: "plan show"})
	if err != nil {
		return err
	}
	_, err = v.Out.Write(md)
	return err
}

// HTML writes the self-contained review report of the archives.
func (v *Show) HTML(ctx context.Context, archives []*review.Archive) error {
	return review.HTML(ctx, v.Out, archives)
}
