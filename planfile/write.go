package planfile

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"time"

	"github.com/klauspost/compress/flate"
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
const CompressionLevel = 6

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
func WriteTo(w io.Writer, args *CreateArgs) error {
	entries, err := buildEntries(args)
	if err != nil {
		return err
	}
	mtime := args.Time
	if mtime.IsZero() {
		mtime = time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	zw := zip.NewWriter(w)
	zw.RegisterCompressor(zip.Deflate, func(out io.Writer) (io.WriteCloser, error) {
		return flate.NewWriter(out, CompressionLevel)
	})
	for _, name := range slices.Sorted(maps.Keys(entries)) {
		fh := &zip.FileHeader{Name: name, Method: zip.Deflate, Modified: mtime.UTC()}
		fh.SetMode(0o644)
		ew, err := zw.CreateHeader(fh)
		if err != nil {
			return wrapErr(KindIO, name, err)
		}
		if _, err := ew.Write(entries[name]); err != nil {
			return wrapErr(KindIO, name, err)
		}
	}
	if err := zw.Close(); err != nil {
		return wrapErr(KindIO, "", err)
	}
	return nil
}

// buildEntries encodes every entry in memory, then the manifest and the
// signature over them.
func buildEntries(args *CreateArgs) (map[string][]byte, error) {
	switch {
	case args == nil || args.Plan == nil:
		return nil, fmt.Errorf("planfile: there is no plan to write")
	case args.StateFile == nil:
		return nil, fmt.Errorf("planfile: the prior state file is missing")
	case args.PreviousRunStateFile == nil:
		return nil, fmt.Errorf("planfile: the previous-run state file is missing")
	case args.SignKey != nil && len(args.SignKey) != ed25519.PrivateKeySize:
		return nil, fmt.Errorf("planfile: the signing key is not an Ed25519 private key")
	}
	// The plan is encoded on another core while the states are (the two
	// largest entries of a large plan; they share nothing: the plan
	// entry leaves the states out). The plan's error, if any, is still
	// the one reported first.
	var planBytes []byte
	var planErr error
	planDone := make(chan struct{})
	go func() {
		defer close(planDone)
		planBytes, planErr = plans.Marshal(args.Plan, args.ToolVersion)
	}()
	priorBytes, prevBytes, err := stateEntries(args.StateFile, args.PreviousRunStateFile)
	<-planDone
	if planErr != nil {
		return nil, fmt.Errorf("encoding the plan: %w", planErr)
	}
	if err != nil {
		return nil, err
	}
	entries := map[string][]byte{EntryPlan: planBytes, EntryPriorState: priorBytes, EntryPrevRunState: prevBytes}
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
		if entries[EntryBackend], err = encodeBackend(args.Backend); err != nil {
			return nil, err
		}
	}
	entries[EntryManifest] = buildManifest(entries)
	if args.SignKey != nil {
		entries[EntrySignature] = ed25519.Sign(args.SignKey, entries[EntryManifest])
	}
	return entries, nil
}
