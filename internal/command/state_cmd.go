package command

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/atomicfile"
	"github.com/plankit/plankit/internal/backend"
	"github.com/plankit/plankit/internal/backend/local"
	"github.com/plankit/plankit/internal/command/views"
	"github.com/plankit/plankit/internal/operation"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/states/statefile"
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
    pull    Print the selected workspace's stored state (any backend)
    push    Replace the selected workspace's state with a state file

Run "plan state <subcommand> -help" for each one's options.
`

// StateCmd dispatches `plan state <subcommand>`. Each subcommand lives in
// its own file (state_list.go, state_show.go, ...).
func StateCmd(m *Meta, chdir string, args []string) int {
	chdir, args = moreChdir(chdir, args) // plan state -chdir=DIR list
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
	case "pull":
		return StatePull(m, chdir, args[1:])
	case "push":
		return StatePush(m, chdir, args[1:])
	case "help", "-help", "--help", "-h":
		fmt.Fprint(m.Stdout, stateUsage)
		return ExitOK
	}
	return usageError(m, fmt.Sprintf("unknown state subcommand %q: plankit has state list, show, mv, rm, pull and push", args[0]))
}

// stateFlags are the options every state subcommand shares.
type stateFlags struct {
	state         string
	backendConfig multiFlag
	lock          bool
	lockTimeout   time.Duration
	backup        string
	dryRun        bool
	noColor       bool
}

// register adds -state, -backend-config and -no-color; changing
// subcommands pass changes=true for -lock, -lock-timeout, -backup and
// -dry-run.
func (f *stateFlags) register(fs *flagSet, changes bool) {
	fs.StringVar(&f.state, "state", "", "state file (default terraform.tfstate, or the local backend's path)")
	fs.Var(&f.backendConfig, "backend-config", "backend setting KEY=VALUE, or a file of them (repeatable)")
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
// state, as in Terraform.
func noStateFile(where string) hcl.Diagnostics {
	return hcl.Diagnostics{tfdiags.Errorf("No state file was found!",
		"There is no state in %s. State management commands need a state: run them in the directory of a configuration that has been applied, or point -state at the state file.", where)}
}

// stateTarget is where the state and output commands find the state: the
// file -state names, or else the working directory's backend (its
// configuration is read for the backend block only; a directory without
// configuration uses terraform.tfstate) in the selected workspace.
func stateTarget(m *Meta, wd, stateFlag string, backendConfig []string, src *views.Sources) (*operation.Backend, hcl.Diagnostics) {
	var config *configs.Config
	if stateFlag == "" && operation.HasConfigFiles(wd) {
		var diags hcl.Diagnostics
		config, diags = configs.LoadConfigDir(wd)
		if config != nil {
			src.Files = config.SourceFiles()
		}
		if diags.HasErrors() {
			return nil, diags
		}
	}
	return operation.ResolveBackend(m.Env, wd, config, stateFlag, backendConfig, nil)
}

// noState reports whether sf holds no state at all (never written).
func noState(sf *statefile.File) bool {
	return sf == nil || (sf.Lineage == "" && (sf.State == nil || sf.State.Empty()))
}

// readStateOnly reads the state for list and show, without locking it.
func readStateOnly(m *Meta, wd string, f *stateFlags) (*states.State, views.Sources, hcl.Diagnostics) {
	sf, where, src, diags := readStoredState(m, wd, f.state, f.backendConfig)
	if diags.HasErrors() {
		return nil, src, diags
	}
	if noState(sf) {
		return nil, src, noStateFile(where)
	}
	return sf.State, src, nil
}

// changeState locks the state (unless -lock=false), lets change modify
// it, and, unless -dry-run or nothing changed, writes it after saving a
// backup of the previous state. change returns the diagnostics to show
// and whether it changed anything; its errors leave the state untouched.
func changeState(m *Meta, u *ui, wd string, f *stateFlags, opType string, change func(*states.State) (bool, hcl.Diagnostics)) int {
	src := views.Sources{Dir: wd}
	target, diags := stateTarget(m, wd, f.state, f.backendConfig, &src)
	if diags.HasErrors() {
		u.diags(diags, src)
		return ExitError
	}
	codec, ds := operation.StateCodecIn(m.Env, wd)
	if ds.HasErrors() {
		u.diags(ds, src)
		return ExitError
	}
	mgr, release, ds := operation.OpenBackendStateWith(m.ctx(), target, f.lock, f.lockTimeout, opType, codec)
	if ds.HasErrors() {
		u.diags(ds, src)
		return ExitError
	}
	code := changeLocked(u, mgr, wd, target, f, change, src)
	if ds := release(); ds.HasErrors() {
		u.diags(ds, src)
		code = ExitError
	}
	return code
}

func changeLocked(u *ui, mgr backend.StateMgr, wd string, target *operation.Backend, f *stateFlags, change func(*states.State) (bool, hcl.Diagnostics), src views.Sources) int {
	before := mgr.StateFile()
	if noState(before) {
		u.diags(noStateFile(mgr.Describe()), src)
		return ExitError
	}
	st := before.State.DeepCopy()
	changed, diags := change(st)
	u.diags(diags, src)
	if diags.HasErrors() {
		return ExitError
	}
	if f.dryRun || !changed {
		return ExitOK
	}
	if ds := backupState(mgr, wd, target, f.backup, before); ds.HasErrors() {
		u.diags(ds, src)
		return ExitError
	}
	err := mgr.WriteState(st)
	if err == nil {
		err = mgr.PersistState()
	}
	if err != nil {
		u.diags(hcl.Diagnostics{operation.StateWriteFailed(mgr.Describe(), err)}, src)
		return ExitError
	}
	return ExitOK
}

// backupState saves the state as it was before a change: to -backup, or
// STATE.<unix time>.backup beside a local state file (terraform.tfstate's
// place in the working directory for a remote backend); "-" disables it.
// A local state manager writes it itself, on its first persist; for a
// remote backend it is written here, before anything changes.
func backupState(mgr backend.StateMgr, wd string, target *operation.Backend, flag string, before *statefile.File) hcl.Diagnostics {
	if flag == "-" {
		if lm, ok := mgr.(*local.Mgr); ok {
			lm.SetBackupPath("")
		}
		return nil
	}
	path := flag
	if path == "" {
		base := target.LocalPath()
		if base == "" {
			base = operation.Resolve(wd, "terraform.tfstate")
		}
		path = defaultBackupPath(base, time.Now())
	} else {
		path = operation.Resolve(wd, path)
	}
	if lm, ok := mgr.(*local.Mgr); ok {
		lm.SetBackupPath(path)
		return nil
	}
	err := atomicfile.Write(path, 0o600, func(w io.Writer) error { return statefile.Write(before, w) }, nil)
	if err != nil {
		return hcl.Diagnostics{tfdiags.Errorf("Failed to write the state backup", "Writing %s failed: %s\n\nNothing was changed.", path, err)}
	}
	return nil
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

// stateCommandSettings resolves the backend of the state and output
// commands: the working directory's configuration is read only for its
// backend block (a directory without configuration is fine), and -state
// names a local file.
func stateCommandSettings(m *Meta, wd, stateFlag string, src *views.Sources) (*operation.Backend, hcl.Diagnostics) {
	var config *configs.Config
	if stateFlag == "" && operation.HasConfigFiles(wd) {
		var diags hcl.Diagnostics
		config, diags = configs.LoadConfigDir(wd)
		if config != nil {
			src.Files = config.SourceFiles()
		}
		if diags.HasErrors() {
			return nil, diags
		}
	}
	return operation.ResolveBackend(m.Env, wd, config, stateFlag, nil, nil)
}
