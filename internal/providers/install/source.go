package install

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	version "github.com/hashicorp/go-version"

	"github.com/plankit/plankit/addrs"
)

// SourceKind says where a Source comes from; it decides which layouts the
// directory may hold.
type SourceKind int

const (
	// PluginDir is a -plugin-dir directory: a filesystem mirror, packed
	// or unpacked.
	PluginDir SourceKind = iota + 1
	// WorkingDir is the working directory's .terraform/providers, as init
	// leaves it: unpacked only.
	WorkingDir
	// Mirror is a filesystem_mirror of the CLI configuration, or the
	// implied ~/.terraform.d/plugins when the configuration has no
	// provider_installation block: packed or unpacked.
	Mirror
	// PluginCache is plugin_cache_dir or TF_PLUGIN_CACHE_DIR: unpacked
	// only.
	PluginCache
)

// Source is one directory providers are looked up in.
type Source struct {
	Kind SourceKind
	// Dir is the directory, as given (relative to the process's working
	// directory or absolute).
	Dir string
	// Origin says, for messages, where the directory was configured:
	// "-plugin-dir", "filesystem_mirror in /home/u/.terraformrc", ...
	Origin string
	// Include and Exclude are the filesystem_mirror's provider patterns
	// (HOST/NAMESPACE/TYPE, each part may be "*"); empty Include means
	// every provider.
	Include, Exclude []Pattern
}

// String describes the source for messages: "-plugin-dir /tmp/plugins".
func (s *Source) String() string { return s.Origin + " " + s.Dir }

// Serves reports whether the source's include and exclude patterns let it
// serve p.
func (s *Source) Serves(p addrs.Provider) bool {
	if len(s.Include) > 0 && !matchAny(s.Include, p) {
		return false
	}
	return !matchAny(s.Exclude, p)
}

func (s *Source) packed() bool { return s.Kind == PluginDir || s.Kind == Mirror }

// Package is one provider package found in a source, for the current
// platform.
type Package struct {
	Provider addrs.Provider
	Version  *version.Version
	// Dir is the unpacked package directory ("" for a packed package not
	// yet unpacked).
	Dir string
	// Zip is the packed package's file ("" for an unpacked one).
	Zip    string
	Source *Source
}

// Location is the package's directory or zip file, for messages.
func (p *Package) Location() string {
	if p.Zip != "" {
		return p.Zip
	}
	return p.Dir
}

// scan lists the packages of p the source holds for platform (OS_ARCH),
// newest first, and describes in found what it saw (every version, with
// its platforms when none is this one) for "not found" messages. O(entries
// of the provider's directory).
func (s *Source) scan(p addrs.Provider, platform string) (pkgs []*Package, found []string) {
	base := filepath.Join(s.Dir, p.Hostname, p.Namespace, p.Type)
	entries, err := os.ReadDir(base)
	if err != nil {
		if !os.IsNotExist(err) {
			found = append(found, fmt.Sprintf("cannot read %s: %s", base, err))
		}
		return nil, found
	}
	zipPrefix := "terraform-provider-" + p.Type + "_"
	others := map[string][]string{} // version -> other platforms
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || isDirLink(filepath.Join(base, name)) {
			v, err := version.NewVersion(name)
			if err != nil {
				continue
			}
			dir := filepath.Join(base, name, platform)
			if st, err := os.Stat(dir); err == nil && st.IsDir() {
				pkgs = append(pkgs, &Package{Provider: p, Version: v, Dir: dir, Source: s})
				continue
			}
			others[v.String()] = append(others[v.String()], subdirs(filepath.Join(base, name))...)
			continue
		}
		if !s.packed() || !strings.HasPrefix(name, zipPrefix) || !strings.HasSuffix(name, ".zip") {
			continue
		}
		// terraform-provider-TYPE_VERSION_OS_ARCH.zip
		parts := strings.Split(strings.TrimSuffix(strings.TrimPrefix(name, zipPrefix), ".zip"), "_")
		if len(parts) != 3 {
			continue
		}
		v, err := version.NewVersion(parts[0])
		if err != nil {
			continue
		}
		if parts[1]+"_"+parts[2] != platform {
			others[v.String()] = append(others[v.String()], parts[1]+"_"+parts[2])
			continue
		}
		pkgs = append(pkgs, &Package{Provider: p, Version: v, Zip: filepath.Join(base, name), Source: s})
	}
	sort.SliceStable(pkgs, func(i, j int) bool {
		if c := pkgs[i].Version.Compare(pkgs[j].Version); c != 0 {
			return c > 0
		}
		// The same version unpacked and packed: the unpacked one first.
		return pkgs[i].Zip == "" && pkgs[j].Zip != ""
	})
	for _, pkg := range pkgs {
		kind := "unpacked"
		if pkg.Zip != "" {
			kind = "packed"
		}
		found = append(found, fmt.Sprintf("%s (%s, %s)", pkg.Version, platform, kind))
	}
	for _, v := range sortedVersionKeys(others) {
		plats := others[v]
		sort.Strings(plats)
		if len(plats) == 0 {
			found = append(found, fmt.Sprintf("%s (no package for any platform)", v))
			continue
		}
		found = append(found, fmt.Sprintf("%s (only for %s, not %s)", v, strings.Join(plats, ", "), platform))
	}
	return pkgs, found
}

