package planfile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/plankit/plankit/plans"
)

// filesManifest is tfdata/files.json: the files the plan's functions read
// or looked for (plans.Plan.Files), in Plan.Files order. Contents live in
// entries of their own, so each has its SHA-256 line in tfplan.sha256 and
// the per-entry limits of Open.
type filesManifest struct {
	Files []filesManifestFile `json:"files"`
}

type filesManifestFile struct {
	Path  string   `json:"path"`
	Kind  string   `json:"kind"`
	Entry string   `json:"entry,omitempty"`
	List  []string `json:"list,omitempty"`
}

// dataEntryName is the entry holding the content of the i-th file record.
func dataEntryName(i int) string { return EntryDataDir + strconv.Itoa(i) }

// filesEntries turns the plan's file records into entries: the manifest
// and one entry per file read. Nothing is added when there are none, so
// archives of configurations that read no files do not change. O(total
// content size).
func filesEntries(files []*plans.File, entries map[string][]byte) error {
	if len(files) == 0 {
		return nil
	}
	if err := plans.CheckFiles(files); err != nil {
		return fmt.Errorf("plan files: %w", err)
	}
	m := filesManifest{Files: make([]filesManifestFile, len(files))}
	for i, f := range files {
		mf := filesManifestFile{Path: f.Path, Kind: f.Kind.String(), List: f.List}
		if f.Kind == plans.FileContent {
			mf.Entry = dataEntryName(i)
			entries[mf.Entry] = f.Content
		}
		m.Files[i] = mf
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	entries[EntryDataFiles] = append(b, '\n')
	return nil
}

// readFiles rebuilds the plan's file records. Every tfdata/ entry must be
// listed in files.json, once, and every listed entry present; the paths are
// checked (plans.CheckFiles) and only ever used as lookup keys. Returns nil
// when the archive has no files.
func readFiles(entries map[string][]byte) ([]*plans.File, error) {
	raw, ok := entries[EntryDataFiles]
	if !ok {
		if data := entriesUnder(entries, EntryDataDir, nil); len(data) > 0 {
			return nil, newErr(KindCorrupt, data[0], "the archive has file data but no %s listing it", EntryDataFiles)
		}
		return nil, nil
	}
	var m filesManifest
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return nil, wrapErr(KindCorrupt, EntryDataFiles, err)
	}
	files := make([]*plans.File, 0, len(m.Files))
	listed := map[string]bool{EntryDataFiles: true}
	for _, mf := range m.Files {
		kind, ok := plans.ParseFileKind(mf.Kind)
		if !ok {
			return nil, newErr(KindCorrupt, EntryDataFiles, "file %q has an unknown kind %q", mf.Path, mf.Kind)
		}
		f := &plans.File{Path: mf.Path, Kind: kind, List: mf.List}
		switch {
		case kind == plans.FileContent:
			if !strings.HasPrefix(mf.Entry, EntryDataDir) || mf.Entry == EntryDataFiles {
				return nil, newErr(KindCorrupt, EntryDataFiles, "file %q names entry %q, which is not a file data entry", mf.Path, mf.Entry)
			}
			b, ok := entries[mf.Entry]
			if !ok {
				return nil, newErr(KindMissingEntry, mf.Entry, "%s lists the entry but the archive does not have it", EntryDataFiles)
			}
			if listed[mf.Entry] {
				return nil, newErr(KindCorrupt, EntryDataFiles, "entry %q is listed twice", mf.Entry)
			}
			listed[mf.Entry] = true
			f.Content = bytes.Clone(b)
		case mf.Entry != "":
			return nil, newErr(KindCorrupt, EntryDataFiles, "file %q (%s) names an entry", mf.Path, mf.Kind)
		}
		files = append(files, f)
	}
	if err := plans.CheckFiles(files); err != nil {
		return nil, wrapErr(KindCorrupt, EntryDataFiles, err)
	}
	if unlisted := entriesUnder(entries, EntryDataDir, listed); len(unlisted) > 0 {
		return nil, newErr(KindCorrupt, unlisted[0], "the file data entry is not listed in %s", EntryDataFiles)
	}
	if len(files) == 0 {
		return nil, nil
	}
	return files, nil
}

// entriesUnder returns the sorted names of the entries under dir (a prefix
// ending in "/") that are not in skip: what a manifest failed to list.
func entriesUnder(entries map[string][]byte, dir string, skip map[string]bool) []string {
	var out []string
	for name := range entries {
		if strings.HasPrefix(name, dir) && !skip[name] {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}
