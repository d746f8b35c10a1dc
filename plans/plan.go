package plans

import (
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/states"
)

// Plan is the result of planning: what apply will do and what it needs to
// do it, short of the configuration, the lock file and the state files that
// the plan archive (package planfile) stores beside it.
//
// Marshal keeps everything here except PrevRunState and PriorState, which
// the archive stores as state files (with lineage and serial), and Files,
// which it stores as entries of their own; planfile.Reader.ReadPlan puts
// them back.
type Plan struct {
	UIMode Mode

	// VariableValues are the root module's input variable values, unmarked.
	VariableValues map[string]cty.Value
	// VariableSensitive records which of them are sensitive.
	VariableSensitive map[string]bool
	// ApplyTimeVariables names, sorted, the root variables whose values
	// the plan does not hold (ephemeral ones): apply must be given them
	// again (docs/ephemeral.md).
	ApplyTimeVariables []string

	Changes *Changes
	// DriftedResources are the changes made outside plankit since the last
	// run (previous-run state versus refreshed prior state), for reporting.
	DriftedResources []*ResourceInstanceChange

	TargetAddrs       []addrs.Targetable
	ForceReplaceAddrs []addrs.AbsResourceInstance

	// PrevRunState is the state as the previous run left it (after
	// upgrading), PriorState the refreshed state the changes start from.
	PrevRunState *states.State
	PriorState   *states.State

	// ProviderSchemas holds, for each provider the plan uses, the schemas
	// of the resource types and data sources it touches (plus the provider
	// block's), so that a plan can be read and shown without the provider.
	ProviderSchemas map[addrs.Provider]*providers.GetProviderSchemaResponse

	// RelevantAttributes, when RelevantKnown, are the resource attributes
	// that contribute to the planned changes (show -json's
	// relevant_attributes): outside a refresh-only plan, drift is shown
	// only in them. They are made from the configuration, so they are
	// not part of the plan entry; the plan command sets them, plan show
	// reads them from the archive's show -json members.
	RelevantAttributes []RelevantAttribute
	RelevantKnown      bool

	// Applyable means apply may proceed (the plan is not errored and has
	// something to do); Complete means nothing was left out (no targets, no
	// deferrals); Errored means planning stopped on errors and the plan is
	// kept only to be inspected.
	Applyable, Complete, Errored bool

	// Timestamp is when planning started (plantimestamp()); zero when unset.
	Timestamp time.Time

	// Checks are the results of the configuration's checkable objects
	// (input variables with validation blocks), sorted (SortChecks); nil
	// when it has none.
	Checks []*CheckResult

	// StatePath is the absolute path of the state file the plan was made
	// from (format 1.1); "" when unknown. Apply warns when a plan made from
	// no state is applied to another, absent state file.
	StatePath string

	// Files are the files the configuration's functions (file,
	// templatefile, fileexists, fileset, filesha256, ...) read or looked
	// for while planning, sorted by Path (CheckFiles). Apply serves them
	// instead of the disk. Nil when the configuration read no files.
	Files []*File
}

// CanApply reports whether apply may proceed with p.
func (p *Plan) CanApply() bool {
	return p != nil && p.Applyable && !p.Errored
}

// RelevantAttribute is a resource instance (its address) and an
// attribute path in it: string steps are attribute names or map keys,
// number steps list indexes.
type RelevantAttribute struct {
	Resource  string `json:"resource"`
	Attribute []any  `json:"attribute"`
}
