package command

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/internal/command/views"
	"github.com/plankit/plankit/internal/operation"
	"github.com/plankit/plankit/internal/states/statemgr"
	"github.com/plankit/plankit/planfile"
	"github.com/plankit/plankit/states/statefile"
	"github.com/plankit/plankit/tfdiags"
)

// archiveSHA256 is the hex SHA-256 of the archive file at path, the
// name the resume messages give a plan by; "" when it cannot be read
// (the archive was read already, so that is only a race with its removal).
func archiveSHA256(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
}

// resumeSavedPlan handles a saved plan whose state has the plan's lineage
// but moved on since (its serial differs): an apply of this plan that
// stopped half-way, or anything else. It returns the request to apply (the
// plan cut down to the changes still to make, on the state as it is), or
// the errors that refuse it. The state is the record: see
// operation.CheckResume and docs/resume.md.
func resumeSavedPlan(ui *ui, req *operation.ApplyRequest, mgr any, cur *statefile.File) (*operation.ApplyRequest, hcl.Diagnostics) {
	sum := archiveSHA256(req.ArchivePath)
	name := sum
	if name == "" {
		name = "(unknown)"
	}
	inFlight := map[string]string{}
	if j, ok := mgr.(interface{ Recovery() *statemgr.Recovery }); ok {
		if rec := j.Recovery(); rec != nil {
			for _, op := range rec.InFlight {
				inFlight[op.Instance] = op.Action
			}
		}
	}
	res := operation.CheckResume(cur.State, req.Plan, inFlight)
	if len(res.Problems) > 0 {
		return nil, hcl.Diagnostics{tfdiags.Errorf("Saved plan is stale and cannot be resumed",
			"The state changed after plan %s was made (serial %d when planned, %d now). Its changes already in the state are skipped when a plan is resumed, but these objects keep the rest from being applied safely:\n  - %s\nThe remaining changes were planned from objects as they were then. Plan again.",
			name, req.StateFile.Serial, cur.Serial, strings.Join(res.Problems, "\n  - "))}
	}
	if res.Done == res.Total {
		return nil, hcl.Diagnostics{tfdiags.Errorf("Saved plan is stale: already applied",
			"Every change of plan %s (%d of %d) is already in the state (serial %d when planned, %d now). A saved plan is applied once; plan again for any further change.",
			name, res.Done, res.Total, req.StateFile.Serial, cur.Serial)}
	}
	if len(res.Unknown) > 0 {
		ui.diags(hcl.Diagnostics{tfdiags.Warning("Resuming creates of unknown outcome", fmt.Sprintf(
			"An apply of plan %s stopped while these were being created, and the state holds no object for them. They are applied again; if the provider had made an object before the apply stopped, it is an orphan to import or delete:\n  - %s",
			name, strings.Join(res.Unknown, "\n  - ")))}, views.Sources{})
	}
	remaining := res.Total - res.Done
	msg := fmt.Sprintf("Resuming plan %s: %d of %d changes already applied, %d remaining", name, res.Done, res.Total, remaining)
	if ui.json != nil {
		ui.json.Emit("info", "resume_plan", msg, map[string]any{"resume": map[string]any{
			"plan_sha256": sum, "applied": res.Done, "total": res.Total, "remaining": remaining}})
	} else {
		fmt.Fprintln(ui.out, ui.col.Bold(msg))
		fmt.Fprintln(ui.out)
	}
	out := *req
	out.Plan = res.Plan
	out.StateFile = cur
	return &out, nil
}

// resumable reports whether applying req's saved plan to cur is a resume
// to check object by object: same lineage and another serial, or a plan
// made from no state applied where a state now is (the first apply of
// such a plan makes the lineage).
func resumable(req *operation.ApplyRequest, cur *statefile.File) bool {
	if req.Inline || req.StateFile == nil || cur == nil || cur.State == nil || cur.Lineage == "" {
		return false
	}
	planned := req.StateFile
	return (planned.Lineage == "" && !cur.State.Empty()) || (cur.Lineage == planned.Lineage && cur.Serial != planned.Serial)
}

// showResumeProgress prints, for plan show FILE -state=PATH, how far the
// archive at path (opened as r) is applied to the state at statePath:
// not applied, partly applied (N/M changes), applied, or changed
// otherwise since the plan.
func showResumeProgress(m *Meta, u *ui, wd string, r *planfile.Reader, path, statePath string) hcl.Diagnostics {
	plan, err := r.ReadPlan()
	if err != nil {
		return operation.ArchiveDiags(err)
	}
	planned, err := r.ReadStateFile()
	if err != nil {
		return operation.ArchiveDiags(err)
	}
	cur, _, _, diags := readStoredState(m, wd, statePath, nil)
	if diags.HasErrors() {
		return diags
	}
	name := archiveSHA256(path)
	req := &operation.ApplyRequest{Plan: plan, StateFile: planned}
	var line string
	switch {
	case noState(cur) || (planned != nil && cur.Lineage == planned.Lineage && cur.Serial == planned.Serial):
		line = fmt.Sprintf("Plan %s: not applied to %s", name, statePath)
	case !resumable(req, cur):
		line = fmt.Sprintf("Plan %s: made for another state than %s", name, statePath)
	default:
		res := operation.CheckResume(cur.State, plan, nil)
		switch {
		case len(res.Problems) > 0:
			line = fmt.Sprintf("Plan %s: stale for %s, which changed otherwise since the plan (%d object(s); apply names them)", name, statePath, len(res.Problems))
		case res.Done == res.Total:
			line = fmt.Sprintf("Plan %s: applied to %s", name, statePath)
		default:
			line = fmt.Sprintf("Plan %s: partly applied to %s: %d/%d", name, statePath, res.Done, res.Total)
		}
	}
	fmt.Fprintln(u.out, u.col.Bold(line))
	fmt.Fprintln(u.out)
	return nil
}
