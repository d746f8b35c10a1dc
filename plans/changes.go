package plans

import (
	"cmp"
	"slices"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
)

// Change is one planned change of a value: what it is before, what it will
// be after, and the action that gets it there.
//
// Before and After are UNMARKED cty values; the paths that are sensitive in
// each travel in BeforeSensitivePaths and AfterSensitivePaths (apply them
// with marks.MarkSensitivePaths to get marked values back). After may
// contain unknown values ("known after apply"), nested at any depth. A null
// Before means the object does not exist yet (create); a null After means it
// will not exist afterwards (delete). cty.NilVal (the zero Value) is allowed
// for "no value at all" and survives encoding as such.
type Change struct {
	Action                                    Action
	Before, After                             cty.Value
	BeforeSensitivePaths, AfterSensitivePaths []cty.Path
	// Importing is set when the change adopts an existing remote object
	// through an import block (resource instance changes only).
	Importing *Importing
	// GeneratedConfig is the HCL generated for an import target that has no
	// resource block (plan -generate-config-out); empty otherwise.
	GeneratedConfig string
}

// Importing identifies the remote object an import block adopts.
type Importing struct {
	// ID is the import ID the provider's ImportResourceState received.
	ID string
}

// ResourceInstanceChange is the planned change of one resource instance
// object: its current object (DeposedKey empty) or one of its deposed
// objects.
type ResourceInstanceChange struct {
	// Addr is the instance's address in this run's configuration.
	Addr addrs.AbsResourceInstance
	// PrevRunAddr is the address the instance had in the previous run's
	// state; it differs from Addr only when the instance moved. The core
	// normally sets it equal to Addr.
	PrevRunAddr addrs.AbsResourceInstance
	// DeposedKey is addrs.NotDeposed for the current object.
	DeposedKey addrs.DeposedKey
	// ProviderAddr is the provider configuration that plans and applies it.
	ProviderAddr addrs.AbsProviderConfig
	Change
	// ActionReason explains the action when it is not self-evident.
	ActionReason ResourceInstanceChangeActionReason
	// RequiredReplace lists the attribute paths whose change forces a
	// replacement, as the provider reported them.
	RequiredReplace []cty.Path
	// Private is the provider's opaque data, passed back on apply.
	Private []byte
	// CreateBeforeDestroy means the resource (or a dependent) wants
	// create_before_destroy; the apply graph orders a replace accordingly.
	CreateBeforeDestroy bool
}

// Moved reports whether the instance had another address in the previous
// run (a zero PrevRunAddr counts as "same address").
func (rc *ResourceInstanceChange) Moved() bool {
	return rc.PrevRunAddr.Resource.Resource.Mode != addrs.InvalidResourceMode && !rc.PrevRunAddr.Equal(rc.Addr)
}

// OutputChange is the planned change of an output value.
type OutputChange struct {
	Addr addrs.AbsOutputValue
	Change
	// Sensitive means the output is declared sensitive: the whole value is
	// hidden in plan output, whatever its sensitive paths say.
	Sensitive bool
}

// Changes is every planned change of a plan. Resources and Outputs keep the
// order they were appended in until Sort is called.
type Changes struct {
	Resources []*ResourceInstanceChange
	Outputs   []*OutputChange
}

// NewChanges returns an empty Changes.
func NewChanges() *Changes {
	return &Changes{}
}

// ResourceInstance returns the change of the current object of addr, or nil.
// It scans the list: O(n); a caller that looks up many changes builds its
// own index (the core's walks do).
func (c *Changes) ResourceInstance(addr addrs.AbsResourceInstance) *ResourceInstanceChange {
	return c.ResourceInstanceDeposed(addr, addrs.NotDeposed)
}

// ResourceInstanceDeposed returns the change of the deposed object key of
// addr, or nil. O(n).
func (c *Changes) ResourceInstanceDeposed(addr addrs.AbsResourceInstance, key addrs.DeposedKey) *ResourceInstanceChange {
	for _, rc := range c.Resources {
		if rc.DeposedKey == key && rc.Addr.Equal(addr) {
			return rc
		}
	}
	return nil
}

// Output returns the change of the output value addr, or nil. O(n).
func (c *Changes) Output(addr addrs.AbsOutputValue) *OutputChange {
	for _, oc := range c.Outputs {
		if outputAddrEqual(oc.Addr, addr) {
			return oc
		}
	}
	return nil
}

// Empty reports whether applying the changes would do nothing: every
// resource change is a NoOp without a move, and every root module output
// change is a NoOp (outputs of child modules are not visible, so they do not
// count, as in Terraform).
func (c *Changes) Empty() bool {
	for _, rc := range c.Resources {
		if rc.Action != NoOp || rc.Moved() {
			return false
		}
	}
	for _, oc := range c.Outputs {
		if oc.Addr.Module.IsRoot() && oc.Action != NoOp {
			return false
		}
	}
	return true
}

// Sort puts the changes in their deterministic order: resource instances by
// address (addrs.AbsResourceInstance.Compare), the current object before its
// deposed objects and those by key; outputs by module instance then name.
// Stable, O(n log n).
func (c *Changes) Sort() {
	slices.SortStableFunc(c.Resources, CompareResourceInstanceChanges)
	slices.SortStableFunc(c.Outputs, func(a, b *OutputChange) int {
		return compareOutputAddrs(a.Addr, b.Addr)
	})
}

// SortedResourceChanges returns a copy of rcs in the order Changes.Sort
// uses, leaving rcs as it is: renderers sort what they print without
// touching the plan. O(n log n).
func SortedResourceChanges(rcs []*ResourceInstanceChange) []*ResourceInstanceChange {
	out := slices.Clone(rcs)
	slices.SortStableFunc(out, CompareResourceInstanceChanges)
	return out
}

// CompareResourceInstanceChanges is the order Changes.Sort uses.
func CompareResourceInstanceChanges(a, b *ResourceInstanceChange) int {
	if c := a.Addr.Compare(b.Addr); c != 0 {
		return c
	}
	return cmp.Compare(a.DeposedKey, b.DeposedKey)
}

func compareOutputAddrs(a, b addrs.AbsOutputValue) int {
	if c := a.Module.Compare(b.Module); c != 0 {
		return c
	}
	return strings.Compare(a.OutputValue.Name, b.OutputValue.Name)
}

func outputAddrEqual(a, b addrs.AbsOutputValue) bool {
	return a.OutputValue == b.OutputValue && a.Module.Equal(b.Module)
}
