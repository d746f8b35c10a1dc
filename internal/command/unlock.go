package command

import (
	"bufio"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/command/views"
	"github.com/plankit/plankit/internal/operation"
	"github.com/plankit/plankit/tfdiags"
)

// ForceUnlock is `plan force-unlock [-force] [-state=PATH] LOCK_ID`, as
// `terraform force-unlock`: it removes the state lock whose ID is LOCK_ID,
// typically one left behind by a process that died. It asks for "yes"
// unless -force; without a terminal on stdin, -force is required.
func ForceUnlock(m *Meta, chdir string, args []string) int {
	fs := newSubFlagSet("plan force-unlock", forceUnlockUsage, chdir)
	force := fs.Bool("force", false, "do not ask for confirmation")
	stateFlag := fs.String("state", "", "state file (default terraform.tfstate, or the local backend's path)")
	noColor := fs.Bool("no-color", false, "disable colour")
	var bcfg multiFlag
	fs.Var(&bcfg, "backend-config", "backend setting KEY=VALUE, or a file of them")
	if code, ok := fs.parse(m, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		return usageError(m, "plan force-unlock needs exactly one argument: the lock ID")
	}
	id := fs.Arg(0)
	wd := m.workDir(fs.chdir)
	u := &ui{out: m.Stdout, errw: m.Stderr}
	u.col.Enabled = !*noColor && m.StdoutTTY
	src := views.Sources{Dir: wd}

	var config *configs.Config
	if *stateFlag == "" && operation.HasConfigFiles(wd) {
		var diags hcl.Diagnostics
		config, diags = configs.LoadConfigDir(wd)
		if diags.HasErrors() {
			u.diags(diags, src)
			return ExitError
		}
	}
	settings, diags := operation.ResolveBackend(m.Env, wd, config, *stateFlag, bcfg, nil)
	if diags.HasErrors() {
		u.diags(diags, src)
		return ExitError
	}
	o, diags := operation.OpenWorkspace(m.ctx(), settings)
	if diags.HasErrors() {
		u.diags(diags, src)
		return ExitError
	}
	defer o.Close()
	path := o.Mgr.Describe()
	view := views.UnlockView{Out: m.Stdout, Green: u.col.Green, Bold: u.col.Bold}
	if !*force {
		if !m.StdinTTY {
			u.diags(hcl.Diagnostics{tfdiags.Error("Confirmation needed",
				"force-unlock asks for confirmation, but standard input is not a terminal. Pass -force to remove the lock without asking.")}, src)
			return ExitError
		}
		view.Prompt(path)
		line, _ := bufio.NewReader(m.Stdin).ReadString('\n')
		if strings.TrimSpace(line) != "yes" {
			view.Cancelled()
			return ExitError
		}
	}
	if err := o.Mgr.Unlock(id); err != nil {
		u.diags(hcl.Diagnostics{tfdiags.Errorf("Failed to unlock state", "%s", err)}, src)
		return ExitError
	}
	view.Unlocked(path)
	return ExitOK
}
