package planfile

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"sync"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/depsfile"
	"github.com/plankit/plankit/internal/safeio"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/states/statefile"
)

// Reader is an opened, checked plan archive. Every entry is in memory and
// has matched its CRC-32 and its SHA-256; the Read methods decode entries
// on demand. A Reader is safe for concurrent use.
type Reader struct {
	path    string
	entries map[string][]byte
	format  plans.FormatInfo
	// foreign is set when Terraform or OpenTofu wrote the archive.
	foreign *ForeignWriter

	// states are the state files decoded so far, by entry name: each is
	// decoded once, however many of ReadPlan, ReadStateFile and
	// ReadPrevStateFile ask for it.
	statesMu sync.Mutex
	states   map[string]*statefile.File
}

// Option adjusts Open.
type Option func(*openOptions)

type openOptions struct {
	limits    Limits
	verifyKey ed25519.PublicKey
	foreign   bool
}

// WithLimits replaces DefaultLimits.
func WithLimits(l Limits) Option { return func(o *openOptions) { o.limits = l } }

// WithVerifyKey makes Open also check the archive's signature against pub
// (see Reader.Verify), so an unsigned or re-signed archive is refused
// before anything in it is decoded.
func WithVerifyKey(pub ed25519.PublicKey) Option { return func(o *openOptions) { o.verifyKey = pub } }

// Open reads and checks the archive at path. It refuses, with an *Error of
// the matching Kind: a file that is not a ZIP or is truncated, unsafe or
// duplicate entry names, more entries or bytes than the limits, suspicious
// compression ratios, unsupported compression, CRC mismatches, missing
// required entries, a plan of another major format version, and entries
// that do not match the integrity manifest. O(archive size).
func Open(path string, opts ...Option) (*Reader, error) {
	o := applyOptions(opts)
	f, err := safeio.Open(path) // a FIFO or device is refused, never waited on
	if err != nil {
		return nil, &Error{Kind: KindIO, Path: path, Err: err}
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, &Error{Kind: KindIO, Path: path, Err: err}
	}
	if st.Size() > o.limits.MaxArchiveSize {
		return nil, &Error{Kind: KindTooLarge, Path: path, Err: fmt.Errorf("the archive is %d bytes; at most %d are accepted", st.Size(), o.limits.MaxArchiveSize)}
	}
	data := make([]byte, st.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, &Error{Kind: KindIO, Path: path, Err: err}
	}
	r, err := open(data, o)
	if err != nil {
		var pe *Error
		if errors.As(err, &pe) {
			pe.Path = path
		}
		return nil, err
	}
	r.path = path
	return r, nil
}

// OpenBytes is Open for an archive already in memory.
func OpenBytes(data []byte, opts ...Option) (*Reader, error) {
	o := applyOptions(opts)
	if int64(len(data)) > o.limits.MaxArchiveSize {
		return nil, newErr(KindTooLarge, "", "the archive is %d bytes; at most %d are accepted", len(data), o.limits.MaxArchiveSize)
	}
	return open(data, o)
}

func applyOptions(opts []Option) openOptions {
	o := openOptions{limits: DefaultLimits()}
	for _, opt := range opts {
		opt(&o)
	}
	return o
}

func open(data []byte, o openOptions) (*Reader, error) {
	entries, err := readEntries(data, o.limits)
	if err != nil {
		return nil, err
	}
	// Terraform's and OpenTofu's plan files are ZIP archives with a
	// "tfplan" entry too, but no manifest; they are named as what they
	// are before any entry they lack is.
	if _, signed := entries[EntryManifest]; !signed {
		if _, ok := plans.IsForeignPlan(entries[EntryPlan]); ok {
			if o.verifyKey != nil {
				return nil, newErr(KindUnsigned, EntryPlan, "the plan file was written by Terraform or OpenTofu, which do not sign plans")
			}
			return openForeign(entries, o)
		}
		if by, ok := plans.ReadForeignPlanInfo(entries[EntryPlan]); ok {
			if by != "" {
				by = " by version " + by
			}
			return nil, newErr(KindForeignPlan, EntryPlan, "written%s (plan format 3); plankit reads only the plan files it writes", by)
		}
	}
	for _, name := range requiredEntries {
		if _, ok := entries[name]; ok {
			continue
		}
		if name == EntryPlan {
			return nil, newErr(KindMissingEntry, name, "the archive has no plan; it is not a plan file")
		}
		if name != EntryManifest { // a missing manifest is an integrity failure
			return nil, newErr(KindMissingEntry, name, "the archive lacks a required entry; it is incomplete")
		}
	}
	// The version comes before the integrity check: a plan of a newer
	// format may protect itself differently, and the version is the
	// useful thing to report.
	info, err := plans.ReadFormatInfo(entries[EntryPlan])
	if err != nil {
		return nil, wrapErr(KindCorrupt, EntryPlan, err)
	}
	if err := plans.CheckFormatInfo(info); err != nil {
		return nil, wrapErr(KindFormatVersion, EntryPlan, err)
	}
	if err := checkIntegrity(entries); err != nil {
		return nil, err
	}
	if o.verifyKey != nil {
		if err := verifySignature(entries, o.verifyKey); err != nil {
			return nil, err
		}
	}
	return &Reader{entries: entries, format: info}, nil
}

