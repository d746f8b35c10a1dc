package command

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/command/views"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/tfdiags"
)

const stateMvUsage = `Usage: plan state mv [options] SOURCE DESTINATION

  Moves an item in the state to another address: a resource instance, a
  whole resource (all its instances) or a module instance (everything in
  it), for a renamed block or a block moved into a module. The real
  objects are not touched. Nothing is written when the destination
  already exists or the resource types differ.

Options:
  -state=PATH       State file (default terraform.tfstate, or the local
                    backend's path).
  -backend-config=KV
                    A backend setting KEY=VALUE, or a file of them
                    (repeatable), as plan takes.
  -backup=PATH      Where to save the state before changing it (default
                    STATE.<unix time>.backup; "-" for no backup).
  -dry-run          Only print what would move.
  -lock=false       Do not lock the state file.
  -lock-timeout=D   Retry a held state lock for D.
`

// StateMv is `plan state mv [options] SOURCE DESTINATION`.
func StateMv(m *Meta, chdir string, args []string) int {
	fs := newSubFlagSet("plan state mv", stateMvUsage, chdir)
	var f stateFlags
	f.register(fs, true)
	if code, ok := fs.parse(m, args); !ok {
		return code
	}
	if fs.NArg() != 2 {
		return usageError(m, "plan state mv needs exactly two addresses: SOURCE DESTINATION")
	}
	u := stateUI(m, f.noColor)
	from, ds1 := parseStateAddr(fs.Arg(0))
	to, ds2 := parseStateAddr(fs.Arg(1))
	if diags := append(ds1, ds2...); diags.HasErrors() {
		u.diags(diags, views.Sources{})
		return ExitError
	}
	verb := "Move"
	if f.dryRun {
		verb = "Would move"
	}
	return changeState(m, u, m.workDir(fs.chdir), &f, "OperationTypeStateMv", func(st *states.State) (bool, hcl.Diagnostics) {
		moves, diags := planMoves(st, from, to)
		if diags.HasErrors() {
			return false, diags
		}
		for _, mv := range moves {
			fmt.Fprintf(m.Stdout, "%s %q to %q\n", verb, mv[0].String(), mv[1].String())
			if !f.dryRun {
				moveInstance(st, mv[0], mv[1])
			}
		}
		if !f.dryRun {
			fmt.Fprintf(m.Stdout, "Successfully moved %d object(s).\n", len(moves))
		}
		return len(moves) > 0, nil
	})
}

// planMoves lists the instance moves (from, to) that move the state item
// from to the address to, or explains why it cannot be moved.
func planMoves(st *states.State, from, to addrs.Targetable) ([][2]addrs.AbsResourceInstance, hcl.Diagnostics) {
	bad := func(format string, args ...any) hcl.Diagnostics {
		return hcl.Diagnostics{tfdiags.Errorf("Invalid state move request", "Cannot move %s to %s: %s", from, to, fmt.Sprintf(format, args...))}
	}
	// A resource with one unkeyed instance moves like that instance
	// (null_resource.a to null_resource.a[0], and back).
	if r, ok := from.(addrs.AbsResource); ok {
		if _, toInst := to.(addrs.AbsResourceInstance); toInst {
			from = r.Instance(addrs.NoKey)
		}
	}
	if _, ok := from.(addrs.AbsResourceInstance); ok {
		if r, toRes := to.(addrs.AbsResource); toRes {
			to = r.Instance(addrs.NoKey)
		}
	}
	var moves [][2]addrs.AbsResourceInstance
	switch src := from.(type) {
	case addrs.AbsResourceInstance:
		dst, ok := to.(addrs.AbsResourceInstance)
		if !ok {
			return nil, bad("the destination must be a resource instance address")
		}
		if st.ResourceInstance(src) == nil {
			return nil, bad("there is no %s in the state", src)
		}
		if msg := typesDiffer(src.ContainingResource(), dst.ContainingResource()); msg != "" {
			return nil, bad("%s", msg)
		}
		if st.ResourceInstance(dst) != nil {
			return nil, bad("%s already exists in the state", dst)
		}
		moves = append(moves, [2]addrs.AbsResourceInstance{src, dst})
	case addrs.AbsResource:
		dst, ok := to.(addrs.AbsResource)
		if !ok {
			return nil, bad("the destination must be a resource address")
		}
		rs := st.Resource(src)
		if rs == nil {
			return nil, bad("there is no %s in the state", src)
		}
		if msg := typesDiffer(src, dst); msg != "" {
			return nil, bad("%s", msg)
		}
		if st.Resource(dst) != nil {
			return nil, bad("%s already exists in the state", dst)
		}
		for _, a := range matchingInstances(st, src) {
			moves = append(moves, [2]addrs.AbsResourceInstance{a, dst.Instance(a.Resource.Key)})
		}
	case addrs.ModuleInstance:
		dst, ok := to.(addrs.ModuleInstance)
		if !ok || dst.IsRoot() || src.IsRoot() {
			return nil, bad("a module instance moves only to another module instance address")
		}
		for _, a := range st.AllResourceInstances() {
			if !a.Module.Equal(src) && !src.IsAncestorOf(a.Module) {
				continue
			}
			na := a
			na.Module = append(append(addrs.ModuleInstance{}, dst...), a.Module[len(src):]...)
			if st.ResourceInstance(na) != nil {
				return nil, bad("%s already exists in the state", na)
			}
			moves = append(moves, [2]addrs.AbsResourceInstance{a, na})
		}
		if len(moves) == 0 {
			return nil, bad("there is no resource in %s in the state", src)
		}
	}
	return moves, nil
}

// typesDiffer explains why an object of resource a cannot be recorded as
// one of resource b: another mode or resource type.
func typesDiffer(a, b addrs.AbsResource) string {
	if a.Resource.Mode != b.Resource.Mode || a.Resource.Type != b.Resource.Type {
		return fmt.Sprintf("resource types don't match (%s is not %s)", a.Resource.Type, b.Resource.Type)
	}
	return ""
}

// moveInstance moves every object of instance from (current and deposed)
// to instance to, keeping the resource's provider configuration.
func moveInstance(st *states.State, from, to addrs.AbsResourceInstance) {
	rs := st.Resource(from.ContainingResource())
	ri := st.ResourceInstance(from)
	if rs == nil || ri == nil {
		return
	}
	provider := rs.ProviderConfig
	if ri.Current != nil {
		st.SetResourceInstanceCurrent(to, ri.Current, provider)
	}
	for k, obj := range ri.Deposed {
		st.SetResourceInstanceDeposed(to, k, obj, provider)
	}
	for k := range ri.Deposed {
		st.SetResourceInstanceDeposed(from, k, nil, provider)
	}
	st.SetResourceInstanceCurrent(from, nil, provider)
}
