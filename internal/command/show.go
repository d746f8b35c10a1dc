package command

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/internal/command/render"
	"github.com/plankit/plankit/internal/command/views"
	"github.com/plankit/plankit/internal/encryption"
	"github.com/plankit/plankit/internal/operation"
	"github.com/plankit/plankit/internal/review"
	"github.com/plankit/plankit/jsonplan"
	"github.com/plankit/plankit/planfile"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/tfdiags"
)

// showRequest is what plan show's options ask for.
type showRequest struct {
	files            []string
	jsonOut, redact  bool
	format           string // "", "markdown" or "html"
	maxBytes         int
	detailedExitcode bool
	verifyKey        string
	state            string // -state: say how far the plan is applied to it
}

// Show is `plan show [-json [-redact]] [-format=markdown|html]
// [-max-bytes=N] [-detailed-exitcode] [-no-color] [-verify-key=FILE]
// FILE...`. It reads plankit's archives and the plan files Terraform and
// OpenTofu write (shown and compared, never applied).
func Show(m *Meta, chdir string, args []string) int {
	fs := newSubFlagSet("plan show", showUsage, chdir)
	var req showRequest
	fs.BoolVar(&req.jsonOut, "json", false, "print Terraform's JSON plan representation")
	fs.BoolVar(&req.redact, "redact", false, "with -json: replace every sensitive value")
	fs.StringVar(&req.format, "format", "", "markdown or html: the review summary or report")
	fs.IntVar(&req.maxBytes, "max-bytes", review.DefaultMaxBytes, "size limit of -format=markdown")
	fs.BoolVar(&req.detailedExitcode, "detailed-exitcode", false, "exit 2 when a plan has changes")
	noColor := fs.Bool("no-color", false, "disable colour")
	fs.StringVar(&req.verifyKey, "verify-key", "", "refuse a plan archive not signed by this ed25519 public key")
	fs.StringVar(&req.state, "state", "", "say how far the plan is applied to this state (docs/resume.md)")
	if code, ok := fs.parse(m, args); !ok {
		return code
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	req.files = fs.Args()
	if msg := req.check(set); msg != "" {
		return usageError(m, msg)
	}
	wd := m.workDir(fs.chdir)
	u := &ui{out: m.Stdout, errw: m.Stderr, col: render.Colorizer{Enabled: !*noColor && m.StdoutTTY}}
	opts, diags := operation.VerifyKeyOptions(wd, req.verifyKey)
	if diags.HasErrors() {
		u.diags(diags, views.Sources{})
		return ExitError
	}
	enc, diags := operation.LoadEncryptionIn(m.Env, wd)
	if diags.HasErrors() {
		u.diags(diags, views.Sources{})
		return ExitError
	}
	// Terraform's and OpenTofu's plan files are read here (apply never
	// opens them).
	opts = append(opts, planfile.WithForeign())
	if req.format != "" {
		return showReview(m, u, wd, req, enc, opts)
	}
	path := operation.Resolve(wd, req.files[0])
	r, diags := operation.OpenArchive(path, enc, opts...)
	if diags.HasErrors() {
		u.diags(diags, views.Sources{})
		return ExitError
	}
	if r.Foreign() != nil {
		return showForeign(m, u, r, req)
	}
	if req.jsonOut {
		return showJSON(m, u, r, path, req)
	}
	if req.state != "" {
		if diags := showResumeProgress(m, u, wd, r, path, req.state); diags.HasErrors() {
			u.diags(diags, views.Sources{})
			return ExitError
		}
	}
	return showHuman(m, u, r, req)
}

// check returns the usage error of a request whose options do not go
// together, "" when they do; set holds the options given.
func (req *showRequest) check(set map[string]bool) string {
	switch {
	case len(req.files) == 0:
		return "plan show needs exactly one plan file (or several with -format=markdown or -format=html)"
	case req.format != "" && req.format != "markdown" && req.format != "html":
		return fmt.Sprintf("-format=%s is not a format plan show writes: use -format=markdown or -format=html", req.format)
	case req.format != "" && req.jsonOut:
		return "-json and -format cannot be used together: -json prints the JSON plan representation, -format the review summary or report"
	case req.state != "" && (req.jsonOut || req.format != ""):
		return "-state applies to the human output only"
	case req.redact && !req.jsonOut:
		return "-redact applies to -json only (the human, markdown and html outputs never print sensitive values)"
	case set["max-bytes"] && req.format != "markdown":
		return "-max-bytes applies to -format=markdown only"
	case req.maxBytes <= 0:
		return fmt.Sprintf("-max-bytes=%d: the limit must be a positive number of bytes", req.maxBytes)
	case len(req.files) > 1 && req.format == "":
		return "plan show needs exactly one plan file (-format=markdown and -format=html take several)"
	}
	return ""
}

// exitCode is the exit status of a plan show that succeeded: with
// -detailed-exitcode, 2 when any of the plans has changes (as plan
// -detailed-exitcode says), else 0.
func (req *showRequest) exitCode(ps ...*plans.Plan) int {
	if req.detailedExitcode {
		for _, p := range ps {
			if planHasChanges(p) {
				return ExitChanges
			}
		}
	}
	return ExitOK
}

// showJSON is plan show -json. The members made from the configuration
// are copied from the archive's planfile.EntryShowJSON, made at plan
// time; an archive without it (an older plankit's, or one planned with
// -generate-config-out) has its configuration snapshot parsed while the
// plan is decoded and the resource entries, which come first in the
// document, are written. The document is streamed, each resource's JSON
// made as it is written (with -redact it is made whole first).
func showJSON(m *Meta, u *ui, r *planfile.Reader, path string, req showRequest) int {
	raw, ok := r.ShowJSON()
	if !ok {
		return showJSONLoadingConfig(m, u, r, req)
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
	return writeShowJSON(m, u, p, jsonplan.Options{Version: Version, Sections: sections, Hosts: jsonplan.HostsFromLocks(locks)}, req)
}

// showJSONLoadingConfig is showJSON for an archive without
// planfile.EntryShowJSON.
func showJSONLoadingConfig(m *Meta, u *ui, r *planfile.Reader, req showRequest) int {
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
	return writeShowJSON(m, u, p, jsonplan.Options{Version: Version, LoadConfig: cl.wait, Hosts: jsonplan.HostsFromLocks(locks)}, req)
}

// writeShowJSON writes the document of p to standard output; with
// -redact every sensitive value in it is replaced.
func writeShowJSON(m *Meta, u *ui, p *plans.Plan, opts jsonplan.Options, req showRequest) int {
	v := &views.Show{Out: m.Stdout}
	if err := v.JSON(p, opts, req.redact); err != nil {
		u.diags(hcl.Diagnostics{tfdiags.Errorf("Failed to render the plan as JSON", "%s", err)}, views.Sources{})
		return ExitError
	}
	return req.exitCode(p)
}

// showForeign is plan show [-json] of a plan file Terraform or OpenTofu
// wrote: -json gives the document the writing tool's show -json gives
// (docs/foreign-plans.md says what only a schema could tell); the human
// rendering names the writer and the changes shown without a schema.
func showForeign(m *Meta, u *ui, r *planfile.Reader, req showRequest) int {
	defer r.Close()
	p, info, err := r.ReadForeignPlan()
	if err != nil {
		u.diags(operation.ArchiveDiags(err), views.Sources{})
		return ExitError
	}
	if req.jsonOut {
		cfg, _ := r.ReadConfig() // without it the configuration member is left out
		// The lock file says which registry the configuration's implied
		// sources meant (registry.opentofu.org for OpenTofu), as for
		// plankit's own archives.
		locks, _ := r.ReadDependencyLocks()
		return writeShowJSON(m, u, p, jsonplan.Options{Version: info.Version, Config: cfg, Writer: r.Foreign().JSONWriter(), Hosts: jsonplan.HostsFromLocks(locks)}, req)
	}
	v := &views.Show{Out: m.Stdout, Color: u.col.Enabled}
	if err := v.Foreign(r.Foreign(), p, info); err != nil {
		return ExitError // a write error: the reader's business (a closed pipe)
	}
	return req.exitCode(p)
}

// showReview is plan show -format=markdown|html FILE...: the review
// summary or report of one or many plans (internal/review). A file
// Terraform or OpenTofu wrote is reviewed too, as unsigned, with the
// backend its plan records.
func showReview(m *Meta, u *ui, wd string, req showRequest, enc *encryption.Encryption, opts []planfile.Option) int {
	verified := req.verifyKey != ""
	var archives []*review.Archive
	var ps []*plans.Plan
	for _, name := range req.files {
		a, diags := reviewArchive(operation.Resolve(wd, name), name, enc, opts, verified)
		if diags.HasErrors() {
			u.diags(diags, views.Sources{})
			return ExitError
		}
		archives = append(archives, a)
		ps = append(ps, a.Plan)
	}
	fail := func(what string, err error) int {
		u.diags(hcl.Diagnostics{tfdiags.Errorf("Failed to write the "+what, "%s", err)}, views.Sources{})
		return ExitError
	}
	v := &views.Show{Out: m.Stdout}
	if req.format == "html" {
		if err := v.HTML(m.ctx(), archives); err != nil {
			return fail("HTML report", err)
		}
	} else if err := v.Markdown(archives, req.maxBytes); err != nil {
		return fail("Markdown summary", err)
	}
	return req.exitCode(ps...)
}

// reviewArchive opens the plan file at path (named name in the outputs)
// for the review.
func reviewArchive(path, name string, enc *encryption.Encryption, opts []planfile.Option, verified bool) (*review.Archive, hcl.Diagnostics) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, operation.ArchiveDiags(&planfile.Error{Kind: planfile.KindIO, Path: path, Err: err})
	}
	r, diags := operation.OpenArchive(path, enc, opts...)
	if diags.HasErrors() {
		return nil, diags
	}
	defer r.Close()
	if r.Foreign() == nil {
		a, err := review.FromReader(name, data, r, verified)
		if err != nil {
			return nil, operation.ArchiveDiags(err)
		}
		return a, nil
	}
	p, info, err := r.ReadForeignPlan()
	if err != nil {
		return nil, operation.ArchiveDiags(err)
	}
	sum := sha256.Sum256(data)
	a := &review.Archive{Name: name, Plan: p, SHA256: hex.EncodeToString(sum[:]), Workspace: info.Workspace, Backend: info.BackendType}
	if a.Workspace == "" {
		a.Workspace = "default"
	}
	if a.Backend == "" {
		a.Backend = "local"
	}
	return a, nil
}
