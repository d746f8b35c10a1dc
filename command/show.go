package command

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/command/jsonplan"
	"github.com/plankit/plankit/command/render"
	"github.com/plankit/plankit/tfdiags"
)

// Show is `plan show [-json] [-no-color] FILE`.
func Show(m *Meta, chdir string, args []string) int {
	fs := newSubFlagSet("plan show", showUsage, chdir)
	jsonOut := fs.Bool("json", false, "print Terraform's JSON plan representation")
	noColor := fs.Bool("no-color", false, "disable colour")
	if code, ok := fs.parse(m, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		return usageError(m, "plan show needs exactly one plan file")
	}
	wd := workDir(fs.chdir)
	u := &ui{out: m.Stdout, errw: m.Stderr, col: render.Colorizer{Enabled: !*noColor && m.StdoutTTY}}
	path := resolve(wd, fs.Arg(0))
	if *jsonOut {
		return showJSON(m, u, wd, path)
	}
	return showHuman(m, u, wd, path)
}

// showJSON is plan show -json: the configuration snapshot is parsed while
// the plan is decoded and the resource entries, which come first in the
// document, are written; the document is streamed, each resource's JSON
// made as it is written.
func showJSON(m *Meta, u *ui, wd, path string) int {
	r, p, cl, diags := readArchiveLoadingConfig(m, wd, path)
	if diags.HasErrors() {
		u.diags(diags, Sources{})
		return ExitError
	}
	defer r.Close()
	defer cl.finish()
	if err := jsonplan.Write(m.Stdout, p, jsonplan.Options{Version: Version, LoadConfig: cl.wait}); err != nil {
		u.diags(hcl.Diagnostics{tfdiags.Errorf("Failed to render the plan as JSON", "%s", err)}, Sources{})
		return ExitError
	}
	return ExitOK
}
