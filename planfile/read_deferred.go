package planfile

import (
	"errors"

	"github.com/plankit/plankit/plans"
)

// DeferredChanges gives the resource changes of a plan read by
// ReadPlanDeferred with their values, one at a time. It is safe for
// concurrent use.
type DeferredChanges struct {
	r    *Reader
	vals *plans.DeferredValues
	// loaded, for a foreign plan, are the changes decoded at once.
	loaded []*plans.ResourceInstanceChange
}

// Load returns the i-th of the plan's Changes.Resources with its Before
// and After values (see plans.DeferredValues.Load). An undecodable value
// gives a KindCorrupt *Error naming the archive, the plan entry and the
// change.
func (c *DeferredChanges) Load(i int) (*plans.ResourceInstanceChange, error) {
	if c.vals == nil {
		if i < 0 || i >= len(c.loaded) {
			return nil, c.r.withPath(newErr(KindCorrupt, EntryPlan, "the plan has no resource change %d", i))
		}
		return c.loaded[i], nil
	}
	rc, err := c.vals.Load(i)
	if err != nil {
		return nil, c.r.withPath(wrapErr(KindCorrupt, EntryPlan, err))
	}
	return rc, nil
}

// ReadPlanDeferred decodes the plan for a caller that needs only its
// changes, one at a time (the human rendering of `plan show`): the
// resource changes come without their Before and After values, which
// changes.Load gives on request (plans.UnmarshalDeferred), and the state
// entries and configuration files are not read (PriorState,
// PrevRunState and Files are nil). Errors are ReadPlan's. O(size of the
// plan entry without its values).
func (r *Reader) ReadPlanDeferred() (*plans.Plan, *DeferredChanges, error) {
	if r.foreign != nil {
		// A Terraform or OpenTofu plan is decoded whole (its values need
		// their schemas first); the changes keep their values.
		p, _, err := r.ReadForeignPlan()
		if err != nil {
			return nil, nil, err
		}
		return p, &DeferredChanges{r: r, loaded: p.Changes.Resources}, nil
	}
	p, vals, _, err := plans.UnmarshalDeferred(r.entries[EntryPlan])
	if err != nil {
		kind := KindCorrupt
		var ve *plans.FormatVersionError
		if errors.As(err, &ve) {
			kind = KindFormatVersion
		}
		return nil, nil, r.withPath(wrapErr(kind, EntryPlan, err))
	}
	return p, &DeferredChanges{r: r, vals: vals}, nil
}
