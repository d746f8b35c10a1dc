// Package planfile writes and opens plan archives (`.tfplan`): one ZIP file
// that holds everything apply needs, so that a plan made in one CI job can
// be reviewed, kept and applied in another, from any directory, with no
// configuration directory or state backend at hand.
//
// # Layout
//
// Entries, in the order written (sorted by name):
//
//	.terraform.lock.hcl        provider lock file at plan time
//	tfconfig/modules.json      configuration snapshot manifest (see below)
//	tfconfig/<file>            the root module's source files
//	tfconfig/m-<key>/<file>    source files of the module at <key>
//	                           (module call names joined by ".", e.g. m-net.sub)
//	tfplan                     the plan, protobuf (package plans, Marshal)
//	tfplan.sha256              SHA-256 of every other entry, `sha256sum` format
//	tfplan.sha256.sig          optional Ed25519 signature of tfplan.sha256
//	tfstate                    prior (refreshed) state, v4 JSON
//	tfstate-prev               previous-run state, v4 JSON
//
// tfconfig/modules.json is {"modules":[{"key","dir","source","files"}]},
// sorted by key, each module's files sorted by name; it is the authority on
// which tfconfig/ entries exist.
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
