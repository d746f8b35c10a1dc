package command

import (
	"fmt"
	"os"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/states/statemgr"
	"github.com/plankit/plankit/tfdiags"
)

const stateUsage = `Usage: plan state <subcommand> [options] [args]

  Reads and changes the state file directly. Changing commands lock the
  state and write a backup of it first (-backup=PATH; by default
  STATE.<unix time>.backup beside the state).

Subcommands:
    list    List the resource instances in the state
    show    Show one resource instance's attributes
    mv      Move (rename) an item in the state
    rm      Remove an item from the state (the real object is untouched)

Run "plan state <subcommand> -help" for each one's options.
`

// StateCmd dispatches `plan state <subcommand>`. Each subcommand lives in
// its own file (state_list.go, state_show.go, ...).
func StateCmd(m *Meta, chdir string, args []string) int {
	if len(args) == 0 {
		fmt.Fprint(m.Stderr, stateUsage)
		return ExitError
	}
	switch args[0] {
	case "list":
		return StateList(m, chdir, args[1:])
	case "show":
		return StateShow(m, chdir, args[1:])
	case "mv":
		return StateMv(m, chdir, args[1:])
	case "rm":
		return StateRm(m, chdir, args[1:])
	case "help", "-help", "--help", "-h":
		fmt.Fprint(m.Stdout, stateUsage)
		return ExitOK
	}
	return usageError(m, fmt.Sprintf("unknown state subcommand %q: plankit has state list, show, mv and rm", args[0]))
}

// stateFlags are the options every state subcommand shares.
type stateFlags struct {
	state       string
	lock        bool
	lockTimeout time.Duration
	backup      string
	dryRun      bool
	noColor     bool
}

// register adds -state and -no-color; changing subcommands pass
// changes=true for -lock, -lock-timeout, -backup and -dry-run.
func (f *stateFlags) register(fs *flagSet, changes bool) {
	fs.StringVar(&f.state, "state", "", "state file (default terraform.tfstate, or the local backend's path)")
	fs.BoolVar(&f.noColor, "no-color", false, "disable colour")
	if changes {
		fs.BoolVar(&f.lock, "lock", true, "lock the state file while changing it")
		fs.DurationVar(&f.lockTimeout, "lock-timeout", 0, "duration to retry a state lock")
		fs.StringVar(&f.backup, "backup", "", `backup file (default STATE.<unix time>.backup; "-" for none)`)
		fs.BoolVar(&f.dryRun, "dry-run", false, "only print what would change")
	}
}

// stateUI is the output of the state subcommands.
func stateUI(m *Meta, noColor bool) *ui {
	u := &ui{out: m.Stdout, errw: m.Stderr, errColor: !noColor && m.StderrTTY}
	u.col.Enabled = !noColor && m.StdoutTTY
	return u
}

// noStateFile is the error of a state subcommand run where there is no
// state file, as in Terraform.
func noStateFile(spath string) hcl.Diagnostics {
	return hcl.Diagnostics{tfdiags.Errorf("No state file was found!",
		"There is no state at %s. State management commands need a state file: run them in the directory of a configuration that has been applied, or point -state at the state file.", spath)}
}

// readStateOnly reads the state for list and show, without locking it.
func readStateOnly(m *Meta, wd string, f *stateFlags) (*states.State, Sources, hcl.Diagnostics) {
	src := Sources{Dir: wd}
	spath, diags := stateCommandPath(wd, f.state, &src)
	if diags.HasErrors() {
		return nil, src, diags
	}
	codec, ds := stateCodecIn(m, wd)
	if ds.HasErrors() {
		return nil, src, ds
	}
	mgr, release, ds := openStateWith(m.ctx(), spath, false, 0, "read", codec)
	if ds.HasErrors() {
		return nil, src, ds
	}
	release()
	sf := mgr.StateFile()
	if sf == nil || (sf.Lineage == "" && (sf.State == nil || sf.State.Empty())) {
		return nil, src, noStateFile(spath)
	}
	return sf.State, src, nil
}

// changeState locks the state (unless -lock=false), lets change modify
// it, and, unless -dry-run or nothing changed, writes it with a backup of
// the previous state. change returns the diagnostics to show and whether
// it changed anything; its errors leave the file untouched.
func changeState(m *Meta, u *ui, wd string, f *stateFlags, operation string, change func(*states.State) (bool, hcl.Diagnostics)) int {
	src := Sources{Dir: wd}
	spath, diags := stateCommandPath(wd, f.state, &src)
	if diags.HasErrors() {
		u.diags(diags, src)
		return ExitError
	}
	codec, ds := stateCodecIn(m, wd)
	if ds.HasErrors() {
		u.diags(ds, src)
		return ExitError
	}
	mgr, release, ds := openStateWith(m.ctx(), spath, f.lock, f.lockTimeout, operation, codec)
	if ds.HasErrors() {
		u.diags(ds, src)
		return ExitError
	}
	code := changeLocked(u, mgr, spath, f, change, src)
	if ds := release(); ds.HasErrors() {
		u.diags(ds, src)
		code = ExitError
	}
	return code
}

func changeLocked(u *ui, mgr *statemgr.Filesystem, spath string, f *stateFlags, change func(*states.State) (bool, hcl.Diagnostics), src Sources) int {
	sf := mgr.StateFile()
	if sf == nil || (sf.Lineage == "" && (sf.State == nil || sf.State.Empty())) {
		u.diags(noStateFile(spath), src)
		return ExitError
	}
	st := sf.State
	changed, diags := change(st)
	u.diags(diags, src)
	if diags.HasErrors() {
		return ExitError
	}
	if f.dryRun || !changed {
		return ExitOK
	}
	switch f.backup {
	case "-":
		mgr.SetBackupPath("")
	case "":
		mgr.SetBackupPath(defaultBackupPath(spath, time.Now()))
	default:
		mgr.SetBackupPath(f.backup)
	}
	err := mgr.WriteState(st)
	if err == nil {
		err = mgr.PersistState()
	}
	if err != nil {
		u.diags(hcl.Diagnostics{stateWriteFailed(spath, err)}, src)
		return ExitError
	}
	return ExitOK
}

// parseStateAddr parses an address given to a state subcommand: a module
// instance, a resource or a resource instance.
func parseStateAddr(s string) (addrs.Targetable, hcl.Diagnostics) {
	t, ds := addrs.ParseTargetStr(s)
	if ds.HasErrors() {
		return nil, hcl.Diagnostics{tfdiags.Errorf("Invalid address",
			"%q is not a resource, resource instance or module address: %s", s, ds[0].Detail)}
	}
	return t.Subject, nil
}

// matchingInstances lists the resource instances of st that t contains
// (all of them for a nil t), in address order.
func matchingInstances(st *states.State, t addrs.Targetable) []addrs.AbsResourceInstance {
	var out []addrs.AbsResourceInstance
	for _, a := range st.AllResourceInstances() {
		if t == nil || addrs.TargetContains(t, a) {
			out = append(out, a)
		}
	}
	return out
}

// defaultBackupPath is STATE.<unix time>.backup, as Terraform names it,
// with -1, -2, ... added when that file exists already (two changes in one
// second must not overwrite the first backup).
func defaultBackupPath(spath string, now time.Time) string {
	base := fmt.Sprintf("%s.%d", spath, now.Unix())
	p := base + ".backup"
	for i := 1; ; i++ {
		if _, err := os.Lstat(p); os.IsNotExist(err) {
			return p
		}
		p = fmt.Sprintf("%s-%d.backup", base, i)
	}
}
