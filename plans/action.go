package plans

import "fmt"

// Mode is the kind of plan the user asked for.
type Mode rune

const (
	// NormalMode plans to make the remote objects match the configuration.
	NormalMode Mode = 0
	// DestroyMode plans to destroy every object the state tracks.
	DestroyMode Mode = 'D'
	// RefreshOnlyMode plans only to update the state to match the remote
	// objects (drift), without proposing changes to them.
	RefreshOnlyMode Mode = 'R'
)

// String returns "normal", "destroy" or "refresh-only".
func (m Mode) String() string {
	switch m {
	case NormalMode:
		return "normal"
	case DestroyMode:
		return "destroy"
	case RefreshOnlyMode:
		return "refresh-only"
	}
	return fmt.Sprintf("Mode(%d)", rune(m))
}

// Action is what a change will do to a resource instance or output value.
// The rune values are the symbols plan output traditionally uses.
type Action rune

const (
	NoOp             Action = 0
	Create           Action = '+'
	Read             Action = '←'
	Update           Action = '~'
	DeleteThenCreate Action = '∓'
	CreateThenDelete Action = '±'
	Delete           Action = '-'
	// Forget removes the object from the state without destroying it (a
	// removed block with lifecycle { destroy = false }).
	Forget Action = '.'
)

// IsReplace reports whether a is one of the two replace actions.
func (a Action) IsReplace() bool {
	return a == DeleteThenCreate || a == CreateThenDelete
}

// String returns the action's Go name, e.g. "DeleteThenCreate".
func (a Action) String() string {
	switch a {
	case NoOp:
		return "NoOp"
	case Create:
		return "Create"
	case Read:
		return "Read"
	case Update:
		return "Update"
	case DeleteThenCreate:
		return "DeleteThenCreate"
	case CreateThenDelete:
		return "CreateThenDelete"
	case Delete:
		return "Delete"
	case Forget:
		return "Forget"
	}
	return fmt.Sprintf("Action(%d)", rune(a))
}

// ResourceInstanceChangeActionReason says why a change has the action it
// has, when the action alone does not tell (a replace, a delete of an
// orphan, a read deferred to apply). ReasonNone is the common case.
type ResourceInstanceChangeActionReason rune

const (
	ReasonNone ResourceInstanceChangeActionReason = 0

	// ReasonReplaceBecauseTainted: the current object is tainted.
	ReasonReplaceBecauseTainted ResourceInstanceChangeActionReason = 'T'
	// ReasonReplaceByRequest: the user asked with -replace.
	ReasonReplaceByRequest ResourceInstanceChangeActionReason = 'R'
	// ReasonReplaceByTriggers: lifecycle.replace_triggered_by fired.
	ReasonReplaceByTriggers ResourceInstanceChangeActionReason = 'D'
	// ReasonReplaceBecauseCannotUpdate: the provider reported attributes
	// that require replacement (RequiredReplace).
	ReasonReplaceBecauseCannotUpdate ResourceInstanceChangeActionReason = 'F'

	// ReasonDeleteBecauseNoResourceConfig: the resource block is gone.
	ReasonDeleteBecauseNoResourceConfig ResourceInstanceChangeActionReason = 'N'
	// ReasonDeleteBecauseWrongRepetition: the instance key's kind does not
	// match the resource's count/for_each (or lack of it).
	ReasonDeleteBecauseWrongRepetition ResourceInstanceChangeActionReason = 'W'
	// ReasonDeleteBecauseCountIndex: the index is beyond count.
	ReasonDeleteBecauseCountIndex ResourceInstanceChangeActionReason = 'C'
	// ReasonDeleteBecauseEachKey: the key is no longer in for_each.
	ReasonDeleteBecauseEachKey ResourceInstanceChangeActionReason = 'E'
	// ReasonDeleteBecauseNoModule: the containing module instance is gone.
	ReasonDeleteBecauseNoModule ResourceInstanceChangeActionReason = 'M'
	// ReasonDeleteBecauseNoMoveTarget: a moved block moved the object to an
	// address that is not declared in the configuration.
	ReasonDeleteBecauseNoMoveTarget ResourceInstanceChangeActionReason = 'A'

	// ReasonReadBecauseConfigUnknown: a data source's configuration has
	// unknown values, so it is read during apply.
	ReasonReadBecauseConfigUnknown ResourceInstanceChangeActionReason = '?'
	// ReasonReadBecauseDependencyPending: a data source depends on a
	// resource with pending changes, so it is read during apply.
	ReasonReadBecauseDependencyPending ResourceInstanceChangeActionReason = '!'
	// ReasonReadBecauseCheckNested: a data source inside a check block is
	// read during apply (so its assertions are evaluated against the
	// applied values).
	ReasonReadBecauseCheckNested ResourceInstanceChangeActionReason = '#'
)

// String returns the reason's Go name without the "Reason" prefix, e.g.
// "ReplaceBecauseTainted"; ReasonNone is "None".
func (r ResourceInstanceChangeActionReason) String() string {
	if row, ok := reasonIndex[r]; ok {
		return row.name
	}
	return fmt.Sprintf("Reason(%d)", rune(r))
}

// JSONKeyword returns the reason as the JSON plan representation's
// action_reason names it, e.g. "replace_because_tainted"; "" for
// ReasonNone and unknown reasons.
func (r ResourceInstanceChangeActionReason) JSONKeyword() string {
	return reasonIndex[r].json
}

// AllActions lists every Action, for exhaustive tests and encoders.
func AllActions() []Action {
	return []Action{NoOp, Create, Read, Update, DeleteThenCreate, CreateThenDelete, Delete, Forget}
}

// AllReasons lists every ResourceInstanceChangeActionReason, ReasonNone first.
func AllReasons() []ResourceInstanceChangeActionReason {
	out := make([]ResourceInstanceChangeActionReason, len(reasonTable))
	for i, row := range reasonTable {
		out[i] = row.reason
	}
	return out
}
