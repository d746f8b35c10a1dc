package planfile

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/zip"

	"github.com/plankit/plankit/depsfile"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/states/statefile"
)

// The archive writer as it was before entries were deflated while being
// encoded: every entry encoded in memory, then the ZIP written with
// zip.Writer.CreateHeader. Kept as the reference the streaming WriteTo
// must match byte for byte (TestWriteToMatchesReference).

func writeToBuffered(w io.Writer, args *CreateArgs) error {
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

// BenchmarkWriteToReference100k is BenchmarkWrite100k's archive (in
// memory) written by the reference writer, with a 100,000-object state
// as prior and previous-run state (a no-op re-plan's shape); compare
// with BenchmarkWriteTo100kState.
func BenchmarkWriteToReference100k(b *testing.B) { benchWriteTo(b, writeToBuffered) }

// BenchmarkWriteTo100kState: the same with the streaming writer.
func BenchmarkWriteTo100kState(b *testing.B) { benchWriteTo(b, WriteTo) }

func benchWriteTo(b *testing.B, write func(io.Writer, *CreateArgs) error) {
	args := benchArgs(b, benchChanges)
	st := bigState(benchChanges, 5)
	args.StateFile.State, args.PreviousRunStateFile.State = st, st
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		if err := write(&buf, args); err != nil {
			b.Fatal(err)
		}
	}
}

// stateEntries encodes the prior and previous-run states for the
// reference writer (WriteTo uses deflateStates).
// When the plan changed nothing in the state (a no-op re-plan, whose
// refresh found no drift) the two are the same objects, and one encoding
// serves both entries: the second state of a large plan is neither
// encoded again nor held twice in memory. O(objects) to compare, plus the
// encoding(s).
func stateEntries(prior, prev *statefile.File) (priorBytes, prevBytes []byte, err error) {
	encode := func(f *statefile.File) ([]byte, error) {
		if f.State == nil { // no state yet: store an empty one, as a first plan has
			cp := *f
			cp.State = states.NewState()
			f = &cp
		}
		var buf bytes.Buffer
		if err := statefile.Write(f, &buf); err != nil {
			return nil, err
		}
		return buf.Bytes(), nil
	}
	if priorBytes, err = encode(prior); err != nil {
		return nil, nil, fmt.Errorf("encoding %s: %w", EntryPriorState, err)
	}
	if sameStateFile(prior, prev) {
		return priorBytes, priorBytes, nil
	}
	if prevBytes, err = encode(prev); err != nil {
		return nil, nil, fmt.Errorf("encoding %s: %w", EntryPrevRunState, err)
	}
	return priorBytes, prevBytes, nil
}

// buildManifest is the reference writer's manifest of entries (WriteTo
// uses manifestOf). O(total entry size).
func buildManifest(entries map[string][]byte) []byte {
	names := make([]string, 0, len(entries))
	for name := range entries {
		if name != EntryManifest && name != EntrySignature {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	var b bytes.Buffer
	for _, name := range names {
		sum := sha256.Sum256(entries[name])
		b.WriteString(hex.EncodeToString(sum[:]))
		b.WriteString("  ")
		b.WriteString(name)
		b.WriteByte('\n')
	}
	return b.Bytes()
}
