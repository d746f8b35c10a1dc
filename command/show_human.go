package command

import (
	"errors"

	"github.com/plankit/plankit/command/render"
	"github.com/plankit/plankit/planfile"
)

// showHuman is plan show without -json: the plan is decoded without its
// resource changes' values, and each change's values are decoded as it
// is rendered, on every core, so the first changes are written while
// the rest are still encoded and the values are never all in memory at
// once. The archive's state entries are not read (the rendering does
// not use them). A value that cannot be decoded ends the output early
// with an error and exit status 1.
func showHuman(m *Meta, u *ui, r *planfile.Reader) int {
	defer r.Close()
	p, changes, err := r.ReadPlanDeferred()
	if err != nil {
		u.diags(planFileDiags(err), Sources{})
		return ExitError
	}
	if err := render.PlanLoading(m.Stdout, p, u.col.Enabled, changes.Load); err != nil {
		// A write error is the reader's business (a closed pipe); an
		// undecodable change is explained.
		var pe *planfile.Error
		if errors.As(err, &pe) {
			u.diags(planFileDiags(err), Sources{})
		}
		return ExitError
	}
	return ExitOK
}
