// Package operation is what plankit's commands do, apart from how they are
// asked and how they report: it loads the configuration and the values of
// its variables, resolves the backend and opens, locks and writes its
// state (folding an interrupted apply's journal in, and leaving a recovery
// copy when the state cannot be written), configures encryption, finds
// and checks the providers a run needs against the dependency lock file
// (ProviderSource: discovery, implied registry hosts, prestarting
// plugins), and opens and writes plan archives.
//
// It knows nothing of flags, terminals or the process: a command
// (internal/command) parses its flags into plain values (a directory,
// variables, backend settings, an environment as KEY=VALUE strings) and
// passes them here; what an operation has to say goes back as
// diagnostics, or through the View it is given, for internal/command/views
// to render.
package operation

// Version is plankit's version, reported in -json output, show -json's
// terraform_version, the state's lock info and recovery log, and the lock
// file entries of built-in providers.
const Version = "0.1.0"
