package planfile

import (
	"fmt"
	"strings"
	"unicode"
)

// Entry names of the archive.
const (
	EntryPlan          = "tfplan"
	EntryPriorState    = "tfstate"
	EntryPrevRunState  = "tfstate-prev"
	EntryLocks         = ".terraform.lock.hcl"
	EntryConfigDir     = "tfconfig/"
	EntryConfigModules = "tfconfig/modules.json"
	EntryDataDir       = "tfdata/"
	EntryDataFiles     = "tfdata/files.json"
	EntryManifest      = "tfplan.sha256"
	EntrySignature     = "tfplan.sha256.sig"
)

// requiredEntries must be present in every archive; the signature is
// optional and config files are required as modules.json lists them.
var requiredEntries = []string{EntryPlan, EntryPriorState, EntryPrevRunState, EntryLocks, EntryConfigModules, EntryManifest}

// checkEntryName refuses names that could escape a directory if someone
// did extract the archive, or that are ambiguous: empty, absolute (/x, C:),
// with backslashes, "." or ".." segments, empty segments, directory entries,
// control characters or invalid UTF-8.
func checkEntryName(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("the name is empty")
	case strings.HasPrefix(name, "/"):
		return fmt.Errorf("the name is an absolute path")
	case strings.Contains(name, `\`):
		return fmt.Errorf("the name contains a backslash")
	case len(name) >= 2 && name[1] == ':':
		return fmt.Errorf("the name starts with a drive letter")
	case strings.HasSuffix(name, "/"):
		return fmt.Errorf("the name is a directory")
	case !isPrintableUTF8(name):
		return fmt.Errorf("the name has control characters or invalid UTF-8")
	}
	for _, seg := range strings.Split(name, "/") {
		switch seg {
		case "":
			return fmt.Errorf("the name has an empty path segment")
		case ".", "..":
			return fmt.Errorf("the name has a %q path segment", seg)
		}
	}
	return nil
}

func isPrintableUTF8(s string) bool {
	for _, r := range s {
		if r == unicode.ReplacementChar || unicode.IsControl(r) {
			return false
		}
	}
	return true
}

// configEntryName is where a module's source file lives in the archive.
func configEntryName(moduleKey, file string) string {
	if moduleKey == "" {
		return EntryConfigDir + file
	}
	return EntryConfigDir + "m-" + moduleKey + "/" + file
}

// checkSnapshotNames refuses module keys and file names that would not map
// one-to-one onto entry names.
func checkSnapshotNames(moduleKey, file string) error {
	if moduleKey != "" {
		for _, seg := range strings.Split(moduleKey, ".") {
			if seg == "" || strings.ContainsAny(seg, `/\`) || !isPrintableUTF8(seg) {
				return fmt.Errorf("module key %q is not a dot-separated list of module call names", moduleKey)
			}
		}
	}
	if file == "" || file == "." || file == ".." || strings.ContainsAny(file, `/\`) || !isPrintableUTF8(file) {
		return fmt.Errorf("module %q: file name %q is not a plain file name", moduleKey, file)
	}
	if moduleKey == "" && (file == "modules.json" || strings.HasPrefix(file, "m-")) {
		return fmt.Errorf("root module file %q would collide with the snapshot's own entries", file)
	}
	return checkEntryName(configEntryName(moduleKey, file))
}
