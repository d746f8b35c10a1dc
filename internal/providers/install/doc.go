// Package install finds installed provider packages, with no network:
// the -plugin-dir directories, the working directory's .terraform/providers
// (as terraform init and tofu init leave it), the CLI configuration's
// filesystem mirrors and plugin cache, and the built-in providers.
//
// Sources are consulted in order of precedence (see Finder.Sources): the
// first source holding a version that meets the configuration's version
// constraints (and the lock file's version, when the provider is locked)
// serves the provider, with its newest such version. A provider for which
// no source holds any package for this platform falls back to a built-in
// provider of the same type, when plankit has one. A provider that cannot
// be found is an *Error naming the address, the constraints, every place
// searched and what was found there.
//
// Package hashes are Terraform's: "h1:" is the Go module dirhash (Hash1)
// of the unpacked package directory, "zh:" the SHA-256 of the packed zip.
// A package is checked against the lock file's hashes before its
// executable is returned, so no process is ever started from a package the
// lock file does not trust. Packed packages are unpacked once into a cache
// directory named by their zh: hash, through a temporary directory that is
// renamed into place only after its h1: hash matched the archive's.
package install
