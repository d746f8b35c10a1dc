package command

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/command/views"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/tfdiags"
)

const stateRmUsage = `Usage: plan state rm [options] ADDRESS...

  Removes items from the state: resource instances, whole resources or
  module instances. The real objects are not destroyed; plankit just
  stops managing them. Nothing is written when an address matches
  nothing.

Options:
  -state=PATH       State file (default terraform.tfstate, or the local
                    backend's path).
  -backend-config=KV
                    A backend setting KEY=VALUE, or a file of them
                    (repeatable), as plan takes.
  -backup=PATH      Where to save the state before changing it (default
                    STATE.<unix time>.backup; "-" for no backup).
  -dry-run          Only print what would be removed.
  -lock=false       Do not lock the state file.
  -lock-timeout=D   Retry a held state lock for D.
`

// StateRm is `plan state rm [options] ADDRESS...`.
func StateRm(m *Meta, chdir string, args []string) int {
	fs := newSubFlagSet("plan state rm", stateRmUsage, chdir)
	var f stateFlags
	f.register(fs, true)
	if code, ok := fs.parse(m, args); !ok {
		return code
	}
	if fs.NArg() == 0 {
		return usageError(m, "plan state rm needs at least one address")
	}
	u := stateUI(m, f.noColor)
	var targets []addrs.Targetable
	var diags hcl.Diagnostics
	for _, a := range fs.Args() {
		t, ds := parseStateAddr(a)
		diags = append(diags, ds...)
		targets = append(targets, t)
	}
	if diags.HasErrors() {
		u.diags(diags, views.Sources{})
		return ExitError
	}
	verb := "Removed"
	if f.dryRun {
		verb = "Would remove"
	}
	return changeState(m, u, m.workDir(fs.chdir), &f, "OperationTypeStateRm", func(st *states.State) (bool, hcl.Diagnostics) {
		var remove []addrs.AbsResourceInstance
		seen := map[string]bool{}
		var diags hcl.Diagnostics
		for _, t := range targets {
			found := matchingInstances(st, t)
			if len(found) == 0 {
				diags = append(diags, tfdiags.Errorf("Invalid target address",
					"No matching objects found for %s. To view the available instances, use: plan state list", t))
			}
			for _, a := range found {
				if !seen[a.String()] {
					seen[a.String()] = true
					remove = append(remove, a)
				}
			}
		}
		if diags.HasErrors() {
			return false, diags
		}
		for _, a := range remove {
			fmt.Fprintf(m.Stdout, "%s %s\n", verb, a)
			if !f.dryRun {
				removeInstance(st, a)
			}
		}
		if !f.dryRun {
			fmt.Fprintf(m.Stdout, "Successfully removed %d resource instance(s).\n", len(remove))
		}
		return len(remove) > 0, nil
	})
}

// removeInstance removes every object of instance a.
func removeInstance(st *states.State, a addrs.AbsResourceInstance) {
	ri := st.ResourceInstance(a)
	rs := st.Resource(a.ContainingResource())
	if ri == nil || rs == nil {
		return
	}
	for k := range ri.Deposed {
		st.SetResourceInstanceDeposed(a, k, nil, rs.ProviderConfig)
	}
	st.SetResourceInstanceCurrent(a, nil, rs.ProviderConfig)
}
