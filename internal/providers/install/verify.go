package install

import (
	"fmt"
	"slices"
	"strings"
)

// verify hashes pkg, checks the hashes against the locked ones, unpacks a
// packed package into the cache and finds its executable.
func (f *Finder) verify(req Requirement, pkg *Package) (*Selection, error) {
	p := req.Provider
	sel := &Selection{Provider: p, Version: pkg.Version.String(), Package: pkg}
	bad := func(err error) error {
		return &Error{Kind: BadPackage, Provider: p, Summary: "Unusable provider package",
			Detail: fmt.Sprintf("The package of %s %s at %s (%s) cannot be used: %s.\n\nReinstall it (terraform init), or remove it from that directory.", p.ForDisplay(), sel.Version, pkg.Location(), pkg.Source, err)}
	}
	if pkg.Zip != "" {
		zh, err := hashZipFileMemo(pkg.Zip)
		if err != nil {
			return nil, bad(err)
		}
		h1, err := hashZipMemo(pkg.Zip)
		if err != nil {
			return nil, bad(err)
		}
		sel.Hashes = []string{h1, zh}
		if err := checkHashes(req, pkg, sel.Hashes); err != nil {
			return nil, err
		}
		dir, err := unpack(f.CacheDir, pkg.Zip, zh, h1)
		if err != nil {
			return nil, bad(err)
		}
		sel.Dir = dir
	} else {
		h1, err := hashDirMemo(pkg.Dir)
		if err != nil {
			return nil, bad(err)
		}
		sel.Hashes = []string{h1}
		if err := checkHashes(req, pkg, sel.Hashes); err != nil {
			return nil, err
		}
		sel.Dir = pkg.Dir
	}
	exe, err := executable(sel.Dir, p.Type)
	if err != nil {
		return nil, bad(err)
	}
	sel.Executable = exe
	return sel, nil
}

// checkHashes accepts the package when nothing is locked, or when the
// lock has no hashes (Terraform trusts such an entry's version), or when
// one of the package's hashes is among the locked ones.
func checkHashes(req Requirement, pkg *Package, have []string) error {
	if req.Locked == "" || len(req.LockedHashes) == 0 {
		return nil
	}
	for _, h := range have {
		if slices.Contains(req.LockedHashes, h) {
			return nil
		}
	}
	return &Error{Kind: HashMismatch, Provider: req.Provider, Summary: "Provider package does not match the lock file",
		Detail: fmt.Sprintf("The package of %s %s at %s (%s) has hash %s, which is none of the hashes %s records for it:\n%s\n\nThe package was changed or is another build of that version. Install the package the lock file trusts (terraform init, or the mirror it came from). If you trust this package instead, remove the block provider %q from %s and plan again to record it.",
			req.Provider.ForDisplay(), pkg.Version, pkg.Location(), pkg.Source, strings.Join(have, " / "), req.LockFile, bullets(req.LockedHashes), req.Provider.String(), req.LockFile)}
}

// VerifyPackage is Find's hash check alone, for callers holding a
// Selection: it reports whether dir (an unpacked package) still has
// hash h1.
func VerifyPackage(dir, h1 string) error {
	got, err := HashDir(dir)
	if err != nil {
		return err
	}
	if got != h1 {
		return fmt.Errorf("%s has hash %s, want %s", dir, got, h1)
	}
	return nil
}