func isDirLink(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

func subdirs(dir string) []string {
	entries, _ := os.ReadDir(dir)
	var out []string
	for _, e := range entries {
		if e.IsDir() || isDirLink(filepath.Join(dir, e.Name())) {
			out = append(out, e.Name())
		}
	}
	return out
}

func sortedVersionKeys(m map[string][]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, _ := version.NewVersion(keys[i])
		b, _ := version.NewVersion(keys[j])
		return a.GreaterThan(b)
	})
	return keys
}

// executable returns the provider's executable in an unpacked package
// directory: the one regular file whose name starts with
// terraform-provider-TYPE (terraform-provider-TYPE_vVERSION as published,
// or any suffix, as Terraform accepts).
func executable(dir, typeName string) (string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	prefix := "terraform-provider-" + typeName
	var names []string
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), prefix) {
			continue
		}
		st, err := os.Stat(filepath.Join(dir, e.Name()))
		if err != nil || !st.Mode().IsRegular() {
			continue
		}
		names = append(names, e.Name())
	}
	switch len(names) {
	case 0:
		return "", fmt.Errorf("the package directory %s has no file named %s*", dir, prefix)
	case 1:
		return filepath.Join(dir, names[0]), nil
	}
	sort.Strings(names)
	return "", fmt.Errorf("the package directory %s has several files named %s* (%s); keep one", dir, prefix, strings.Join(names, ", "))
}

// Pattern is a provider address pattern of a filesystem_mirror's include
// or exclude: HOST/NAMESPACE/TYPE where any part may be "*"; a two-part
// pattern has the host registry.terraform.io.
type Pattern struct{ Host, Namespace, Type string }

// ParsePattern parses a provider address pattern.
func ParsePattern(s string) (Pattern, error) {
	parts := strings.Split(strings.ToLower(s), "/")
	for _, p := range parts {
		if p == "" {
			return Pattern{}, fmt.Errorf("invalid provider pattern %q: it has an empty part", s)
		}
	}
	switch len(parts) {
	case 2:
		return Pattern{Host: addrs.DefaultProviderRegistryHost, Namespace: parts[0], Type: parts[1]}, nil
	case 3:
		return Pattern{Host: parts[0], Namespace: parts[1], Type: parts[2]}, nil
	}
	return Pattern{}, fmt.Errorf("invalid provider pattern %q: write NAMESPACE/TYPE or HOSTNAME/NAMESPACE/TYPE, where any part may be \"*\"", s)
}

// Match reports whether p matches the pattern.
func (pt Pattern) Match(p addrs.Provider) bool {
	m := func(pat, s string) bool { return pat == "*" || pat == s }
	return m(pt.Host, p.Hostname) && m(pt.Namespace, p.Namespace) && m(pt.Type, p.Type)
}

func matchAny(pats []Pattern, p addrs.Provider) bool {
	for _, pt := range pats {
		if pt.Match(p) {
			return true
		}
	}
	return false
}
