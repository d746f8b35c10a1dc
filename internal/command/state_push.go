package command

import (
	"bytes"
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/internal/atomicfile"
	"github.com/plankit/plankit/internal/backend"
	"github.com/plankit/plankit/internal/backend/local"
	"github.com/plankit/plankit/internal/command/views"
	"github.com/plankit/plankit/internal/encryption"
	"github.com/plankit/plankit/internal/operation"
	"github.com/plankit/plankit/internal/safeio"
	"github.com/plankit/plankit/internal/states/statemgr"
	"github.com/plankit/plankit/states/statefile"
	"github.com/plankit/plankit/tfdiags"
)

const statePushUsage = `Usage: plan state push [options] FILE

  Replaces the selected workspace's state with the state in FILE ("-" for
  standard input), keeping its lineage and serial. Refused, unless -force,
  when the stored state tracks objects and FILE has another lineage, when
  FILE's serial is older than the stored one, or when both have the same
  serial but differ.

Options:
  -force               Skip the lineage and serial checks.
  -lock=false          Do not lock the state.
  -lock-timeout=D      Retry a held state lock for D.
  -backend-config=KEY=VALUE|FILE  Backend setting (repeatable).
`

// StatePush is `plan state push`.
func StatePush(m *Meta, chdir string, args []string) int {
	fs := newFlagSetT("plan state push", m.Stderr, statePushUsage)
	fs.StringVar(&chdir, "chdir", chdir, "switch to this working directory before anything else")
	var bcfg multiFlag
	fs.Var(&bcfg, "backend-config", "backend setting KEY=VALUE, or a file of them")
	force := fs.Bool("force", false, "skip the lineage and serial checks")
	lock := fs.Bool("lock", true, "lock the state")
	lockTimeout := fs.Duration("lock-timeout", 0, "retry a held lock for this long")
	if code, ok := fs.parse(m, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		return usageError(m, "plan state push needs exactly one argument: the state file (or - for standard input)")
	}
	wd := m.workDir(chdir)
	u := &ui{out: m.Stdout, errw: m.Stderr}
	src := views.Sources{Dir: wd}
	fail := func(d ...*hcl.Diagnostic) int { u.diags(d, src); return ExitError }

	name := fs.Arg(0)
	var data []byte
	var err error
	if name == "-" {
		data, err = safeio.ReadAll(m.Stdin, "the standard input", safeio.StateFileLimit)
	} else {
		data, err = safeio.ReadFile(operation.Resolve(wd, name), safeio.StateFileLimit)
	}
	if err != nil {
		return fail(tfdiags.Errorf("Failed to read the state to push", "%s", err))
	}
	codec, ds := operation.StateCodecIn(m.Env, wd)
	if ds.HasErrors() {
		return fail(ds...)
	}
	if encryption.IsEnvelope(data) { // a clear file is pushed as is, and stored encrypted
		if data, ds = operation.DecryptPulled(codec, data, name); ds.HasErrors() {
			return fail(ds...)
		}
	}
	f, err := statefile.Read(bytes.NewReader(data))
	if err != nil {
		return fail(tfdiags.Errorf("Invalid state file", "%s: %s\n\nNothing was pushed.", name, err))
	}
	s, diags := stateBackendFor(m, wd, bcfg)
	if diags.HasErrors() {
		return fail(diags...)
	}
	mgr, release, ds := operation.OpenBackendStateWith(m.ctx(), s, *lock, *lockTimeout, "OperationTypeStatePush", codec)
	if ds.HasErrors() {
		return fail(ds...)
	}
	defer func() {
		if ds := release(); ds.HasErrors() {
			u.diags(ds, src)
		}
	}()
	cur := mgr.StateFile()
	if !*force {
		if d := checkPush(cur, f, name, mgr.Describe()); d != nil {
			return fail(d)
		}
	}
	if cur != nil && cur.Lineage == f.Lineage && cur.Serial == f.Serial {
		return ExitOK // the same state: nothing to write
	}
	if err := importState(mgr, f, data, codec); err != nil {
		return fail(tfdiags.Errorf("Failed to write state", "Writing the state to %s failed: %s", mgr.Describe(), err))
	}
	return ExitOK
}

// checkPush refuses what Terraform's state push refuses without -force.
func checkPush(cur, f *statefile.File, name, where string) *hcl.Diagnostic {
	if cur == nil || cur.Lineage == "" {
		return nil
	}
	curEmpty := cur.State == nil || cur.State.Empty()
	switch {
	case f.Lineage != cur.Lineage && !curEmpty:
		return tfdiags.Errorf("Failed to write state",
			"Cannot import state with lineage %q over unrelated state with lineage %q in %s. The state in %s belongs to another history; push it with -force only if it is meant to replace this one.", f.Lineage, cur.Lineage, where, name)
	case f.Lineage == cur.Lineage && f.Serial < cur.Serial:
		return tfdiags.Errorf("Failed to write state",
			"Cannot import state with serial %d over newer state with serial %d in %s. Pull the current state first, or push with -force to go back to the older one.", f.Serial, cur.Serial, where)
	case f.Lineage == cur.Lineage && f.Serial == cur.Serial && !sameState(cur, f):
		return tfdiags.Errorf("Failed to write state",
			"Cannot overwrite existing state with serial %d with a different state that has the same serial in %s. Increase the serial in %s if it is the newer one, or push with -force.", f.Serial, where, name)
	}
	return nil
}

func sameState(a, b *statefile.File) bool {
	var x, y bytes.Buffer
	ac, bc := *a, *b
	ac.TerraformVersion, bc.TerraformVersion = nil, nil
	if statefile.Write(&ac, &x) != nil || statefile.Write(&bc, &y) != nil {
		return false
	}
	return bytes.Equal(x.Bytes(), y.Bytes())
}

// importer stores a state file as is (lineage and serial kept).
type importer interface {
	Import(*statefile.File) error
}

// importState writes f as the workspace's state: through the backend's
// Import, or, for a local file, atomically in its place. A local file
// gets raw, the bytes pushed (f was read from them), so that state pull
// returns exactly what was pushed: re-encoding would rewrite a state
// another tool wrote in plankit's layout (OpenTofu, for one, writes no
// "each" for a resource with count or for_each).
func importState(mgr backend.StateMgr, f *statefile.File, raw []byte, codec statemgr.Codec) error {
	// The pushed state replaces what a journal left by an interrupted
	// apply recorded: drop it once the state is stored (not before: a
	// failed write must lose nothing), or the next read would replay it
	// over the pushed state.
	dropJournal := func() error { return nil }
	if jm, ok := mgr.(statemgr.Journaled); ok && jm.Recovery() != nil {
		dropJournal = func() error {
			j, err := jm.Journal()
			if err == nil {
				err = j.Remove()
			}
			if err != nil {
				return fmt.Errorf("the state is stored, but removing the journal of the interrupted apply failed (the next run replays it over the pushed state): %w", err)
			}
			return nil
		}
	}
	if im, ok := mgr.(importer); ok {
		if err := im.Import(f); err != nil {
			return err
		}
		return dropJournal()
	}
	lm, ok := mgr.(*local.Mgr)
	if !ok {
		return fmt.Errorf("this backend cannot import a state")
	}
	data := raw
	if codec != nil { // state encryption, as the manager itself would store it
		var err error
		if data, err = codec.Encode(data); err != nil {
			return err
		}
	}
	if err := atomicfile.WriteBytes(lm.Path(), data, 0o644, nil); err != nil {
		return err
	}
	if err := dropJournal(); err != nil {
		return err
	}
	return lm.RefreshState()
}
