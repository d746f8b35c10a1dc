package command

import (
	"fmt"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/backend"
	"github.com/plankit/plankit/internal/command/views"
	"github.com/plankit/plankit/internal/operation"
	"github.com/plankit/plankit/tfdiags"
)

const workspaceUsage = `Usage: plan workspace list|show|new|select|delete [options] [NAME]

  Workspaces are separate states of one configuration, in the same
  backend: terraform.tfstate.d/NAME/terraform.tfstate locally, one row per
  workspace in PostgreSQL. The selection is kept in .terraform/environment;
  TF_WORKSPACE overrides it. terraform.workspace is its name.

  list                 List workspaces, the selected one marked with *.
  show                 Print the selected workspace's name.
  new NAME             Create a workspace and select it.
  select NAME          Select a workspace (-or-create creates it if missing).
  delete NAME          Delete a workspace; its state must be empty unless
                       -force. The selected workspace cannot be deleted.

Options:
  -backend-config=KEY=VALUE|FILE  Backend setting (repeatable).
  -lock=false          Do not lock the state (new, delete).
  -lock-timeout=D      Retry a held state lock for D (new, delete).
  -force               delete: delete even a state that tracks objects.
  -or-create           select: create the workspace when it does not exist.
`

// workspaceCmd holds what every workspace subcommand needs.
type workspaceCmd struct {
	m           *Meta
	u           *ui
	wd          string
	settings    *operation.Backend
	sel         backend.Selection
	lock        bool
	lockTimeout time.Duration
}

// Workspace is `plan workspace list|show|new|select|delete`, as
// `terraform workspace`.
func Workspace(m *Meta, chdir string, args []string) int {
	chdir, args = moreChdir(chdir, args) // plan workspace -chdir=DIR list
	if len(args) == 0 {
		fmt.Fprint(m.Stderr, workspaceUsage)
		return ExitError
	}
	sub, args := args[0], args[1:]
	if sub == "help" || sub == "-help" || sub == "--help" || sub == "-h" {
		fmt.Fprint(m.Stdout, workspaceUsage)
		return ExitOK
	}
	fs := newFlagSetT("plan workspace "+sub, m.Stderr, workspaceUsage)
	fs.StringVar(&chdir, "chdir", chdir, "switch to this working directory before anything else")
	var bcfg multiFlag
	fs.Var(&bcfg, "backend-config", "backend setting KEY=VALUE, or a file of them")
	lock := fs.Bool("lock", true, "lock the state")
	lockTimeout := fs.Duration("lock-timeout", 0, "retry a held lock for this long")
	force := fs.Bool("force", false, "delete a workspace whose state is not empty")
	orCreate := fs.Bool("or-create", false, "select: create the workspace if it does not exist")
	noColor := fs.Bool("no-color", false, "disable colour")
	if code, ok := fs.parse(m, args); !ok {
		return code
	}
	wantArgs := map[string]int{"list": 0, "show": 0, "new": 1, "select": 1, "delete": 1}
	n, ok := wantArgs[sub]
	if !ok {
		return usageError(m, fmt.Sprintf("unknown workspace subcommand %q: use list, show, new, select or delete", sub))
	}
	if fs.NArg() != n {
		if n == 0 {
			return usageError(m, fmt.Sprintf("plan workspace %s takes no arguments", sub))
		}
		return usageError(m, fmt.Sprintf("plan workspace %s needs exactly one argument: the workspace name", sub))
	}
	c := &workspaceCmd{m: m, wd: m.workDir(chdir), lock: *lock, lockTimeout: *lockTimeout}
	c.u = &ui{out: m.Stdout, errw: m.Stderr}
	c.u.col.Enabled = !*noColor && m.StdoutTTY
	var diags hcl.Diagnostics
	if sub != "show" {
		var config *configs.Config
		if operation.HasConfigFiles(c.wd) {
			config, diags = configs.LoadConfigDir(c.wd)
			if diags.HasErrors() {
				c.u.diags(diags, views.Sources{Dir: c.wd})
				return ExitError
			}
		}
		c.settings, diags = operation.ResolveBackend(m.Env, c.wd, config, "", bcfg, nil)
		if diags.HasErrors() {
			c.u.diags(diags, views.Sources{Dir: c.wd})
			return ExitError
		}
	}
	sel, err := backend.CurrentWorkspace(c.wd, m.Env)
	if err != nil {
		return c.fail(tfdiags.Errorf("Invalid workspace selection", "%s", err))
	}
	c.sel = sel
	switch sub {
	case "list":
		return c.list()
	case "show":
		fmt.Fprintln(m.Stdout, sel.Name)
		return ExitOK
	case "new":
		return c.create(fs.Arg(0))
	case "select":
		return c.selectWS(fs.Arg(0), *orCreate)
	default:
		return c.delete(fs.Arg(0), *force)
	}
}

func (c *workspaceCmd) fail(d ...*hcl.Diagnostic) int {
	c.u.diags(d, views.Sources{Dir: c.wd})
	return ExitError
}

