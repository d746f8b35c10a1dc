package command

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/internal/command/render"
	"github.com/plankit/plankit/internal/command/views"
	"github.com/plankit/plankit/internal/operation"
	"github.com/plankit/plankit/jsonplan"
	"github.com/plankit/plankit/planfile"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/tfdiags"
)

// Show is `plan show [-json] [-no-color] [-verify-key=FILE] FILE`.
func Show(m *Meta, chdir string, args []string) int {
	fs := newSubFlagSet("plan show", showUsage, chdir)
	jsonOut := fs.Bool("json", false, "print Terraform's JSON plan representation")
	noColor := fs.Bool("no-color", false, "disable colour")
	verifyKey := fs.String("verify-key", "", "refuse a plan archive not signed by this ed25519 public key")
	if code, ok := fs.parse(m, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		return usageError(m, "plan show needs exactly one plan file")
	}
	wd := m.workDir(fs.chdir)
	u := &ui{out: m.Stdout, errw: m.Stderr, col: render.Colorizer{Enabled: !*noColor && m.StdoutTTY}}
	path := operation.Resolve(wd, fs.Arg(0))
	opts, diags := operation.VerifyKeyOptions(wd, *verifyKey)
	if diags.HasErrors() {
		u.diags(diags, views.Sources{})
		return ExitError
	}
	enc, diags := operation.LoadEncryptionIn(m.Env, wd)
	if diags.HasErrors() {
		u.diags(diags, views.Sources{})
		return ExitError
	}
	r, diags := operation.OpenArchive(path, enc, opts...)
	if diags.HasErrors() {
		u.diags(diags, views.Sources{})
		return ExitError
	}
	if *jsonOut {
		return showJSON(m, u, r, path)
	}
	return showHuman(m, u, r)
}

// showJSON is plan show -json. The members made from the configuration
// are copied from the archive's planfile.EntryShowJSON, made at plan
// time; an archive without it (an older plankit's, or one planned with
// -generate-config-out) has its configuration snapshot parsed while the
// plan is decoded and the resource entries, which come first in the
// document, are written. The document is streamed, each resource's JSON
// made as it is written.
func showJSON(m *Meta, u *ui, r *planfile.Reader, path string) int {
	raw, ok := r.ShowJSON()
	if !ok {
		return showJSONLoadingConfig(m, u, r)
	}
	sections, err := jsonplan.ParseSections(raw)
	if err != nil {
		r.Close()
		u.diags(operation.ArchiveDiags(&planfile.Error{Kind: planfile.KindCorrupt, Path: path, Entry: planfile.EntryShowJSON, Err: err}), views.Sources{})
		return ExitError
	}
	locks, err := r.ReadDependencyLocks()
	var p *plans.Plan
	if err == nil {
		p, err = r.ReadPlan()
	}
	r.Close() // nothing else is read from it: its entries are not kept through the writing
	if err != nil {
		u.diags(operation.ArchiveDiags(err), views.Sources{})
		return ExitError
	}
	return writeShowJSON(m, u, p, jsonplan.Options{Version: Version, Sections: sections, Hosts: jsonplan.HostsFromLocks(locks)})
}

// showJSONLoadingConfig is showJSON for an archive without
// planfile.EntryShowJSON.
func showJSONLoadingConfig(m *Meta, u *ui, r *planfile.Reader) int {
	locks, err := r.ReadDependencyLocks() // before the loader may close r
	if err != nil {
		r.Close()
		u.diags(operation.ArchiveDiags(err), views.Sources{})
		return ExitError
	}
	p, cl, diags := readPlanLoadingConfig(r)
	if diags.HasErrors() {
		u.diags(diags, views.Sources{})
		return ExitError
	}
	defer cl.finish()
	return writeShowJSON(m, u, p, jsonplan.Options{Version: Version, LoadConfig: cl.wait, Hosts: jsonplan.HostsFromLocks(locks)})
}

// writeShowJSON writes the document of p to standard output.
func writeShowJSON(m *Meta, u *ui, p *plans.Plan, opts jsonplan.Options) int {
	if err := jsonplan.Write(m.Stdout, p, opts); err != nil {
		u.diags(hcl.Diagnostics{tfdiags.Errorf("Failed to render the plan as JSON", "%s", err)}, views.Sources{})
		return ExitError
	}
	return ExitOK
}
