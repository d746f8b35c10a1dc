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
//	tfbackend.json             the state backend and workspace
//	                           (EntryBackend); optional
//	tfconfig/modules.json      configuration snapshot manifest (see below)
//	tfconfig/<file>            the root module's source files
//	tfconfig/m-<key>/<file>    source files of the module at <key>
//	                           (module call names joined by ".", e.g. m-net.sub)
//	tfdata/<n>                 content of the n-th file in tfdata/files.json
//	tfdata/files.json          files the configuration's functions read
//	                           (see below); only when there are any
//	tfplan                     the plan, protobuf (package plans, Marshal)
//	tfplan.sha256              SHA-256 of every other entry, `sha256sum` format
//	tfplan.sha256.sig          optional Ed25519 signature of tfplan.sha256
//	tfpolicy.json              the policy check made at plan time
//	                           (EntryPolicy); optional
//	tfshow.json                show -json's members made from the
//	                           configuration (EntryShowJSON); optional
//	tfstate                    prior (refreshed) state, v4 JSON
//	tfstate-prev               previous-run state, v4 JSON
//
// tfconfig/modules.json is {"modules":[{"key","dir","source","files"}]},
// sorted by key, each module's files sorted by name; it is the authority on
// which tfconfig/ entries exist.
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
// # Policy check
//
// tfpolicy.json records the result of the policy check `plan -out
// -policy` made (see docs/policy.md): the digest of the policy bundle and
// each rule's outcome and messages, one JSON object of at most
// MaxPolicySize bytes. Being covered by tfplan.sha256, it is covered by
// the signature, so a signed archive's record cannot be changed or
// removed without the signature failing. Archives without it record no
// check.
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
