package command

import (
	"bytes"
	"context"
	"flag"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/depsfile"
	"github.com/plankit/plankit/internal/command/render"
	"github.com/plankit/plankit/internal/command/views"
	"github.com/plankit/plankit/internal/operation"
	"github.com/plankit/plankit/internal/policy"
	"github.com/plankit/plankit/jsonplan"
	"github.com/plankit/plankit/planfile"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/tfdiags"
)

// policyFlags are the options that select a policy bundle and the
// namespaces checked: plan check's, and plan's and apply's -policy.
type policyFlags struct {
	dirs, data, namespaces multiFlag
	allNamespaces          bool
	timeout                time.Duration
	// bundle is the bundle preload read (plan -policy reads it before
	// planning, and evaluates that one: the digest recorded is that of
	// the files evaluated).
	bundle *policy.Bundle
}

// preload reads the bundle, when -policy is set, for eval.
func (p *policyFlags) preload(wd string) hcl.Diagnostics {
	if !p.set() {
		return nil
	}
	b, ds := p.load(wd)
	p.bundle = b
	return ds
}

func (p *policyFlags) register(fs *flag.FlagSet) {
	fs.Var(&p.dirs, "policy", "check the plan against the Rego policies in this directory or file (repeatable)")
	fs.Var(&p.data, "data", "a JSON or YAML data file or directory for the policies (repeatable)")
	fs.Var(&p.namespaces, "namespace", "check the rules of this Rego package (repeatable; default main)")
	fs.BoolVar(&p.allNamespaces, "all-namespaces", false, "check the rules of every package the policies declare")
	fs.DurationVar(&p.timeout, "policy-timeout", policy.DefaultTimeout, "stop the policy check after this long")
}

// set reports whether a policy check was asked for.
func (p *policyFlags) set() bool { return len(p.dirs) > 0 }

// check returns a usage error for options that need -policy, or "".
func (p *policyFlags) check() string {
	if p.timeout <= 0 {
		return "-policy-timeout must be a positive duration (e.g. 30s)"
	}
	if p.set() {
		if p.allNamespaces && len(p.namespaces) > 0 {
			return "-namespace and -all-namespaces cannot be used together"
		}
		return ""
	}
	switch {
	case len(p.data) > 0:
		return "-data gives data to the policies, so it needs -policy=DIR"
	case len(p.namespaces) > 0:
		return "-namespace selects the policies' rules, so it needs -policy=DIR"
	case p.allNamespaces:
		return "-all-namespaces selects the policies' rules, so it needs -policy=DIR"
	}
	return ""
}

// load reads the policy bundle, its paths taken from wd.
func (p *policyFlags) load(wd string) (*policy.Bundle, hcl.Diagnostics) {
	dirs := make([]string, len(p.dirs))
	for i, d := range p.dirs {
		dirs[i] = operation.Resolve(wd, d)
	}
	data := make([]string, len(p.data))
	for i, d := range p.data {
		data[i] = operation.Resolve(wd, d)
	}
	b, err := policy.Load(dirs, data)
	if err != nil {
		return nil, hcl.Diagnostics{tfdiags.Errorf("Invalid policy bundle", "%s", err)}
	}
	return b, nil
}

func (p *policyFlags) options() policy.Options {
	return policy.Options{Namespaces: p.namespaces, AllNamespaces: p.allNamespaces, Timeout: p.timeout}
}

// eval loads the bundle and checks doc, a show -json document, against it.
func (p *policyFlags) eval(ctx context.Context, wd string, doc []byte) (*policy.Result, hcl.Diagnostics) {
	b := p.bundle
	if b == nil {
		var ds hcl.Diagnostics
		if b, ds = p.load(wd); ds.HasErrors() {
			return nil, ds
		}
	}
	res, err := b.Eval(ctx, doc, p.options())
	if err != nil {
		return nil, hcl.Diagnostics{tfdiags.Errorf("Policy check failed", "%s", err)}
	}
	return res, nil
}

// Check is `plan check -policy=DIR [-policy=DIR...] [-data=FILE...]
// [-namespace=NS...] [-all-namespaces] [-json] [-verify-key=FILE] FILE`:
// it checks the plan archive's show -json document against Rego
// policies. Exit codes: 0 pass, 1 error, 3 policy failure.
func Check(m *Meta, chdir string, args []string) int {
	fs := newSubFlagSet("plan check", checkUsage, chdir)
	var pf policyFlags
	pf.register(fs.FlagSet)
	jsonOut := fs.Bool("json", false, "print the result as JSON")
	noColor := fs.Bool("no-color", false, "disable colour")
	verifyKey := fs.String("verify-key", "", "refuse a plan archive not signed by this ed25519 public key")
	if code, ok := fs.parse(m, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		return usageError(m, "plan check needs exactly one plan file")
	}
	if !pf.set() {
		return usageError(m, "plan check needs at least one -policy=DIR")
	}
	if msg := pf.check(); msg != "" {
		return usageError(m, msg)
	}
	wd := m.workDir(fs.chdir)
	u := &ui{out: m.Stdout, errw: m.Stderr, col: render.Colorizer{Enabled: !*noColor && m.StdoutTTY}, errColor: !*noColor && m.StderrTTY}
	// The bundle is loaded first: a policy error is reported without
	// reading the archive.
	b, ds := pf.load(wd)
	if ds.HasErrors() {
		u.diags(ds, views.Sources{})
		return policy.ExitError
	}
	path := operation.Resolve(wd, fs.Arg(0))
	opts, ds := operation.VerifyKeyOptions(wd, *verifyKey)
	if ds.HasErrors() {
		u.diags(ds, views.Sources{})
		return ExitError
	}
	enc, ds := operation.LoadEncryptionIn(m.Env, wd)
	if ds.HasErrors() {
		u.diags(ds, views.Sources{})
		return ExitError
	}
	r, ds := operation.OpenArchive(path, enc, opts...)
	if ds.HasErrors() {
		u.diags(ds, views.Sources{})
		return ExitError
	}
	// The document is plan show -json's, made by its code: written to a
	// buffer instead of standard output.
	var doc bytes.Buffer
	docMeta := &Meta{Streams: views.Streams{Stdout: &doc, Stderr: m.Stderr}, Environment: m.Environment}
	if code := showJSON(docMeta, &ui{out: &doc, errw: m.Stderr, col: u.col, errColor: u.errColor}, r, path, showRequest{}); code != ExitOK {
		return code
	}
	res, err := b.Eval(m.ctx(), doc.Bytes(), pf.options())
	if err != nil {
		u.diags(hcl.Diagnostics{tfdiags.Errorf("Policy check failed", "%s", err)}, views.Sources{})
		return policy.ExitError
	}
	if *jsonOut {
		out, err := res.Encode()
		if err != nil {
			u.diags(hcl.Diagnostics{tfdiags.Errorf("Failed to encode the policy result", "%s", err)}, views.Sources{})
			return ExitError
		}
		m.Stdout.Write(out)
	} else if err := views.WritePolicyResult(m.Stdout, res, u.col); err != nil {
		return ExitError
	}
	return res.ExitCode()
}

