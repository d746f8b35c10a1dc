package filerec

import (
	"bytes"
	"errors"
	"io/fs"
	"slices"
	"sync"

	"github.com/plankit/plankit/internal/lang"
	"github.com/plankit/plankit/plans"
)

// Recorder is a lang.FileSource that passes every call to another source
// and records what it answered, one record per name: the first answer wins,
// except that a file read after fileexists saw it is recorded with its
// content. Errors other than "does not exist" (a directory read as a file,
// permissions) are not recorded: apply meets them again on the disk. Safe
// for concurrent use; memory O(bytes read).
type Recorder struct {
	src  lang.FileSource
	mu   sync.Mutex
	recs map[string]*plans.File
}

var _ lang.FileSource = (*Recorder)(nil)

// NewRecorder returns a Recorder in front of src.
func NewRecorder(src lang.FileSource) *Recorder {
	return &Recorder{src: src, recs: map[string]*plans.File{}}
}

// ReadFile reads name from the source and records its content.
func (r *Recorder) ReadFile(name string) ([]byte, error) {
	b, err := r.src.ReadFile(name)
	switch {
	case err == nil:
		r.record(&plans.File{Path: name, Kind: plans.FileContent, Content: bytes.Clone(b)})
	case errors.Is(err, fs.ErrNotExist):
		r.record(&plans.File{Path: name, Kind: plans.FileAbsent})
	}
	return b, err
}

// Stat asks the source and records whether a regular file is there.
func (r *Recorder) Stat(name string) (fs.FileMode, error) {
	mode, err := r.src.Stat(name)
	switch {
	case err == nil && mode.IsRegular():
		r.record(&plans.File{Path: name, Kind: plans.FileExists})
	case errors.Is(err, fs.ErrNotExist):
		r.record(&plans.File{Path: name, Kind: plans.FileAbsent})
	}
	return mode, err
}

// ListFiles lists dir through the source and records the listing.
func (r *Recorder) ListFiles(dir string) ([]string, error) {
	list, err := r.src.ListFiles(dir)
	switch {
	case err == nil:
		r.record(&plans.File{Path: dir, Kind: plans.FileDir, List: slices.Clone(list)})
	case errors.Is(err, fs.ErrNotExist):
		r.record(&plans.File{Path: dir, Kind: plans.FileAbsent})
	}
	return list, err
}

func (r *Recorder) record(f *plans.File) {
	r.mu.Lock()
	defer r.mu.Unlock()
	old, ok := r.recs[f.Path]
	if !ok || (old.Kind == plans.FileExists && f.Kind == plans.FileContent) {
		r.recs[f.Path] = f
	}
}

// Files returns the records sorted by path (nil when nothing was
// recorded), ready for plans.Plan.Files. O(n log n).
func (r *Recorder) Files() []*plans.File {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.recs) == 0 {
		return nil
	}
	out := make([]*plans.File, 0, len(r.recs))
	for _, f := range r.recs {
		out = append(out, f)
	}
	plans.SortFiles(out)
	return out
}
