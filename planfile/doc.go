// Package planfile writes and opens plan archives (`.tfplan`): one ZIP file
// that holds everything apply needs, so that a plan made in one CI job can
// be reviewed, kept and applied in another, from any directory, with no
// configuration directory or state backend at hand.
//
// # Layout
//
// The entries and what each holds are listed once, in docs/archive.md of
// the repository (a test there keeps that table and the Entry* constants
// in step). Entries are written sorted by name; tfconfig/modules.json is
// the authority on which tfconfig/ entries exist.
//
// # Files read by functions
//
// The snapshot holds only configuration files (.tf, .tf.json, .tofu,
// .tofu.json), yet apply evaluates the configuration again, and file(),
// templatefile(), filebase64(), fileexists(), fileset() and
// filemd5()/filesha*() read the disk. So the
// plan records what those functions saw (plans.Plan.Files) and the archive
// carries it: tfdata/files.json is {"files":[{"path","kind","entry","list"}]}
// sorted by path, where path is the name as the function resolved it
// (slash-separated, relative to the working directory, absolute only for
// files outside it) and kind is "content" (the bytes are in entry
// tfdata/<n>), "exists" (fileexists saw a file nothing read), "absent"
// (nothing was there) or "dir" (fileset's listing, in list). Apply serves
// these instead of the disk, so it uses the reviewed bytes even if the file
// changed since, and works in a directory without the files; it reads the
// disk only for files the plan never looked at (paths known only at apply).
// Paths are lookup keys only: nothing is ever written to disk from them.
// tfdata/ entries are covered by tfplan.sha256 and Open's limits like every
// entry, and files.json is the authority on which of them exist. Archives
// of configurations that read no files have no tfdata/ entries.
//
// The archive has no version of its own: the format version in tfplan
// covers the whole layout. Readers accept every minor version of their
// major and ignore entries they do not know (as long as tfplan.sha256
// covers them).
//
// # Guarantees
//
// Writing is atomic (temporary file, fsync, rename) and byte-reproducible:
// entries are sorted, every entry has the same fixed time (1980-01-01 unless
// CreateArgs.Time says otherwise), the plan and JSON encodings are
// deterministic and the compression level is fixed.
//
// Opening is defensive: the archive is checked (names, duplicates, counts,
// sizes, compression ratio, CRCs, SHA-256 of every entry) before anything in
// it is decoded; nothing is extracted to disk and nothing is executed. Every
// refusal is an *Error whose Kind says which check failed.
package planfile
