package review

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/command/render"
	"github.com/plankit/plankit/internal/policy"
	"github.com/plankit/plankit/jsonplan"
	"github.com/plankit/plankit/planfile"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
)

// Signature is what is known of an archive's signature.
type Signature int

const (
	// Unsigned: the archive carries no signature.
	Unsigned Signature = iota
	// SignedUnverified: it carries one, but no key was given to check it.
	SignedUnverified
	// Verified: its signature matches the key given.
	Verified
)

// String is the wording the outputs use.
func (s Signature) String() string {
	switch s {
	case SignedUnverified:
		return "signed, not verified"
	case Verified:
		return "verified"
	}
	return "unsigned"
}

// Archive is one plan archive to review: the plan and the facts about
// the file that the summary shows.
type Archive struct {
	// Name names the archive in the outputs (the path the user gave).
	Name string
	// Plan is the archive's plan (planfile.Reader.ReadPlan).
	Plan *plans.Plan
	// SHA256 is the hex SHA-256 of the archive file's bytes.
	SHA256 string
	// Signature is the signature status.
	Signature Signature
	// Workspace and Backend are the workspace and the backend type the
	// plan was made for (planfile.Reader.ReadBackend; "default" and
	// "local" when the archive records none).
	Workspace, Backend string
	// Configuration is the "configuration" member of show -json
	// (jsonplan.Sections.Configuration, from the archive's tfshow.json),
	// used for the dependency graph; nil draws the graph from the prior
	// state's dependencies only.
	Configuration json.RawMessage
	// Policy is the policy check recorded at plan time (plan -out
	// -policy; planfile.EntryPolicy), nil when there is none or it cannot
	// be read; PolicyError says why it cannot.
	Policy      *policy.Result
	PolicyError error
}

