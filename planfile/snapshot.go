package planfile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/plankit/plankit/configs"
)

// snapshotManifest is tfconfig/modules.json.
type snapshotManifest struct {
	Modules []snapshotManifestModule `json:"modules"`
}

type snapshotManifestModule struct {
	Key    string   `json:"key"`
	Dir    string   `json:"dir"`
	Source string   `json:"source"`
	Files  []string `json:"files"`
}

// snapshotEntries turns a snapshot into archive entries: the manifest and
// one entry per source file. O(total source size).
func snapshotEntries(s *configs.Snapshot, entries map[string][]byte) error {
	var m snapshotManifest
	if s != nil {
		for _, key := range slices.Sorted(maps.Keys(s.Modules)) {
			sm := s.Modules[key]
			if sm == nil {
				return fmt.Errorf("configuration snapshot: module %q is nil", key)
			}
			mm := snapshotManifestModule{Key: key, Dir: sm.Dir, Source: sm.SourceAddr, Files: []string{}}
			for file := range sm.Files {
				mm.Files = append(mm.Files, file)
			}
			slices.Sort(mm.Files)
			for _, file := range mm.Files {
				if err := checkSnapshotNames(key, file); err != nil {
					return fmt.Errorf("configuration snapshot: %w", err)
				}
				name := configEntryName(key, file)
				if _, dup := entries[name]; dup {
					return fmt.Errorf("configuration snapshot: two files map to entry %q", name)
				}
				entries[name] = sm.Files[file]
			}
			m.Modules = append(m.Modules, mm)
		}
	}
	if m.Modules == nil {
		m.Modules = []snapshotManifestModule{}
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	entries[EntryConfigModules] = append(b, '\n')
	return nil
}

// readSnapshot rebuilds the snapshot from the entries. Every tfconfig/
// entry must be listed in modules.json and every listed file present.
func readSnapshot(entries map[string][]byte) (*configs.Snapshot, error) {
	raw, ok := entries[EntryConfigModules]
	if !ok {
		return nil, newErr(KindMissingEntry, EntryConfigModules, "the archive has no configuration snapshot manifest")
	}
	var m snapshotManifest
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return nil, wrapErr(KindCorrupt, EntryConfigModules, err)
	}
	s := &configs.Snapshot{Modules: make(map[string]*configs.SnapshotModule, len(m.Modules))}
	listed := map[string]bool{EntryConfigModules: true}
	for _, mm := range m.Modules {
		if _, dup := s.Modules[mm.Key]; dup {
			return nil, newErr(KindCorrupt, EntryConfigModules, "module %q is listed twice", mm.Key)
		}
		sm := &configs.SnapshotModule{Dir: mm.Dir, SourceAddr: mm.Source, Files: make(map[string][]byte, len(mm.Files))}
		for _, file := range mm.Files {
			if err := checkSnapshotNames(mm.Key, file); err != nil {
				return nil, wrapErr(KindCorrupt, EntryConfigModules, err)
			}
			name := configEntryName(mm.Key, file)
			src, ok := entries[name]
			if !ok {
				return nil, newErr(KindMissingEntry, name, "%s lists the file but the archive does not have it", EntryConfigModules)
			}
			if listed[name] {
				return nil, newErr(KindCorrupt, EntryConfigModules, "file %q is listed twice", name)
			}
			listed[name] = true
			sm.Files[file] = bytes.Clone(src)
		}
		s.Modules[mm.Key] = sm
	}
	if unlisted := entriesUnder(entries, EntryConfigDir, listed); len(unlisted) > 0 {
		return nil, newErr(KindCorrupt, unlisted[0], "the configuration file is not listed in %s", EntryConfigModules)
	}
	return s, nil
}