// FormatInfo returns the plan's format version and the version of the
// program that wrote it.
func (r *Reader) FormatInfo() plans.FormatInfo { return r.format }

// Signed reports whether the archive carries a signature (Verify checks it).
func (r *Reader) Signed() bool {
	_, ok := r.entries[EntrySignature]
	return ok
}

// Verify checks the archive's Ed25519 signature against pub. Open has
// already checked every entry against the signed manifest, so a good
// signature vouches for the whole archive. KindUnsigned means there is no
// signature, KindSignature that it does not match.
func (r *Reader) Verify(pub ed25519.PublicKey) error {
	return r.withPath(verifySignature(r.entries, pub))
}

// EntryNames returns the names of the archive's entries, sorted.
func (r *Reader) EntryNames() []string {
	return slices.Sorted(maps.Keys(r.entries))
}

// Entry returns a copy of an entry's raw bytes, for tooling.
func (r *Reader) Entry(name string) ([]byte, bool) {
	b, ok := r.entries[name]
	return bytes.Clone(b), ok
}

// ReadPlan decodes the plan, with PriorState and PrevRunState taken from
// the archive's state files and Files from its tfdata/ entries.
func (r *Reader) ReadPlan() (*plans.Plan, error) {
	if r.foreign != nil {
		p, _, err := r.ReadForeignPlan()
		return p, err
	}
	p, _, err := plans.Unmarshal(r.entries[EntryPlan])
	if err != nil {
		kind := KindCorrupt
		var ve *plans.FormatVersionError
		if errors.As(err, &ve) {
			kind = KindFormatVersion
		}
		return nil, r.withPath(wrapErr(kind, EntryPlan, err))
	}
	prior, err := r.ReadStateFile()
	if err != nil {
		return nil, err
	}
	prev, err := r.ReadPrevStateFile()
	if err != nil {
		return nil, err
	}
	files, err := readFiles(r.entries)
	if err != nil {
		return nil, r.withPath(err)
	}
	p.PriorState, p.PrevRunState, p.Files = prior.State, prev.State, files
	return p, nil
}

// ReadStateFile decodes the prior state file (lineage and serial
// included). Its State is the one ReadPlan gives as PriorState: the
// entry is decoded once. Callers must not modify it.
func (r *Reader) ReadStateFile() (*statefile.File, error) {
	return r.readState(EntryPriorState)
}

// ReadPrevStateFile decodes the previous-run state file (decoded once,
// as ReadStateFile).
func (r *Reader) ReadPrevStateFile() (*statefile.File, error) {
	return r.readState(EntryPrevRunState)
}

func (r *Reader) readState(name string) (*statefile.File, error) {
	r.statesMu.Lock()
	defer r.statesMu.Unlock()
	if f := r.states[name]; f != nil {
		return f, nil
	}
	// The two state entries of a plan made without changes outside
	// plankit hold the same bytes: decode them once and share the result
	// (callers never modify it).
	other := EntryPriorState
	if name == EntryPriorState {
		other = EntryPrevRunState
	}
	if f := r.states[other]; f != nil && bytes.Equal(r.entries[name], r.entries[other]) {
		r.states[name] = f
		return f, nil
	}
	f, err := statefile.Read(bytes.NewReader(r.entries[name]))
	if err != nil {
		return nil, r.withPath(wrapErr(KindCorrupt, name, err))
	}
	if r.states == nil {
		r.states = map[string]*statefile.File{}
	}
	r.states[name] = f
	return f, nil
}

// ReadConfigSnapshot returns the configuration snapshot.
func (r *Reader) ReadConfigSnapshot() (*configs.Snapshot, error) {
	read := readSnapshot
	if r.foreign != nil {
		read = readForeignSnapshot
	}
	s, err := read(r.entries)
	if err != nil {
		return nil, r.withPath(err)
	}
	return s, nil
}

// ReadConfig loads the configuration from the snapshot, reading nothing
// from disk.
func (r *Reader) ReadConfig() (*configs.Config, hcl.Diagnostics) {
	s, err := r.ReadConfigSnapshot()
	if err != nil {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid configuration snapshot in plan file",
			Detail:   err.Error() + ". Create a new plan.",
		}}
	}
	return configs.LoadConfigSnapshot(s)
}

// ReadDependencyLocks decodes the lock file stored at plan time. Warnings
// the lock file parser reports are dropped; errors give a KindCorrupt
// *Error.
func (r *Reader) ReadDependencyLocks() (*depsfile.Locks, error) {
	locks, diags := depsfile.LoadLocksFromBytes(r.entries[EntryLocks], EntryLocks)
	if diags.HasErrors() {
		return nil, r.withPath(wrapErr(KindCorrupt, EntryLocks, diags))
	}
	return locks, nil
}

// Close releases the archive's memory. The Reader must not be used after.
func (r *Reader) Close() error {
	r.entries = nil
	return nil
}

func (r *Reader) withPath(err error) error {
	var pe *Error
	if errors.As(err, &pe) && pe.Path == "" {
		pe.Path = r.path
	}
	return err
}