// Load opens the archive at path and fills in an Archive. With verifyKey
// set the signature must match it (the archive is refused otherwise).
func Load(path string, verifyKey ed25519.PublicKey) (*Archive, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var opts []planfile.Option
	if verifyKey != nil {
		opts = append(opts, planfile.WithVerifyKey(verifyKey))
	}
	r, err := planfile.OpenBytes(data, opts...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	defer r.Close()
	return FromReader(path, data, r, verifyKey != nil)
}

// FromReader fills in an Archive from an opened archive: name names it,
// data is the file's bytes (for the SHA-256), verified says the reader
// was opened with a verify key (planfile.WithVerifyKey) and so checked
// the signature.
func FromReader(name string, data []byte, r *planfile.Reader, verified bool) (*Archive, error) {
	p, err := r.ReadPlan()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	sum := sha256.Sum256(data)
	a := &Archive{Name: name, Plan: p, SHA256: hex.EncodeToString(sum[:]), Workspace: "default", Backend: "local"}
	switch {
	case verified:
		a.Signature = Verified
	case r.Signed():
		a.Signature = SignedUnverified
	}
	b, err := r.ReadBackend()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if b != nil {
		a.Workspace, a.Backend = b.Workspace, b.Type
	}
	if raw, ok, err := r.PolicyResult(); err != nil {
		a.PolicyError = err
	} else if ok {
		a.Policy, a.PolicyError = policy.DecodeResult(raw)
	}
	if raw, ok := r.ShowJSON(); ok {
		if s, err := jsonplan.ParseSections(raw); err == nil {
			a.Configuration = s.Configuration
		}
		// A damaged tfshow.json costs only the graph's references:
		// plan show reports it; the review falls back to the state's.
	}
	return a, nil
}

// kind sorts changes into the groups the outputs show.
type kind int

const (
	kindDestructive kind = iota // destroy or replace
	kindOther
)

// item is one change as the outputs show it.
type item struct {
	archive int
	id      string // unique in the document: "a<archive>-<n>"
	rc      *plans.ResourceInstanceChange
	addr    string
	module  string // "" for the root module
	rtype   string
	label   string // what the change does, e.g. "destroy"
	action  string // the filter key: create, update, delete, replace, ...
	kind    kind
	cbd     bool // replaced create-before-destroy
	diff    string
	changed int // changed attribute lines in diff
}

// actionWords are the label and filter key of each action.
func actionWords(rc *plans.ResourceInstanceChange) (label, key string) {
	switch rc.Action {
	case plans.Create:
		return "create", "create"
	case plans.Update:
		return "update in-place", "update"
	case plans.Delete:
		return "destroy", "delete"
	case plans.DeleteThenCreate:
		return "replace (destroy, then create)", "replace"
	case plans.CreateThenDelete:
		return "replace (create before destroy)", "replace"
	case plans.Read:
		return "read", "read"
	case plans.Forget:
		return "forget", "forget"
	}
	switch {
	case rc.Importing != nil:
		return "import", "import"
	case rc.Moved():
		return "move", "move"
	}
	return "no change", "noop"
}

// shown reports whether a planned change is listed: anything but a
// no-op that neither imports nor moves.
func shown(rc *plans.ResourceInstanceChange) bool {
	return rc.Action != plans.NoOp || rc.Importing != nil || rc.Moved()
}

// items returns the listed changes of a plan (or, with drift, of its
// drift), destroys and replacements first, each group by address.
func items(ai int, p *plans.Plan, drift bool) []*item {
	src := p.DriftedResources
	if !drift && p.Changes != nil {
		src = p.Changes.Resources
	}
	var out []*item
	for _, rc := range plans.SortedResourceChanges(src) {
		if drift && rc.Action == plans.NoOp || !drift && !shown(rc) {
			continue
		}
		schema := providers.ResourceSchema(p.ProviderSchemas, rc.ProviderAddr.Provider, rc.Addr.Resource.Resource)
		it := &item{archive: ai, rc: rc, addr: rc.Addr.String(), module: rc.Addr.Module.String(), rtype: rc.Addr.Resource.Resource.Type}
		if rc.DeposedKey != addrs.NotDeposed {
			it.addr += " (deposed " + rc.DeposedKey.String() + ")"
		}
		it.label, it.action = actionWords(rc)
		if drift {
			it.label, it.action = "changed outside", "drift"
			if rc.Action == plans.Delete {
				it.label = "deleted outside"
			}
		}
		it.kind = kindOther
		if !drift && (rc.Action == plans.Delete || rc.Action.IsReplace()) {
			it.kind = kindDestructive
		}
		it.cbd = !drift && rc.Action == plans.CreateThenDelete
		it.diff = strings.TrimRight(render.ResourceChange(rc, schema, false, drift), "\n")
		it.changed = changedLines(it.diff)
		out = append(out, it)
	}
	slices.SortStableFunc(out, func(a, b *item) int { return int(a.kind) - int(b.kind) })
	prefix := "a"
	if drift {
		prefix = "d"
	}
	for i, it := range out {
		it.id = fmt.Sprintf("%s%d-%d", prefix, ai, i)
	}
	return out
}

// changedLines counts the lines of a rendered change that add, change
// or remove something (the header and unchanged lines not counted).
func changedLines(diff string) int {
	n := 0
	for i, line := range strings.Split(diff, "\n") {
		if i == 0 {
			continue
		}
		t := strings.TrimLeft(line, " ")
		if t == "" {
			continue
		}
		switch t[0] {
		case '+', '-', '~':
			n++
		}
	}
	return n
}

// counts are the changes per action of a plan.
type counts struct {
	create, update, destroy, replace, cbd, read, forget, imports, moves int
}

func countItems(its []*item) counts {
	var c counts
	for _, it := range its {
		if it.rc.Importing != nil {
			c.imports++
		}
		if it.rc.Moved() {
			c.moves++
		}
		switch it.rc.Action {
		case plans.Create:
			c.create++
		case plans.Update:
			c.update++
		case plans.Delete:
			c.destroy++
		case plans.DeleteThenCreate:
			c.replace++
		case plans.CreateThenDelete:
			c.cbd++
		case plans.Read:
			c.read++
		case plans.Forget:
			c.forget++
		}
	}
	return c
}

// rows are the counts as (label, number) pairs, every action listed.
func (c counts) rows() [][2]any {
	return [][2]any{
		{"create", c.create}, {"update in-place", c.update}, {"destroy", c.destroy},
		{"replace (destroy, then create)", c.replace}, {"replace (create before destroy)", c.cbd},
		{"read", c.read}, {"forget", c.forget}, {"import", c.imports}, {"move", c.moves},
	}
}

func (c counts) add(o counts) counts {
	return counts{c.create + o.create, c.update + o.update, c.destroy + o.destroy, c.replace + o.replace,
		c.cbd + o.cbd, c.read + o.read, c.forget + o.forget, c.imports + o.imports, c.moves + o.moves}
}

// problemChecks returns the checks that failed or are unknown.
func problemChecks(p *plans.Plan) []*plans.CheckResult {
	var out []*plans.CheckResult
	for _, c := range p.Checks {
		if c.Status != plans.CheckPass {
			out = append(out, c)
		}
	}
	return out
}

// changedOutputs returns the root output changes that change something.
func changedOutputs(p *plans.Plan) []*plans.OutputChange {
	if p.Changes == nil {
		return nil
	}
	var out []*plans.OutputChange
	for _, oc := range p.Changes.Outputs {
		if oc.Action != plans.NoOp && oc.Addr.Module.IsRoot() {
			out = append(out, oc)
		}
	}
	slices.SortFunc(out, func(a, b *plans.OutputChange) int {
		return strings.Compare(a.Addr.OutputValue.Name, b.Addr.OutputValue.Name)
	})
	return out
}

// outputsText is the output changes as the human renderer writes them,
// sensitive values hidden.
func outputsText(outs []*plans.OutputChange) string {
	var b strings.Builder
	render.Outputs(&b, outs, render.Colorizer{})
	return strings.TrimRight(b.String(), "\n")
}
