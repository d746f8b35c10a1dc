package planfile

import "fmt"

// Kind classifies why an archive was refused. A Kind is itself an error, so
// callers can test with errors.Is(err, planfile.KindTruncated); errors.As
// with *Error gives the entry concerned.
type Kind int

const (
	// KindIO: the file could not be read or written.
	KindIO Kind = iota + 1
	// KindNotArchive: the file is not a ZIP archive at all.
	KindNotArchive
	// KindTruncated: the file starts like a ZIP archive but its structure is
	// cut short or damaged.
	KindTruncated
	// KindBadEntryName: an entry name is absolute, climbs out with "..",
	// uses backslashes or control characters, or is empty.
	KindBadEntryName
	// KindDuplicateEntry: two entries have the same name.
	KindDuplicateEntry
	// KindTooManyEntries: more entries than Limits.MaxEntries.
	KindTooManyEntries
	// KindTooLarge: an entry or the whole archive is larger than Limits
	// allow, declared or actual.
	KindTooLarge
	// KindCompressionRatio: an entry expands more than Limits.MaxRatio
	// times (a ZIP bomb).
	KindCompressionRatio
	// KindUnsupportedCompression: an entry uses a method other than store
	// or deflate.
	KindUnsupportedCompression
	// KindChecksum: an entry's CRC-32 does not match its content.
	KindChecksum
	// KindMissingEntry: a required entry is absent.
	KindMissingEntry
	// KindIntegrity: an entry does not match its SHA-256 in tfplan.sha256,
	// or that manifest is missing, malformed or incomplete.
	KindIntegrity
	// KindFormatVersion: the plan's major format version is not this
	// program's.
	KindFormatVersion
	// KindUnsigned: Verify was asked for but the archive has no signature.
	KindUnsigned
	// KindSignature: the signature does not match the verify key.
	KindSignature
	// KindCorrupt: an entry passed the integrity checks but its content
	// does not decode.
	KindCorrupt
	// KindForeignPlan: the file is a plan Terraform or OpenTofu wrote
	// (plan -out), which plankit does not read.
	KindForeignPlan
)

var kindNames = [...]string{
	KindIO: "I/O error", KindNotArchive: "not a plan archive", KindTruncated: "truncated or damaged archive",
	KindBadEntryName: "unsafe entry name", KindDuplicateEntry: "duplicate entry",
	KindTooManyEntries: "too many entries", KindTooLarge: "entry too large",
	KindCompressionRatio: "suspicious compression ratio", KindUnsupportedCompression: "unsupported compression",
	KindChecksum: "checksum mismatch", KindMissingEntry: "missing entry", KindIntegrity: "integrity check failed",
	KindFormatVersion: "unsupported format version", KindUnsigned: "archive not signed",
	KindSignature: "bad signature", KindCorrupt: "corrupt entry",
	KindForeignPlan: "Terraform or OpenTofu plan file",
}

// Error returns the kind's short description, e.g. "duplicate entry".
func (k Kind) Error() string {
	if k > 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("planfile.Kind(%d)", int(k))
}

// Error is why an archive could not be written or opened.
type Error struct {
	Kind Kind
	// Path is the archive's file path, when known.
	Path string
	// Entry is the archive entry concerned, if any.
	Entry string
	// Err is the detail.
	Err error
}

func (e *Error) Error() string {
	s := "plan file"
	if e.Path != "" {
		s += " " + e.Path
	}
	s += ": " + e.Kind.Error()
	if e.Entry != "" {
		s += fmt.Sprintf(" (entry %q)", e.Entry)
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the detail error.
func (e *Error) Unwrap() error { return e.Err }

// Is makes errors.Is(err, kind) work.
func (e *Error) Is(target error) bool {
	k, ok := target.(Kind)
	return ok && k == e.Kind
}

func newErr(kind Kind, entry string, format string, args ...any) *Error {
	return &Error{Kind: kind, Entry: entry, Err: fmt.Errorf(format, args...)}
}

func wrapErr(kind Kind, entry string, err error) *Error {
	return &Error{Kind: kind, Entry: entry, Err: err}
}
