package command

import (
	"encoding/json"
	"errors"

	"github.com/plankit/plankit/internal/command/views"
	"github.com/plankit/plankit/internal/operation"
	"github.com/plankit/plankit/jsonplan"
	"github.com/plankit/plankit/planfile"
	"github.com/plankit/plankit/plans"
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
	v := &views.Show{Out: m.Stdout, Color: u.col.Enabled}
	if err := v.Human(p, changes.Load); err != nil {
		// A write error is the reader's business (a closed pipe); an
		// undecodable change is explained.
		var pe *planfile.Error
		if errors.As(err, &pe) {
			u.diags(operation.ArchiveDiags(err), views.Sources{})
		}
		return ExitError
	}
	showPolicyRecord(m, u, r)
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