// planPolicy is plan -policy's check, made after the walk on the plan's
// show -json document (the one plan show -json prints from the archive):
// the encoded result, for the archive, and the result. It is nil, with no
// diagnostics, without -policy or when the plan is not complete (it is
// neither shown nor saved then).
type planPolicy struct {
	res     *policy.Result
	encoded []byte
}

func checkPlanPolicy(ctx context.Context, wd string, f *planFlags, plan *plans.Plan, config *configs.Config, locks *depsfile.Locks, ds hcl.Diagnostics) (*planPolicy, hcl.Diagnostics) {
	if !f.policy.set() || !planShowable(plan, ds) {
		return nil, nil
	}
	doc, err := jsonplan.Marshal(plan, jsonplan.Options{Version: Version, Config: config, Hosts: jsonplan.HostsFromLocks(locks)})
	if err != nil {
		return nil, hcl.Diagnostics{tfdiags.Errorf("Failed to render the plan as JSON", "%s", err)}
	}
	res, pds := f.policy.eval(ctx, wd, doc)
	if pds.HasErrors() {
		return nil, pds
	}
	enc, err := res.Encode()
	if err != nil {
		return nil, hcl.Diagnostics{tfdiags.Errorf("Failed to encode the policy result", "%s", err)}
	}
	return &planPolicy{res: res, encoded: enc}, nil
}

// encodedResult is the result to record in the archive: nil without a
// check.
func (p *planPolicy) encodedResult() []byte {
	if p == nil {
		return nil
	}
	return p.encoded
}

// report prints the check's result after the plan (not with -json, whose
// output is the UI's JSON lines: the result is in the archive, which
// plan show and plan check -json read) and returns the exit code of a
// plan that was otherwise complete: policy.ExitFailure when it failed.
// Apply without a plan file (f.inline) refuses a failing plan as it
// refuses a saved one (apply -policy): an error, exit status 1.
func (p *planPolicy) report(u *ui, f *planFlags) int {
	if p == nil {
		return ExitOK
	}
	if !f.json {
		views.WritePolicySection(u.out, p.res, u.col)
	}
	if f.inline && p.res.Failed() {
		u.diags(hcl.Diagnostics{tfdiags.Errorf("Plan refused by its policy check", "The plan failed its policy check (%d failures); nothing was applied.", p.res.Failures)}, views.Sources{})
		return ExitError
	}
	return p.res.ExitCode()
}

// checkArchivePolicy is apply -policy's check of the archive's recorded
// result against the bundle given now, before anything else is read from
// the archive or started.
func checkArchivePolicy(wd string, pf *policyFlags, r *planfile.Reader) hcl.Diagnostics {
	if !pf.set() {
		return nil
	}
	b, ds := pf.load(wd)
	if ds.HasErrors() {
		return ds
	}
	raw, ok, err := r.PolicyResult()
	if err != nil {
		return operation.ArchiveDiags(err)
	}
	if !ok {
		return hcl.Diagnostics{tfdiags.Errorf("Plan was not checked against policies",
			"apply -policy needs a plan archive made with plan -out -policy: this one has no %s, so it was made without -policy. Make the plan again with -policy=DIR (policy bundle %s).", planfile.EntryPolicy, b.Digest())}
	}
	rec, err := policy.DecodeResult(raw)
	if err != nil {
		return hcl.Diagnostics{tfdiags.Errorf("Invalid policy result in the plan", "The archive's %s cannot be read: %s.", planfile.EntryPolicy, err)}
	}
	if err := policy.CheckRecorded(rec, b); err != nil {
		detail := err.Error()
		var buf bytes.Buffer
		if rec.Failed() && rec.PolicyDigest == b.Digest() {
			rec.WriteText(&buf)
			detail += ".\n\n" + buf.String()
		}
		return hcl.Diagnostics{tfdiags.Errorf("Plan refused by its policy check", "%s", detail)}
	}
	return nil
}

// showPolicyRecord is plan show's section for the archive's recorded
// policy check (none without a record).
func showPolicyRecord(m *Meta, u *ui, r *planfile.Reader) {
	raw, ok, err := r.PolicyResult()
	views.WritePolicyRecord(m.Stdout, raw, ok, err, u.col)
}
