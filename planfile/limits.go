package planfile

// Limits bound what Open accepts, so that a hostile archive cannot exhaust
// memory or time. Open keeps every entry in memory, so MaxTotalSize is also
// its memory bound.
type Limits struct {
	// MaxArchiveSize is the largest archive file accepted, in bytes.
	MaxArchiveSize int64
	// MaxEntries is the most entries an archive may have.
	MaxEntries int
	// MaxEntrySize is the largest uncompressed size of one entry.
	MaxEntrySize uint64
	// MaxTotalSize is the largest uncompressed size of all entries.
	MaxTotalSize uint64
	// MaxRatio is the largest uncompressed/compressed ratio of an entry
	// bigger than RatioFloor; deflate cannot legitimately exceed ~1032.
	MaxRatio uint64
	// RatioFloor is the uncompressed size below which MaxRatio is not
	// checked (tiny, repetitive files compress very well, harmlessly).
	RatioFloor uint64
}

// DefaultLimits fit plans of a few hundred thousand changes and
// configurations of thousands of files.
func DefaultLimits() Limits {
	return Limits{
		MaxArchiveSize: 1 << 30,
		MaxEntries:     20000,
		MaxEntrySize:   1 << 30,
		MaxTotalSize:   2 << 30,
		MaxRatio:       500,
		RatioFloor:     1 << 20,
	}
}
