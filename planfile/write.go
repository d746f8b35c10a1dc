package planfile

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/klauspost/compress/zip"

	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/depsfile"
	"github.com/plankit/plankit/internal/atomicfile"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/states/statefile"
)

// CreateArgs is what a plan archive holds.
type CreateArgs struct {
	// Plan is stored in tfplan; its PrevRunState and PriorState are not
	// (the state files below are), and its Files are stored under tfdata/.
	Plan *plans.Plan
	// PreviousRunStateFile and StateFile are the previous-run and prior
	// states with their lineage and serial. Both are required; a nil State
	// in them is stored as an empty state.
	PreviousRunStateFile, StateFile *statefile.File
	// ConfigSnapshot is the configuration the plan was made from; nil
	// stores an empty snapshot.
	ConfigSnapshot *configs.Snapshot
	// DependencyLocks are the provider locks at plan time; nil stores an
	// empty lock file.
	DependencyLocks *depsfile.Locks
	// SignKey, when set, signs the archive's integrity manifest.
	SignKey ed25519.PrivateKey
	// Backend, when set, records the state backend and workspace the plan
	// is for (EntryBackend). It must hold no secret.
	Backend *Backend
	// ShowJSON, when set, is the EntryShowJSON entry, closed.
	ShowJSON *EntryBuffer
	// PolicyResult, when set, is the EntryPolicy entry: the encoded
	// result of the policy check made at plan time, one JSON object.
	PolicyResult []byte

	// ToolVersion is recorded in tfplan as the writer's version.
	ToolVersion string
	// Time is the modification time of every entry. Zero means
	// 1980-01-01 00:00:00 UTC (the earliest a ZIP can say), keeping the
	// archive free of wall-clock time; pass SOURCE_DATE_EPOCH here if the
	// build wants it. The library never reads the clock or the environment.
	Time time.Time
}

// CompressionLevel is the fixed deflate level of every entry: part of what
// makes the same plan give the same bytes.
const CompressionLevel = 4

// Write writes the archive to path atomically: to a temporary file in the
// same directory, synced, then renamed over path. O(plan size).
func Write(path string, args *CreateArgs) error {
	err := atomicfile.Write(path, 0o644, func(w io.Writer) error { return WriteTo(w, args) }, nil)
	if err == nil {
		return nil
	}
	var pe *Error
	if errors.As(err, &pe) {
		pe.Path = path
		return pe
	}
	return &Error{Kind: KindIO, Path: path, Err: err}
}

// WriteTo writes the archive to w (not atomically; Write is the atomic
// form). The bytes depend only on args.
//
// Each entry is deflated as it is encoded and only its compressed bytes
// are kept: the states are encoded straight into their compressors (a
// large state is never held whole in memory), and the plan and the
// states are encoded and compressed on cores of their own while the
// small entries are. The ZIP is then assembled from the compressed
// entries, in name order, with the bytes zip.Writer.CreateHeader would
// have written for them (see writeRawEntry). O(plan size).
func WriteTo(w io.Writer, args *CreateArgs) error {
	if err := checkArgs(args); err != nil {
		return err
	}
	var (
		wg                sync.WaitGroup
		planEntry         *deflated
		planErr, stateErr error
		prior, prev       *deflated
	)
	wg.Go(func() {
		b, err := plans.Marshal(args.Plan, args.ToolVersion)
		if err != nil {
			planErr = fmt.Errorf("encoding the plan: %w", err)
			return
		}
		planEntry, planErr = deflateBytes(b)
	})
	wg.Go(func() { prior, prev, stateErr = deflateStates(args.StateFile, args.PreviousRunStateFile) })
	small, smallErr := smallEntries(args)
	var deflatedSmall map[string]*deflated
	if smallErr == nil {
		deflatedSmall, smallErr = deflateAll(small)
	}
	wg.Wait()
	// The errors in the order the entries are built: plan, states, then
	// the small entries.
	for _, err := range []error{planErr, stateErr, smallErr} {
		if err != nil {
			return err
		}
	}
	entries := deflatedSmall
	entries[EntryPlan], entries[EntryPriorState], entries[EntryPrevRunState] = planEntry, prior, prev
	if args.ShowJSON != nil {
		entries[EntryShowJSON] = args.ShowJSON.d
	}
	manifest := manifestOf(entries)
	extra := map[string][]byte{EntryManifest: manifest}
	if args.SignKey != nil {
		extra[EntrySignature] = ed25519.Sign(args.SignKey, manifest)
	}
	for name, b := range extra {
		d, err := deflateBytes(b)
		if err != nil {
			return err
		}
		entries[name] = d
	}
	mtime := args.Time
	if mtime.IsZero() {
		mtime = time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	zw := zip.NewWriter(w)
	for _, name := range slices.Sorted(maps.Keys(entries)) {
		if err := writeRawEntry(zw, name, mtime.UTC(), entries[name]); err != nil {
			return wrapErr(KindIO, name, err)
		}
	}
	if err := zw.Close(); err != nil {
		return wrapErr(KindIO, "", err)
	}
	return nil
}

// checkArgs refuses arguments no archive can be written from.
func checkArgs(args *CreateArgs) error {
	switch {
	case args == nil || args.Plan == nil:
		return fmt.Errorf("planfile: there is no plan to write")
	case args.StateFile == nil:
		return fmt.Errorf("planfile: the prior state file is missing")
	case args.PreviousRunStateFile == nil:
		return fmt.Errorf("planfile: the previous-run state file is missing")
	case args.SignKey != nil && len(args.SignKey) != ed25519.PrivateKeySize:
		return fmt.Errorf("planfile: the signing key is not an Ed25519 private key")
	case args.ShowJSON != nil && args.ShowJSON.d == nil:
		return fmt.Errorf("planfile: the %s entry is not closed", EntryShowJSON)
	}
	if args.PolicyResult != nil {
		if err := checkPolicy(args.PolicyResult); err != nil {
			return fmt.Errorf("planfile: %s: %w", EntryPolicy, err)
		}
	}
	return nil
}

// smallEntries encodes every entry but the plan, the states, the manifest
// and the signature: the lock file, the configuration snapshot, the
// plan's files and the backend.
func smallEntries(args *CreateArgs) (map[string][]byte, error) {
	// The large entries' names are taken, so that no other entry can
	// claim them (the snapshot refuses duplicates).
	entries := map[string][]byte{EntryPlan: nil, EntryPriorState: nil, EntryPrevRunState: nil}
	locks := args.DependencyLocks
	if locks == nil {
		locks = depsfile.NewLocks()
	}
	lockBytes, diags := depsfile.SaveLocksToBytes(locks)
	if diags.HasErrors() {
		return nil, fmt.Errorf("encoding the lock file: %s", diags.Error())
	}
	entries[EntryLocks] = lockBytes
	if err := snapshotEntries(args.ConfigSnapshot, entries); err != nil {
		return nil, err
	}
	if err := filesEntries(args.Plan.Files, entries); err != nil {
		return nil, err
	}
	if args.Backend != nil {
		b, err := encodeBackend(args.Backend)
		if err != nil {
			return nil, err
		}
		entries[EntryBackend] = b
	}
	if args.PolicyResult != nil {
		entries[EntryPolicy] = args.PolicyResult
	}
	delete(entries, EntryPlan)
	delete(entries, EntryPriorState)
	delete(entries, EntryPrevRunState)
	return entries, nil
}