func (c *workspaceCmd) names() ([]string, backend.Backend, int) {
	be, err := c.settings.Open(c.m.ctx())
	if err != nil {
		return nil, nil, c.fail(tfdiags.Errorf("Failed to open the state backend", "%s", err))
	}
	names, err := be.Workspaces(c.m.ctx())
	if err != nil {
		be.Close()
		return nil, nil, c.fail(tfdiags.Errorf("Failed to list workspaces", "%s", err))
	}
	return names, be, ExitOK
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (c *workspaceCmd) list() int {
	names, be, code := c.names()
	if code != ExitOK {
		return code
	}
	defer be.Close()
	for _, n := range names {
		mark := "  "
		if n == c.sel.Name {
			mark = "* "
		}
		fmt.Fprintf(c.m.Stdout, "%s%s\n", mark, n)
	}
	fmt.Fprintln(c.m.Stdout)
	return ExitOK
}

// overridden refuses to change the selection while TF_WORKSPACE sets it.
func (c *workspaceCmd) overridden() int {
	if c.sel.Source != backend.WorkspaceEnvVar {
		return ExitOK
	}
	return c.fail(tfdiags.Error("Workspace overridden",
		"The selected workspace is currently overridden using the TF_WORKSPACE environment variable.\n\nTo select a new workspace, either update this environment variable or unset it and then run this command again."))
}

func (c *workspaceCmd) create(name string) int {
	if err := backend.ValidWorkspaceName(name); err != nil {
		return c.fail(tfdiags.Errorf("Invalid workspace name", "%s.", err))
	}
	if code := c.overridden(); code != ExitOK {
		return code
	}
	names, be, code := c.names()
	if code != ExitOK {
		return code
	}
	be.Close()
	if contains(names, name) {
		return c.fail(tfdiags.Errorf("Workspace already exists", "Workspace %q already exists.", name))
	}
	s := c.settings.WithWorkspace(name)
	codec, ds := operation.StateCodecIn(c.m.Env, c.wd) // its first state is encrypted too
	if ds.HasErrors() {
		return c.fail(ds...)
	}
	o, ds := operation.CreateWorkspace(c.m.ctx(), s, codec)
	if ds.HasErrors() {
		return c.fail(ds...)
	}
	o.Close()
	if err := backend.SelectWorkspace(c.wd, name); err != nil {
		return c.fail(tfdiags.Errorf("Failed to select the workspace", "%s", err))
	}
	fmt.Fprintf(c.m.Stdout, "%s\n\nYou're now on a new, empty workspace. Workspaces isolate their state,\nso if you run \"plan\" plankit will not see any existing state\nfor this configuration.\n",
		c.u.col.Green(c.u.col.Bold(fmt.Sprintf("Created and switched to workspace %q!", name))))
	return ExitOK
}

func (c *workspaceCmd) selectWS(name string, orCreate bool) int {
	if err := backend.ValidWorkspaceName(name); err != nil {
		return c.fail(tfdiags.Errorf("Invalid workspace name", "%s.", err))
	}
	if code := c.overridden(); code != ExitOK {
		return code
	}
	if name == c.sel.Name {
		fmt.Fprintf(c.m.Stdout, "Already on workspace %q.\n", name)
		return ExitOK
	}
	names, be, code := c.names()
	if code != ExitOK {
		return code
	}
	be.Close()
	if !contains(names, name) {
		if !orCreate {
			return c.fail(tfdiags.Errorf("Workspace does not exist",
				"Workspace %q doesn't exist.\n\nYou can create this workspace with \"plan workspace new %s\", or select it with -or-create.", name, name))
		}
		return c.create(name)
	}
	if err := backend.SelectWorkspace(c.wd, name); err != nil {
		return c.fail(tfdiags.Errorf("Failed to select the workspace", "%s", err))
	}
	fmt.Fprintln(c.m.Stdout, c.u.col.Green(fmt.Sprintf("Switched to workspace %q.", name)))
	return ExitOK
}

func (c *workspaceCmd) delete(name string, force bool) int {
	if err := backend.ValidWorkspaceName(name); err != nil {
		return c.fail(tfdiags.Errorf("Invalid workspace name", "%s.", err))
	}
	if name == backend.DefaultWorkspace {
		return c.fail(tfdiags.Error("Cannot delete the default workspace", "The default workspace always exists and cannot be deleted."))
	}
	if name == c.sel.Name {
		return c.fail(tfdiags.Errorf("Workspace is selected",
			"Workspace %q is your active workspace.\n\nYou cannot delete the currently active workspace. Please switch to another workspace and try again.", name))
	}
	names, be, code := c.names()
	if code != ExitOK {
		return code
	}
	defer be.Close()
	if !contains(names, name) {
		return c.fail(tfdiags.Errorf("Workspace does not exist", "Workspace %q doesn't exist.", name))
	}
	s := c.settings.WithWorkspace(name)
	mgr, release, ds := operation.OpenBackendState(c.m.ctx(), s, c.lock, c.lockTimeout, "OperationTypeDeleteWorkspace")
	if ds.HasErrors() {
		return c.fail(ds...)
	}
	st := mgr.State()
	if st != nil && !st.Empty() && !force {
		release()
		return c.fail(tfdiags.Errorf("Workspace is not empty",
			"Workspace %q is currently tracking resources or outputs.\n\nDeleting it would lose the record of them while they still exist. Destroy them first (plan -destroy and apply in that workspace), or delete with -force to forget them.", name))
	}
	// The lock lives in the workspace being deleted: release it first for
	// the local backend (its lock file sits in the directory removed).
	if c.settings.Type() == "local" {
		if ds := release(); ds.HasErrors() {
			return c.fail(ds...)
		}
		release = func() hcl.Diagnostics { return nil }
	}
	err := be.DeleteWorkspace(c.m.ctx(), name)
	if ds := release(); ds.HasErrors() && err == nil {
		c.u.diags(ds, views.Sources{Dir: c.wd})
	}
	if err != nil {
		return c.fail(tfdiags.Errorf("Failed to delete the workspace", "%s", err))
	}
	if st != nil && !st.Empty() {
		fmt.Fprintf(c.m.Stderr, "Warning: workspace %q was not empty; the objects its state tracked still exist but are no longer managed.\n", name)
	}
	fmt.Fprintln(c.m.Stdout, c.u.col.Green(fmt.Sprintf("Deleted workspace %q!", name)))
	return ExitOK
}
